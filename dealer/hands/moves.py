"""Moving a wrong-seat entry: a void and the same entry at the right seat, in one step.

A dealer who tapped the wrong seat should not have to void, type a reason and enter it all
again. When nothing depends on the entry (the engine's ``voidable``) and its void needs no
supervisor, it is voided with a ready-made reason and recorded again for the seat named, in
the caller's one write transaction: both or neither. The ledger keeps the whole story.
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from dealer import rules
from dealer.errors import Conflict, Invalid
from dealer.hands.kept import load
from dealer.hands.reading import Replayed
from dealer.hands.record import record_event
from dealer.ledger.post import Recorder
from dealer.models import Event, Hand, User
from dealer.people.audit import record_hand_audit
from dealer.words.catalogue import say

#: The entries that can change seat: those naming no meld (a meld is its seat's own, so an
#: add, a borrow or a split cannot move to another seat).
MOVABLE = frozenset({"meld", "drop", "foul", "penalty"})


def movable(replayed: Replayed, event: Event) -> bool:
    """Whether ``event`` can be moved to another seat in one step."""
    engine = replayed.engine
    if event.type not in MOVABLE or event.seat is None or event.seq in engine.voided:
        return False
    void = rules.Void(event.seq, "check")
    return engine.can(void) and not engine.needs_supervisor(void)


def moved_reason(event: Event, seat: int) -> str:
    """The void's reason, ready-made: the floor reads what happened."""
    return say(
        "Wrong seat: entered for seat {was}, moved to seat {seat}.", was=event.seat, seat=seat
    )


def move_to_seat(
    session: Session, hand: Hand, event_id: int, seat: int, recorder: Recorder, user: User
) -> tuple[Event, Event]:
    """Void event ``event_id`` and record it again for ``seat``: the void and the new entry."""
    replayed = load(session, hand)
    event = next((e for e in replayed.events if e.id == event_id), None)
    if event is None:
        raise Invalid(
            say("There is no event {event_id} in this hand.", event_id=event_id), "unknown_event"
        )
    if seat == event.seat:
        raise Invalid(
            say("Event #{seq} is seat {seat}'s already.", seq=event.seq, seat=seat), "same_seat"
        )
    if not movable(replayed, event):
        raise Conflict(
            say(
                "Event #{seq} cannot simply move: something depends on it, or it needs the "
                "floor. Void it instead.",
                seq=event.seq,
            ),
            "not_movable",
        )
    assert event.action is not None
    void = {"type": "void", "event": event.id, "reason": moved_reason(event, seat)}
    _replayed, voided, _entries = record_event(session, replayed, void, recorder, user, None)
    _replayed, again, _entries = record_event(
        session, replayed, {**event.action, "seat": seat}, recorder, user, None
    )
    record_hand_audit(
        session,
        "seat_moved",
        hand,
        recorder,
        words=say(
            "Wrong seat: entered for seat {was}, moved to seat {seat}. (hand {number}, event "
            "#{seq})",
            was=event.seat,
            seat=seat,
            number=hand.number,
            seq=event.seq,
        ),
        details={"event": event.id, "again": again.id, "seat": seat},
    )
    return voided, again
