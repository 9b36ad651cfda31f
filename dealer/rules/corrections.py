"""Planning corrections: foul, the discard penalty, voiding an event, voiding the hand.

PAN_RULES.md section 7. Nothing is ever undone by deleting: a void is a new event
whose payments reverse the old ones, each pointing at the payment it reverses.
"""

from __future__ import annotations

from .actions import Foul, Penalty, Void
from .errors import IllegalActionError, NotAllowedNowError
from .payments import REASONS, Payment
from .play import others_in_play, require_in, require_playing
from .records import EventRecord, Plan
from .state import HandState


def plan_foul(hand: HandState, action: Foul) -> Plan:
    require_playing(hand)
    seat = action.seat
    require_in(hand, seat)
    if not others_in_play(hand, seat):
        raise NotAllowedNowError(
            "Seat {seat} cannot be fouled: no other seat is left in play, so no seat could "
            "go out. This hand is a misdeal: call a supervisor to void the hand.",
            code="no_seat_can_go_out",
            seat=seat,
        )
    plan = Plan(seat=seat, statuses={seat: "fouled"})
    for payer in hand.seats:
        back = hand.condition_paid(payer, seat) if payer != seat else 0
        if back > 0:
            plan.payments.append(
                Payment.said(seat, payer, back, "foul_refund", seat=seat, payer=payer)
            )
    return plan


def plan_penalty(hand: HandState, action: Penalty) -> Plan:
    seat = action.seat
    if hand.status != "settled" or not any(
        e.type == "go_out" and hand.is_active(e.seq) for e in hand.events
    ):
        raise NotAllowedNowError(
            "The discard penalty is taken only after a seat has gone out.", code="not_settled"
        )
    if hand.penalty_taken:
        raise NotAllowedNowError(
            "The discard penalty was already taken in this hand.", code="penalty_taken"
        )
    require_in(hand, seat)
    if seat == hand.winner:
        raise IllegalActionError("The seat that went out cannot owe the discard penalty.")
    plan = Plan(seat=seat, penalty_taken=True)
    for other in hand.seats:
        if other in (seat, hand.winner):
            continue
        loss = -hand.game_net(other)
        if loss > 0:
            plan.payments.append(Payment.said(seat, other, loss, "penalty", seat=seat, other=other))
    return plan


def depends(hand: HandState, later: EventRecord, target: EventRecord) -> bool:
    if target.type in ("drop", "foul", "go_out", "penalty"):
        return True
    if later.type in ("go_out", "penalty"):
        return True  # settlement reads the whole hand
    if later.type == "foul" and later.seat == target.seat:
        return True  # the foul paid back what this event collected
    return not set(later.melds).isdisjoint(target.melds)


def plan_void(hand: HandState, action: Void) -> Plan:
    if hand.status == "void":
        raise NotAllowedNowError("The hand is void: nothing more can be recorded in it.")
    target = hand.event(action.event)
    if target.type == "deal":
        raise IllegalActionError(
            "The deal cannot be voided: a supervisor voids the whole hand instead.",
            code="cannot_void",
        )
    if target.type in ("void", "void_hand"):
        raise IllegalActionError(
            "A void cannot itself be voided: record the event again instead.",
            code="cannot_void",
        )
    if target.seq in hand.voided:
        raise NotAllowedNowError(
            "Event {seq} is already void.", code="already_void", seq=target.seq
        )
    for later in hand.events[target.seq :]:
        if hand.is_active(later.seq) and depends(hand, later, target):
            raise NotAllowedNowError(
                "Event {seq} cannot be voided: event {later} ({text}) depends on it; void that "
                "first.",
                code="event_depended_on",
                seq=target.seq,
                later=later.seq,
                text=later.text,
            )
    undo = hand.undo_notes[target.seq]
    plan = Plan(
        changes=dict(undo.before),
        added=undo.removed,
        removed=undo.added,
        statuses=dict(undo.statuses),
        hand_status=undo.hand_status,
        winner=undo.winner,
        penalty_taken=undo.penalty_taken,
        voids=target.seq,
    )
    for i, paid in enumerate(target.payments):
        plan.payments.append(
            Payment(
                paid.payee,
                paid.payer,
                paid.chips,
                "void",
                REASONS["void"].format(
                    seq=target.seq,
                    text=target.text,
                    why=action.reason,
                    chips=paid.chips,
                    reason=paid.reason,
                ),
                paid.meld,
                paid.cards,
                (target.seq, i),
            )
        )
    return plan


def plan_void_hand(hand: HandState) -> Plan:
    if hand.status == "void":
        raise NotAllowedNowError("The hand is already void.", code="already_void")
    plan = Plan(hand_status="void", winner=None)
    for event in hand.events:
        if not hand.is_active(event.seq):
            continue
        for i, paid in enumerate(event.payments):
            plan.payments.append(
                Payment(
                    paid.payee,
                    paid.payer,
                    paid.chips,
                    "void_hand",
                    REASONS["void_hand"].format(chips=paid.chips, reason=paid.reason),
                    paid.meld,
                    paid.cards,
                    (event.seq, i),
                )
            )
    return plan
