"""Reading history as the checks read it: plain rows, not ORM objects, a stretch at a time.

The checks may read a quarter of a million entries for one shift: an ORM object costs several
times as much to build and to read, and holds several times the memory.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from datetime import datetime
from sys import intern
from typing import Any

from sqlalchemy import ColumnElement, and_, select
from sqlalchemy.orm import Session

from dealer.models import ChainLink, Event, Hand, LedgerEntry, PrintRecord

from .chain import (
    DEALT_COLUMNS,
    EVENT_COLUMNS,
    PRINT_COLUMNS,
    entry_link_fields,
    event_link_fields,
    print_link_fields,
)
from .checks import LinkRow

__all__ = [
    "StoredEntry",
    "Stretch",
    "chunks",
    "load_entries",
    "load_stretch",
]

#: Every column of a ledger entry, in `StoredEntry`'s order.
FIELDS = (
    "seq",
    "at",
    "from_account",
    "to_account",
    "chips",
    "reason_code",
    "reason",
    "table_id",
    "hand_id",
    "event_id",
    "user_id",
    "device",
    "reverses",
    "prev_hash",
    "hash",
)


class StoredEntry:
    """A ledger entry as the checks (and the reports) read it: its columns and nothing else.

    The checks read every entry of the ledger; an ORM object costs several times as much to
    build and to read, and holds several times the memory.
    """

    __slots__ = FIELDS

    seq: int
    at: datetime
    from_account: str
    to_account: str
    chips: int
    reason_code: str
    reason: str
    table_id: int
    hand_id: int | None
    event_id: int | None
    user_id: int
    device: str
    reverses: int | None
    prev_hash: str
    hash: str

    def __init__(
        self,
        seq: int,
        at: datetime,
        from_account: str,
        to_account: str,
        chips: int,
        reason_code: str,
        reason: str,
        table_id: int,
        hand_id: int | None,
        event_id: int | None,
        user_id: int,
        device: str,
        reverses: int | None,
        prev_hash: str,
        hash: str,
    ) -> None:
        self.seq = seq
        self.at = at
        self.from_account = from_account
        self.to_account = to_account
        self.chips = chips
        self.reason_code = reason_code
        self.reason = reason
        self.table_id = table_id
        self.hand_id = hand_id
        self.event_id = event_id
        self.user_id = user_id
        self.device = device
        self.reverses = reverses
        self.prev_hash = prev_hash
        self.hash = hash


def load_entries(session: Session, *where: ColumnElement[bool]) -> list[StoredEntry]:
    """The entries that match ``where`` (all of them by default), in seq order.

    Read as a stream (not all rows first, then the entries); the texts that repeat from entry
    to entry (accounts, reasons, devices, the hash an entry shares with the next one's
    ``prev_hash``) are kept once: a busy shift is a quarter of a million entries.
    """
    columns = [getattr(LedgerEntry, name) for name in FIELDS]
    query = select(*columns).where(*where).order_by(LedgerEntry.seq)
    out: list[StoredEntry] = []
    last = ""
    for row in session.connection().execute(query):
        out.append(_entry(row, last))
        last = out[-1].hash
    return out


def _entry(row: Sequence[Any], last: str) -> StoredEntry:
    """An entry from its columns in `FIELDS` order; repeated texts kept once (see load_entries)."""
    (seq, at, source, target, chips, code, reason, table, hand, event, user, device) = row[:12]
    reverses, prev_hash, own_hash = row[12:15]
    return StoredEntry(
        seq,
        at,
        intern(source),
        intern(target),
        chips,
        intern(code),
        intern(reason),
        table,
        hand,
        event,
        user,
        intern(device),
        reverses,
        last if prev_hash == last else prev_hash,
        own_hash,
    )


class Stretch:
    """Links ``low``..``high`` of the keyed chain with their rows, in seq order."""

    __slots__ = ("entries", "events", "high", "links", "low")

    def __init__(self, low: int, high: int) -> None:
        self.low, self.high = low, high
        self.links: list[LinkRow] = []
        #: The entries and events (their columns) the links name, those still there.
        self.entries: list[StoredEntry] = []
        self.events: list[dict[str, Any]] = []


LINK_COLUMNS = (
    ChainLink.seq,
    ChainLink.kind,
    ChainLink.ref,
    ChainLink.at,
    ChainLink.prev_hash,
    ChainLink.hash,
)


def _linked(
    session: Session,
    kind: str,
    low: int,
    high: int,
    row_columns: Sequence[Any],
    *joins: tuple[Any, ColumnElement[bool]],
) -> Iterator[Sequence[Any]]:
    """The links of ``kind`` in ``low``..``high`` with their rows' columns (None: row gone)."""
    query = select(*LINK_COLUMNS, *row_columns).select_from(ChainLink)
    for model, on in joins:
        query = query.outerjoin(model, on)
    query = query.where(ChainLink.kind == kind, ChainLink.seq.between(low, high))
    return iter(session.connection().execute(query.order_by(ChainLink.seq)))


