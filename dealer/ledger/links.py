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
from typing import TypeVar, cast

from sqlalchemy import Table, insert, select
from sqlalchemy.orm import InstrumentedAttribute, Session

from dealer.ledger.chain import (
    AUDIT_COLUMNS,
    DEALT_COLUMNS,
    DISPUTE_COLUMNS,
    ENTRY_COLUMNS,
    EVENT_COLUMNS,
    GENESIS,
    PRINT_COLUMNS,
    RULING_COLUMNS,
    VERSION_COLUMNS,
    audit_link_fields,
    columns,
    dispute_link_fields,
    entry_link_fields,
    event_link_fields,
    link_message,
    print_link_fields,
    ruling_link_fields,
    version_link_fields,
)
from dealer.ledger.checkpoints import file_genesis, note_filed, seal_shift_end
from dealer.ledger.heads import head, moved
from dealer.ledger.keys import current_key
from dealer.models import (
    AuditRecord,
    ChainLink,
    Dispute,
    DisputeRuling,
    Event,
    Hand,
    IdentityVersion,
    LedgerEntry,
    PrintRecord,
    utcnow,
)
from dealer.transactions import require_writing, writing

__all__ = [
    "Unkeyed",
    "link",
    "link_audit",
    "link_dispute",
    "link_entries",
    "link_event",
    "link_print",
    "link_ruling",
    "link_unkeyed",
    "record_filed",
    "unkeyed",
]

Row = TypeVar(
    "Row",
    LedgerEntry,
    Event,
    Hand,
    PrintRecord,
    Dispute,
    DisputeRuling,
    AuditRecord,
    IdentityVersion,
)
#: Ids asked for in one query: well under either database's limit on parameters.
CHUNK = 1000


def link(
    session: Session, kind: str, rows: Sequence[tuple[int, Sequence[object]]], at: datetime
) -> list[ChainLink]:
    """Append a link for each ``(ref, fields)`` of ``kind``, inside the caller's write."""
    return _link(session, [(kind, ref, fields, at) for ref, fields in rows])


def _link(
    session: Session, rows: Sequence[tuple[str, int, Sequence[object], datetime]]
) -> list[ChainLink]:
    """Append a link for each ``(kind, ref, fields, at)``, in order, in one INSERT."""
    require_writing(session, "ledger.links.link")
    if not rows:
        return []
    seal_shift_end(session)
    key = current_key()
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
        made = ChainLink(seq=seq, kind=kind, ref=ref, at=at, prev_hash=prev)
        made.hash = prev = key.mac(link_message(made, fields))
        links.append(made)
    # Written as one INSERT of many rows on the connection (Core), not through the ORM's unit
    # of work nor its bulk insert: nothing reads the link objects back in this transaction,
    # and the ORM's part cost more than the statement (bench/api.py's profile). The objects
    # returned are not in the session.
    session.connection().execute(
        insert(cast(Table, ChainLink.__table__)),
        [
            {c: getattr(made, c) for c in ("seq", "kind", "ref", "at", "prev_hash", "hash")}
            for made in links
        ],
    )
    moved(session, "links_head", seq, prev)
    return links


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


def link_print(session: Session, record: PrintRecord) -> None:
    """Link a print of a document just counted."""
    link(session, "print", [(record.id, _print_fields(record))], record.printed_at)


def _print_fields(record: PrintRecord) -> list[object]:
    return print_link_fields(columns(record, PRINT_COLUMNS))


def link_dispute(session: Session, dispute: Dispute) -> None:
    """Link a dispute just opened on a hand."""
    link(session, "dispute", [(dispute.id, _dispute_fields(dispute))], dispute.opened_at)


def _dispute_fields(dispute: Dispute) -> list[object]:
    return dispute_link_fields(columns(dispute, DISPUTE_COLUMNS))


def link_audit(session: Session, record: AuditRecord) -> None:
    """Link an audit record just written."""
    link(session, "audit", [(record.id, _audit_fields(record))], record.at)


