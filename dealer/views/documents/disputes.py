"""The disputes a document lists, read from `dealer.disputes.record` as plain lines."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import select
from sqlalchemy.orm import Session

from dealer.disputes.record import OnRecord, disputes_of_hands
from dealer.disputes.said import DisputeSaid, disputes_said
from dealer.models import Event, Hand, Table
from dealer.people.users import names_of
from dealer.views.documents.model import DisputeLine
from dealer.words.catalogue import say

__all__ = ["dispute_lines"]


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
