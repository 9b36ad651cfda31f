"""The disputes a document lists, read from `dealer.disputes.record` as plain lines."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from dealer.disputes.record import OnRecord, disputes_of_hands
from dealer.disputes.said import DisputeSaid, disputes_said
from dealer.models import Event, Hand, Table
from dealer.people.users import names_of
from dealer.words.catalogue import say

__all__ = ["DisputeLine", "dispute_lines"]


@dataclass(frozen=True, slots=True)
class DisputeLine:
    """A dispute on the record, and its ruling once there is one (`dealer.disputes.record`)."""

    id: int
    table: str
    hand_id: int
    hand_number: int
    raised_by: str  # "Rosa, seat 3" or "the dealer" (`dealer.disputes.said`)
    claim: str
    about: str | None  # the payment it is about, in words
    opened_by: str
    opened_at: datetime
    outcome: str  # open, upheld, denied
    ruled_by: str | None = None
    ruled_at: datetime | None = None
    reason: str | None = None
    led_to: str | None = None  # "void of #12", "correction"

    @property
    def is_open(self) -> bool:
        return self.outcome == "open"


def dispute_lines(
    session: Session, hand_ids: Iterable[int], also: Iterable[OnRecord] = ()
) -> tuple[DisputeLine, ...]:
    """The disputes on ``hand_ids`` (and ``also``), oldest first, ready to print."""
    found = {f.dispute.id: f for f in disputes_of_hands(session, hand_ids)}
    found.update({f.dispute.id: f for f in also})
    if not found:
        return ()
    records = [found[i] for i in sorted(found)]
    people = names_of(
        session,
        [f.dispute.user_id for f in records] + [f.ruling.user_id for f in records if f.ruling],
    )
    hands = {
        h.id: (h.number, name)
        for h, name in session.execute(
            select(Hand, Table.name)
            .join(Table, Table.id == Hand.table_id)
            .where(Hand.id.in_({f.dispute.hand_id for f in records}))
        )
    }
    said = disputes_said(session, [f.dispute for f in records])
    voids = [f.ruling.void_event_id for f in records if f.ruling and f.ruling.void_event_id]
    # A void by its number in its hand (#3), as the hand's screen numbers its events.
    numbered = dict(session.execute(select(Event.id, Event.seq).where(Event.id.in_(voids))).all())
    return tuple(
        _line(f, people, said[f.dispute.id], numbered, *hands[f.dispute.hand_id]) for f in records
    )


def _line(
    found: OnRecord,
    people: dict[int, str],
    said: DisputeSaid,
    numbered: dict[int, int],
    number: int,
    table: str,
) -> DisputeLine:
    d, r = found.dispute, found.ruling
    led_to = []
    if r is not None and r.void_event_id is not None:
        led_to.append(say("void of #{seq}", seq=numbered.get(r.void_event_id, "?")))
    if r is not None and r.correction_seq is not None:
        led_to.append(say("correction"))
    return DisputeLine(
        id=d.id,
        table=table,
        hand_id=d.hand_id,
        hand_number=number,
        raised_by=said.who,
        claim=d.claim,
        about=said.about,
        opened_by=people.get(d.user_id, "?"),
        opened_at=d.opened_at,
        outcome=found.outcome_words,
        ruled_by=people.get(r.user_id, "?") if r else None,
        ruled_at=r.ruled_at if r else None,
        reason=r.reason if r else None,
        led_to=", ".join(led_to) or None,
    )