def _audit_fields(record: AuditRecord) -> list[object]:
    return audit_link_fields(columns(record, AUDIT_COLUMNS))


def link_ruling(session: Session, ruling: DisputeRuling) -> None:
    """Link a ruling just made on a dispute."""
    link(session, "ruling", [(ruling.id, _ruling_fields(ruling))], ruling.ruled_at)


def _ruling_fields(ruling: DisputeRuling) -> list[object]:
    return ruling_link_fields(columns(ruling, RULING_COLUMNS))


#: Each kind of row the chain links, and its key.
KEYS: tuple[tuple[str, InstrumentedAttribute[int]], ...] = (
    ("entry", LedgerEntry.seq),
    ("event", Event.id),
    ("print", PrintRecord.id),
    ("dispute", Dispute.id),
    ("ruling", DisputeRuling.id),
    ("audit", AuditRecord.id),
    ("version", IdentityVersion.id),
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

    @property
    def total(self) -> int:
        return (
            self.entries + self.events + self.prints + self.disputes + self.audits + self.versions
        )


def unkeyed(session: Session, after: Mapping[str, int] | None = None) -> dict[str, list[int]]:
    """The keys of the rows of each kind no link covers, among those above ``after[kind]``."""
    marks = after or {}
    out: dict[str, list[int]] = {}
    for kind, key in KEYS:
        linked = select(ChainLink.ref).where(ChainLink.kind == kind, ChainLink.ref == key)
        out[kind] = list(
            session.scalars(
                select(key).where(key > marks.get(kind, 0), ~linked.exists()).order_by(key)
            )
        )
    return out


def link_unkeyed(session: Session) -> Unkeyed:
    """Link every row that no link covers yet (an old ledger's), oldest first; how many.

    The caller checks the old rows' own chain first: linking them vouches for them.
    """
    require_writing(session, "ledger.links.link_unkeyed")
    found = unkeyed(session)
    now = utcnow()
    entries = _in_order(session, LedgerEntry, LedgerEntry.seq, found["entry"])
    rows = [(e.seq, entry_link_fields(columns(e, ENTRY_COLUMNS))) for e in entries]
    link(session, "entry", rows, now)
    events = _in_order(session, Event, Event.id, found["event"])
    hands = {
        h.id: h for h in _in_order(session, Hand, Hand.id, sorted({e.hand_id for e in events}))
    }
    rows = [(e.id, _event_fields(e, hands[e.hand_id] if e.seq == 1 else None)) for e in events]
    link(session, "event", rows, now)
    prints = _in_order(session, PrintRecord, PrintRecord.id, found["print"])
    link(session, "print", [(p.id, _print_fields(p)) for p in prints], now)
    disputes = _in_order(session, Dispute, Dispute.id, found["dispute"])
    link(session, "dispute", [(d.id, _dispute_fields(d)) for d in disputes], now)
    rulings = _in_order(session, DisputeRuling, DisputeRuling.id, found["ruling"])
    link(session, "ruling", [(r.id, _ruling_fields(r)) for r in rulings], now)
    audits = _in_order(session, AuditRecord, AuditRecord.id, found["audit"])
    link(session, "audit", [(a.id, _audit_fields(a)) for a in audits], now)
    versions = _in_order(session, IdentityVersion, IdentityVersion.id, found["version"])
    rows = [(v.id, version_link_fields(columns(v, VERSION_COLUMNS))) for v in versions]
    link(session, "version", rows, now)
    return Unkeyed(
        len(entries),
        len(events),
        len(prints),
        len(disputes) + len(rulings),
        len(audits),
        len(versions),
    )


def _in_order(
    session: Session, model: type[Row], key: InstrumentedAttribute[int], ids: Iterable[int]
) -> list[Row]:
    """The rows of ``model`` whose ``key`` is among ``ids``, in key order, read in chunks."""
    wanted = list(ids)
    out: list[Row] = []
    for start in range(0, len(wanted), CHUNK):
        chunk = wanted[start : start + CHUNK]
        out += session.scalars(select(model).where(key.in_(chunk)).order_by(key))
    return out
