"""Disputes as the record holds them: each with its ruling once ruled on, listed by hand, by
time, by status and table, and what a dispute or a ruling on a hand may name. They are put on
the record by `dealer.disputes.rulings`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from dealer.errors import Invalid
from dealer.floor.in_play import get_hand
from dealer.models import Dispute, DisputeRuling, Event, Hand, LedgerEntry, by_id
from dealer.words.catalogue import say

#: Event types a ruling may name as the void it led to.
VOIDS = ("void", "void_hand")


@dataclass(frozen=True, slots=True)
class OnRecord:
    """A dispute and, once ruled on, its ruling; ``table_id`` is its hand's table."""

    dispute: Dispute
    ruling: DisputeRuling | None
    table_id: int

    @property
    def status(self) -> str:
        return "open" if self.ruling is None else "ruled"

    @property
    def outcome_words(self) -> str:
        if self.ruling is None:
            return say("open")
        return {"upheld": say("upheld"), "denied": say("denied")}.get(
            self.ruling.outcome, self.ruling.outcome
        )


def get_dispute(session: Session, dispute_id: int) -> OnRecord:
    unknown = say("There is no dispute {dispute_id}.", dispute_id=dispute_id)
    dispute = by_id(session, Dispute, dispute_id, unknown, "unknown_dispute")
    return _on_record(session, [dispute])[0]


def _on_record(session: Session, disputes: Iterable[Dispute]) -> list[OnRecord]:
    """Each dispute with its ruling and its hand's table, in the order given."""
    disputes = list(disputes)
    ids = [d.id for d in disputes]
    rulings = {
        r.dispute_id: r
        for r in session.scalars(select(DisputeRuling).where(DisputeRuling.dispute_id.in_(ids)))
    }
    hands = {d.hand_id for d in disputes}
    tables = dict(session.execute(select(Hand.id, Hand.table_id).where(Hand.id.in_(hands))).all())
    return [OnRecord(d, rulings.get(d.id), tables[d.hand_id]) for d in disputes]


def hand_disputes(session: Session, hand_id: int) -> list[OnRecord]:
    """The disputes on hand ``hand_id``, oldest first (the hand must exist)."""
    get_hand(session, hand_id)
    return disputes_of_hands(session, [hand_id])


def disputes_of_hands(session: Session, hand_ids: Iterable[int]) -> list[OnRecord]:
    """The disputes on any of ``hand_ids`` (a session's, a shift's), oldest first."""
    found: list[Dispute] = []
    wanted = sorted(set(hand_ids))
    for start in range(0, len(wanted), 1000):
        chunk = wanted[start : start + 1000]
        found += session.scalars(select(Dispute).where(Dispute.hand_id.in_(chunk)))
    return _on_record(session, sorted(found, key=lambda d: d.id))


def disputes_opened_between(session: Session, start: datetime, end: datetime) -> list[OnRecord]:
    """The disputes put on the record in [start, end), oldest first."""
    found = session.scalars(
        select(Dispute)
        .where(Dispute.opened_at >= start, Dispute.opened_at < end)
        .order_by(Dispute.id)
    )
    return _on_record(session, found)


def listed_disputes(
    session: Session, status: str | None = None, tables: set[int] | None = None
) -> list[OnRecord]:
    """Every dispute, oldest first; ``status`` "open" or "ruled" keeps only those, ``tables``
    only those on hands at those tables."""
    if status not in (None, "open", "ruled"):
        raise Invalid(say("status is open or ruled."), "invalid_query")
    query = select(Dispute).order_by(Dispute.id)
    ruled = select(DisputeRuling.id).where(DisputeRuling.dispute_id == Dispute.id).exists()
    if status == "open":
        query = query.where(~ruled)
    elif status == "ruled":
        query = query.where(ruled)
    if tables is not None:
        at = select(Hand.id).where(Hand.table_id.in_(tables))
        query = query.where(Dispute.hand_id.in_(at))
    return _on_record(session, session.scalars(query))


def open_disputes_by_table(session: Session) -> dict[int, int]:
    """How many disputes are open at each table (tables with none are left out)."""
    ruled = select(DisputeRuling.id).where(DisputeRuling.dispute_id == Dispute.id).exists()
    rows = session.execute(
        select(Hand.table_id)
        .select_from(Dispute)
        .join(Hand, Hand.id == Dispute.hand_id)
        .where(~ruled)
    )
    return dict(Counter(table for (table,) in rows))


@dataclass(frozen=True, slots=True)
class Choices:
    """What a dispute on a hand may name: its payments; what a ruling may: its voids and its
    corrections (entries that reverse another)."""

    payments: list[LedgerEntry]
    voids: list[Event]
    corrections: list[LedgerEntry]


def hand_choices(session: Session, hand_id: int) -> Choices:
    """The entries and voids of hand ``hand_id`` a dispute or a ruling may name, oldest first."""
    entries = list(
        session.scalars(
            select(LedgerEntry).where(LedgerEntry.hand_id == hand_id).order_by(LedgerEntry.seq)
        )
    )
    voids = list(
        session.scalars(
            select(Event).where(Event.hand_id == hand_id, Event.type.in_(VOIDS)).order_by(Event.seq)
        )
    )
    corrections = [e for e in entries if e.reverses is not None]
    return Choices(entries, voids, corrections)
