"""Reading history as the checks read it: plain rows, not ORM objects, a stretch at a time.

The checks may read a quarter of a million entries for one shift: an ORM object costs several
times as much to build and to read, and holds several times the memory.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from sys import intern
from typing import Any

from sqlalchemy import ColumnElement, func, select
from sqlalchemy.orm import InstrumentedAttribute, Session

from dealer.ledger.chain import (
    DEALT_COLUMNS,
    ENTRY_COLUMNS,
    EVENT_COLUMNS,
    EntryFields,
    entry_link_fields,
    event_link_fields,
)
from dealer.ledger.kinds import KINDS
from dealer.ledger.link_checks import LinkRow
from dealer.models import ChainLink, Event, Hand, LedgerEntry

#: Every column of a ledger entry, in `StoredEntry`'s order.
FIELDS = ENTRY_COLUMNS


@dataclass(slots=True, eq=False)
class StoredEntry(EntryFields):
    """A ledger entry as the checks (and the reports) read it: its columns (in `FIELDS` order)
    and nothing else."""

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
    """Links ``low``..``high`` of the keyed chain, read as one stream in seq order (`links`).

    Each link comes with its row's fields, made and dropped as it passes; what is kept as the
    stream goes by: the entries (for their own checks) and the hands the events belong to.
    """

    __slots__ = ("count", "entries", "hands", "high", "low", "session")

    def __init__(self, session: Session, low: int, high: int) -> None:
        self.session, self.low, self.high = session, low, high
        self.count = 0
        self.entries: list[StoredEntry] = []
        self.hands: set[int] = set()

    def links(self) -> Iterator[LinkRow]:
        """Every link with its row's fields (None: the row is gone), in seq order.

        One pass over the links by their seq (the primary key), each joined to its row by the
        row's key within the span of keys the stretch names: what it costs is the stretch, however
        long the history behind it, on either database.
        """
        dealt, aside = self._aside()
        last = ""
        for batch in self._batches():
            entries = self._rows_of(batch, "entry", LedgerEntry.seq, _ENTRY_COLUMNS)
            events = self._rows_of(batch, "event", Event.id, _EVENT_COLUMNS)
            for seq, kind, ref, prev_hash, own_hash in batch:
                self.count += 1
                fields: list[object] | None = None
                hand = None
                if kind == "entry" and ref in entries:
                    stored = _entry(entries[ref], last)
                    last = stored.hash
                    self.entries.append(stored)
                    fields = entry_link_fields(entries[ref])
                elif kind == "event" and ref in events:
                    row = events[ref]
                    hand = row[_EVENT_HAND]
                    self.hands.add(hand)
                    deal = dealt.get(hand) if row[_EVENT_SEQ] == 1 else None
                    fields = event_link_fields(row, deal)
                elif kind in aside:
                    fields = aside[kind].get(ref)
                yield LinkRow(seq, kind, ref, prev_hash, own_hash, fields, hand)

    def _aside(self) -> tuple[dict[int, Any], dict[str, dict[int, list[object]]]]:
        """What the stream reads aside, by the span of keys each kind of row has in the stretch:
        the stretch's deals' hands (by hand), and the few prints, disputes, rulings and audit
        records (by kind, then key) as their links' fields."""
        spans = {
            kind: (low, high)
            for kind, low, high in self.session.execute(
                select(ChainLink.kind, func.min(ChainLink.ref), func.max(ChainLink.ref))
                .where(ChainLink.seq.between(self.low, self.high))
                .group_by(ChainLink.kind)
            )
        }

        def span(kind: str, key: InstrumentedAttribute[int]) -> ColumnElement[bool]:
            low, high = spans.get(kind, (0, -1))
            return key.between(low, high)

        # The few rows of the stretch's deals' hands and of its prints, read aside: the one
        # stream then carries only entries and events.
        deals = span("event", Event.id) & (Event.seq == 1)
        dealt = {
            row[0]: row
            for row in self.session.execute(
                select(*_DEALT_COLUMNS).where(Hand.id.in_(select(Event.hand_id).where(deals)))
            )
        }
        # Prints, disputes, rulings and audit records are few (a shift has hundreds, not the
        # ledger's hundreds of thousands): each kind read aside, in one query of its own.
        aside = {
            kind: {
                row[0]: fields(row)
                for row in self.session.execute(select(*columns).where(span(kind, columns[0])))
            }
            for kind, (columns, fields) in _ASIDE.items()
        }
        return dealt, aside

    def _batches(self) -> Iterator[Sequence[Any]]:
        """The stretch's links, `BATCH` at a time by their seq (the primary key), in order."""
        for low in range(self.low, self.high + 1, BATCH):
            high = min(low + BATCH - 1, self.high)
            yield (
                self.session.connection()
                .execute(
                    select(*LINK_COLUMNS)
                    .where(ChainLink.seq.between(low, high))
                    .order_by(ChainLink.seq)
                )
                .all()
            )

    def _rows_of(
        self,
        batch: Sequence[Any],
        kind: str,
        key: InstrumentedAttribute[int],
        columns: Sequence[InstrumentedAttribute[Any]],
    ) -> dict[int, Sequence[Any]]:
        """The rows of ``kind`` the links of ``batch`` name, by their key (a row gone: absent).

        Read through the key's index, with no join for a planner to misjudge (on a PostgreSQL
        whose statistics lag a busy floor, a join of the links to their rows was once planned
        as a loop over every row of the span for each link): by the span of keys the batch
        names when its rows lie close together, as the app writes them (a row and its link in
        one transaction); else by their keys, so that rows written in another order than their
        links (a database put together in bulk) cost each batch its own rows, not the span's.
        """
        refs = [ref for _, named, ref, _, _ in batch if named == kind]
        if not refs:
            return {}
        low, high = min(refs), max(refs)
        close = high - low < SPAN_AT_MOST * len(refs)
        found = self.session.connection().execute(
            select(*columns).where(key.between(low, high) if close else key.in_(refs))
        )
        return {row[0]: row for row in found}