def load_stretch(session: Session, low: int, high: int) -> Stretch:
    """Links ``low``..``high`` and the entries, events (deals with their hands) and prints they
    name; a link whose row is gone comes with ``row`` None."""
    stretch = Stretch(low, high)
    found: list[LinkRow] = []
    entry_columns = [getattr(LedgerEntry, name) for name in FIELDS]
    last = ""
    for row in _linked(
        session, "entry", low, high, entry_columns, (LedgerEntry, LedgerEntry.seq == ChainLink.ref)
    ):
        fields = None
        if row[6] is not None:
            entry = _entry(row[6:], last)
            last = entry.hash
            stretch.entries.append(entry)
            fields = entry_link_fields(entry, entry.hash)
        found.append(_link(row, fields))
    event_columns = [getattr(Event, name) for name in EVENT_COLUMNS]
    hand_columns = [getattr(Hand, name) for name in DEALT_COLUMNS]
    split = 6 + len(EVENT_COLUMNS)
    for row in _linked(
        session,
        "event",
        low,
        high,
        [*event_columns, *hand_columns],
        (Event, Event.id == ChainLink.ref),
        (Hand, and_(Hand.id == Event.hand_id, Event.seq == 1)),
    ):
        fields, hand = None, None
        if row[6] is not None:
            event = dict(zip(EVENT_COLUMNS, row[6:split], strict=True))
            dealt = dict(zip(DEALT_COLUMNS, row[split:], strict=True)) if row[split] else None
            stretch.events.append(event)
            hand = event["hand_id"]
            fields = event_link_fields(event, dealt)
        found.append(_link(row, fields, hand))
    print_columns = [getattr(PrintRecord, name) for name in PRINT_COLUMNS]
    for row in _linked(
        session, "print", low, high, print_columns, (PrintRecord, PrintRecord.id == ChainLink.ref)
    ):
        printed: dict[str, Any] = dict(zip(PRINT_COLUMNS, row[6:], strict=True))
        found.append(_link(row, print_link_fields(printed) if row[6] is not None else None))
    found.sort(key=lambda link: link.seq)
    stretch.links = found
    return stretch


def _link(
    row: Sequence[Any], fields: Mapping[str, object] | None, hand: int | None = None
) -> LinkRow:
    """A link from its columns (`LINK_COLUMNS`, first in ``row``) and its row's fields."""
    seq, kind, ref, at, prev_hash, own_hash = row[:6]
    return LinkRow(seq, kind, ref, at, prev_hash, own_hash, fields, hand)


def chunks(ids: Iterable[int], size: int = 1000) -> Iterator[list[int]]:
    """``ids`` sorted, ``size`` at a time: each database takes only so many parameters."""
    ordered = sorted(set(ids))
    for start in range(0, len(ordered), size):
        yield ordered[start : start + size]
