"""Writing the keyed chain: every ledger entry, event, print, dispute and ruling is linked as it
is written.

A link gets the next gapless ``seq`` (under the writers' lock, in the caller's transaction)
and an HMAC under the ledger's key of its row's fields and the link before it (see `chain`).
Rows written before the keyed chain existed are linked once, by ``flask --app dealer ledger
link-unkeyed`` (`link_unkeyed`), after their own sha256 chain has been checked.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple, TypeVar, cast

from sqlalchemy import Table, literal, select, union_all
from sqlalchemy.orm import InstrumentedAttribute, Session

from dealer import write_behind
from dealer.ledger.chain import (
    DEALT_COLUMNS,
    ENTRY_COLUMNS,
    EVENT_COLUMNS,
    GENESIS,
    columns,
    entry_link_fields,
    event_link_fields,
    link_message,
)
from dealer.ledger.checkpoints import file_genesis, note_filed, seal_shift_end
from dealer.ledger.heads import head, moved
from dealer.ledger.keys import current_key
from dealer.ledger.kinds import KINDS, SINGLE, Linkable, fields_of
from dealer.ledger.reading import chunks
from dealer.models import Base, ChainLink, Event, Hand, LedgerEntry, utcnow
from dealer.transactions import require_writing, writing

Row = TypeVar("Row", bound=Base)


def link(
    session: Session, kind: str, rows: Sequence[tuple[int, Sequence[object]]], at: datetime
) -> None:
    """Append a link for each ``(ref, fields)`` of ``kind``, inside the caller's write."""
    _link(session, [(kind, ref, fields, at) for ref, fields in rows])


class _Link(NamedTuple):
    """A link made under the writers' lock, but for its HMAC: its row, not an ORM object,
    since nothing reads it back in its transaction (a query reads the row)."""

    seq: int
    kind: str
    ref: int
    at: datetime
    prev_hash: str


def _link(session: Session, rows: Sequence[tuple[str, int, Sequence[object], datetime]]) -> None:
    """Append a link for each ``(kind, ref, fields, at)``, in order, in one INSERT."""
    require_writing(session, "ledger.links.link")
    if not rows:
        return
    seal_shift_end(session)
    key = current_key(session)
    seq, prev = head(session, "links_head", lambda: _read_head(session))
    if seq == 0:
        file_genesis(session)
    # A checkpoint filed since the last write is recorded, and linked first.
    # (Its link takes the time of the write's first row: links are written in time order.)
    first = rows[0][3]
    rows = [("checkpoint", ref, fields, first) for ref, fields, _ in note_filed(session)] + [*rows]
    links = []
    for kind, ref, fields, at in rows:
        seq += 1
        made = _Link(seq, kind, ref, at, prev)
        prev = key.mac(link_message(made, fields))
        links.append({**made._asdict(), "hash": prev})
    # Written as one INSERT of many rows on the connection (Core), not through the ORM's unit
    # of work nor its bulk insert, whose part cost more than the statement (bench/api.py's
    # profile). PostgreSQL: queued, sent with the rest of the write's rows in one round trip.
    write_behind.add_rows(session, cast(Table, ChainLink.__table__), links)
    moved(session, "links_head", seq, prev)


def record_filed(session: Session) -> None:
    """Record the checkpoint just filed in the database (and link the record), in a write of
    its own, rather than with the next write (`checkpoints.note_filed`)."""
    with writing(session) as work:
        noted = note_filed(work)
        if noted:
            link(work, "checkpoint", [(ref, fields) for ref, fields, _ in noted], utcnow())


def _read_head(session: Session) -> tuple[int, str]:
    last = session.execute(
        select(ChainLink.seq, ChainLink.hash).order_by(ChainLink.seq.desc()).limit(1)
    ).first()
    return (last.seq, last.hash) if last else (0, GENESIS)


def link_entries(session: Session, entries: Sequence[LedgerEntry]) -> None:
    """Link ledger entries just written (`post` calls this)."""
    if entries:
        rows = [(e.seq, entry_link_fields(columns(e, ENTRY_COLUMNS))) for e in entries]
        link(session, "entry", rows, entries[0].at)