#: How many links `Stretch.links` reads at a time (with their rows): memory stays flat.
BATCH = 2000
#: A batch's rows are read by their span of keys while it is at most this many times as long
#: as the rows named, else key by key (`Stretch._rows_of`).
SPAN_AT_MOST = 2
#: What a link is read as (`LinkRow`'s first fields).
LINK_COLUMNS = (ChainLink.seq, ChainLink.kind, ChainLink.ref, ChainLink.prev_hash, ChainLink.hash)
_ENTRY_COLUMNS = [getattr(LedgerEntry, name) for name in FIELDS]
_EVENT_COLUMNS = [getattr(Event, name) for name in EVENT_COLUMNS]
#: A deal's link also covers its hand's columns fixed at the deal.
_DEALT_COLUMNS = [getattr(Hand, name) for name in DEALT_COLUMNS]
#: The kinds read aside from the stream (`Stretch.links`): each one's columns, its key
#: first, and what its link covers of a row.
LinkFieldsOf = Callable[[Sequence[Any]], list[object]]
_ASIDE: dict[str, tuple[list[InstrumentedAttribute[Any]], LinkFieldsOf]] = {
    kind.name: ([getattr(kind.model, name) for name in kind.columns], kind.fields)
    for kind in KINDS.values()
    if kind.fields is not None and kind.name != "entry"
}
_EVENT_HAND = EVENT_COLUMNS.index("hand_id")
_EVENT_SEQ = EVENT_COLUMNS.index("seq")


def chunks(ids: Iterable[int], size: int = 1000) -> Iterator[list[int]]:
    """``ids`` sorted, ``size`` at a time: each database takes only so many parameters."""
    ordered = sorted(set(ids))
    for start in range(0, len(ordered), size):
        yield ordered[start : start + size]