def link_event(
    session: Session, event: Event, hand: Hand | None, entries: Sequence[LedgerEntry] = ()
) -> None:
    """Link an event just written; ``hand`` is its hand when the event is the deal.

    ``entries``: its payments' ledger entries, just posted unlinked (`post`'s ``link=False``),
    linked after it in the same INSERT (one statement under the writers' lock, not two).
    """
    rows = [("event", event.id, _event_fields(event, hand), event.created_at)]
    rows += [("entry", e.seq, entry_link_fields(columns(e, ENTRY_COLUMNS)), e.at) for e in entries]
    _link(session, rows)


def _event_fields(event: Event, hand: Hand | None) -> list[object]:
    dealt = columns(hand, DEALT_COLUMNS) if hand is not None else None
    return event_link_fields(columns(event, EVENT_COLUMNS), dealt)


def add_linked(session: Session, row: Linkable) -> None:
    """Write ``row`` (a print of a document, a dispute, a ruling, an audit record) and link it."""
    session.add(row)
    session.flush()
    kind = SINGLE[type(row)]
    link(session, kind.name, [(row.id, fields_of(kind, row))], getattr(row, kind.at))


#: Each kind of row the chain links, and its key (checkpoint records are linked as filed).
KEYS: tuple[tuple[str, InstrumentedAttribute[int]], ...] = tuple(
    (kind.name, kind.key) for kind in KINDS.values() if kind.name != "checkpoint"
)


@dataclass(frozen=True, slots=True)
class Unkeyed:
    """How many rows of each kind no link covers: written before the keyed chain existed."""

    entries: int
    events: int
    prints: int
    disputes: int = 0
    audits: int = 0
    versions: int = 0


def unkeyed(session: Session, after: Mapping[str, int] | None = None) -> dict[str, list[int]]:
    """The keys of the rows of each kind no link covers, among those above ``after[kind]``."""
    marks = after or {}
    out: dict[str, list[int]] = {kind: [] for kind, _ in KEYS}
    each = []
    for kind, key in KEYS:
        linked = select(ChainLink.ref).where(ChainLink.kind == kind, ChainLink.ref == key)
        each.append(
            select(literal(kind).label("kind"), key.label("ref")).where(
                key > marks.get(kind, 0), ~linked.exists()
            )
        )
    for kind, ref in session.execute(union_all(*each)):  # every kind in one statement
        out[kind].append(ref)
    return {kind: sorted(refs) for kind, refs in out.items()}


def link_unkeyed(session: Session) -> Unkeyed:
    """Link every row that no link covers yet (an old ledger's), oldest first; how many.

    The caller checks the old rows' own chain first: linking them vouches for them.
    """
    require_writing(session, "ledger.links.link_unkeyed")
    found = unkeyed(session)
    now = utcnow()
    counts: dict[str, int] = {}
    for kind in KINDS.values():
        if kind.name not in found:
            continue  # the records of checkpoints are linked as they are filed
        rows = _in_order(session, kind.model, kind.key, found[kind.name])
        if kind.name == "event":
            dealt = sorted({e.hand_id for e in rows})
            hands = {h.id: h for h in _in_order(session, Hand, Hand.id, dealt)}
            fields = [
                (e.id, _event_fields(e, hands[e.hand_id] if e.seq == 1 else None)) for e in rows
            ]
        else:
            fields = [(getattr(r, kind.key.key), fields_of(kind, r)) for r in rows]
        link(session, kind.name, fields, now)
        counts[kind.name] = len(rows)
    return Unkeyed(
        counts["entry"],
        counts["event"],
        counts["print"],
        counts["dispute"] + counts["ruling"],
        counts["audit"],
        counts["version"],
    )


def _in_order(
    session: Session, model: type[Row], key: InstrumentedAttribute[int], ids: Iterable[int]
) -> list[Row]:
    """The rows of ``model`` whose ``key`` is among ``ids``, in key order, read in chunks."""
    out: list[Row] = []
    for chunk in chunks(ids):
        out += session.scalars(select(model).where(key.in_(chunk)).order_by(key))
    return out
