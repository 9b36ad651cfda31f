"""Disputes put on the record: opened on a hand, closed by a supervisor's ruling.

A dispute says who raised it (a seat, or the dealer), what was claimed and, if the claim is
about one payment, its ledger entry. Only a supervisor (or an admin) closes it, once: the
claim upheld, with the void or the correction it led to (which must belong to the same
hand), or denied, and why. Both rows are append-only and linked into the keyed chain as
they are written, like the ledger's entries. Every check here is the only one: the API and
the screens call these functions and add none of their own. They are read back by
`dealer.disputes.record`.
"""

from __future__ import annotations

from typing import Protocol, TypeVar

from sqlalchemy.orm import Session

from dealer.bounds import CLAIM, MAX_ID, RULING_REASON, check_text, check_whole
from dealer.disputes.record import VOIDS, OnRecord, get_dispute
from dealer.disputes.said import dispute_sentence
from dealer.errors import Conflict, Forbidden, Invalid
from dealer.floor.in_play import get_hand
from dealer.ledger.links import add_linked
from dealer.ledger.post import Recorder
from dealer.models import (
    DISPUTE_OUTCOMES,
    DISPUTE_RAISERS,
    Dispute,
    DisputeRuling,
    Event,
    Hand,
    LedgerEntry,
    User,
)
from dealer.people.audit import record_hand_audit
from dealer.transactions import require_writing
from dealer.words.catalogue import say, say_later
from dealer.words.disputes import dispute_opened, dispute_ruled

#: The rows a dispute or a ruling may name, each of one hand.
OfHand = TypeVar("OfHand", LedgerEntry, Event)


def _entry_of_hand(session: Session, hand: Hand, seq: int, what: str) -> LedgerEntry:
    """Ledger entry ``seq``, which must belong to ``hand``."""
    named = {
        "entry": say_later("ledger entry"),
        "correction": say_later("correction's ledger entry"),
    }
    check_whole(seq, (1, MAX_ID), named.get(what, what), what)
    elsewhere = say(
        "Ledger entry {seq} is not a payment of hand {id}: name one of this hand's.",
        seq=seq,
        id=hand.id,
    )
    return _of_hand(session, LedgerEntry, seq, hand, elsewhere, "entry_not_in_hand")


def _of_hand(
    session: Session, model: type[OfHand], ident: int, hand: Hand, elsewhere: str, code: str
) -> OfHand:
    """The row of ``model`` with id ``ident``, which must belong to ``hand``: else refused
    with the sentence ``elsewhere`` and ``code``."""
    found = session.get(model, ident)
    if found is None or found.hand_id != hand.id:
        raise Invalid(elsewhere, code)
    return found


def open_dispute(
    session: Session,
    hand_id: int,
    raised_by: str,
    seat: int | None,
    claim: str,
    entry_seq: int | None,
    recorder: Recorder,
) -> Dispute:
    """Put a dispute on the record for hand ``hand_id``; any signed-in dealer may."""
    require_writing(session, "ledger.rulings.open_dispute")
    hand = get_hand(session, hand_id)
    if raised_by not in DISPUTE_RAISERS:
        raise Invalid(say("Say who raises the dispute: a seat or the dealer (raised_by)."))
    if raised_by == "seat":
        if seat is None:
            raise Invalid(say("Say which seat raises the dispute (seat)."), "seat_missing")
        check_whole(seat, (1, 8), say_later("seat"), "seat")
        if str(seat) not in hand.seats:
            raise Invalid(
                say("Seat {seat} was not dealt in hand {id}.", seat=seat, id=hand.id),
                "seat_not_in_hand",
            )
    elif seat is not None:
        raise Invalid(say("A dispute the dealer raises names no seat (seat)."), "seat_given")
    claim = check_text(claim, CLAIM, say_later("claim"), "claim")
    if entry_seq is not None:
        _entry_of_hand(session, hand, entry_seq, "entry")
    dispute = Dispute(
        hand_id=hand.id,
        raised_by=raised_by,
        seat=seat,
        claim=claim,
        entry_seq=entry_seq,
    )
    _add_recorded(session, dispute, recorder)
    record_hand_audit(
        session,
        "dispute_opened",
        hand,
        recorder,
        words=dispute_opened(
            dispute.id, hand.number, hand.id, dispute_sentence(session, dispute), claim
        ),
        details={"dispute": dispute.id, "seat": seat, "entry": entry_seq},
    )
    return dispute


class RulingAsked(Protocol):
    """A ruling as either door reads it (`dealer.inputs.Ruling`): checked again here."""

    outcome: str
    reason: str
    void_event: int | None
    correction: int | None


def rule_on_dispute(
    session: Session, dispute_id: int, asked: RulingAsked, user: User, recorder: Recorder
) -> OnRecord:
    """Close a dispute with a supervisor's ruling: upheld (with what it led to) or denied."""
    require_writing(session, "ledger.rulings.rule_on_dispute")
    if not user.can("supervisor"):
        raise Forbidden(
            say("Only a supervisor rules on a dispute: call the floor."), "supervisor_rules"
        )
    found = get_dispute(session, dispute_id)
    if found.ruling is not None:
        raise Conflict(
            say(
                "Dispute {dispute_id} was already ruled on ({outcome}).",
                dispute_id=dispute_id,
                outcome=found.ruling.outcome,
            ),
            "already_ruled",
        )
    if asked.outcome not in DISPUTE_OUTCOMES:
        raise Invalid(say("Rule the claim upheld or denied (outcome)."))
    reason = check_text(asked.reason, RULING_REASON, say_later("reason for the ruling"), "reason")
    hand = get_hand(session, found.dispute.hand_id)
    void_seq = _led_to(session, hand, asked)
    ruling = DisputeRuling(
        dispute_id=found.dispute.id,
        outcome=asked.outcome,
        reason=reason,
        void_event_id=asked.void_event,
        correction_seq=asked.correction,
    )
    _add_recorded(session, ruling, recorder)
    _audit_ruling(session, hand, found.dispute, ruling, user, recorder, void_seq)
    return OnRecord(found.dispute, ruling, found.table_id)


def _led_to(session: Session, hand: Hand, asked: RulingAsked) -> int | None:
    """What an upheld claim led to (a void's seq), checked; a denied claim led to nothing."""
    named = asked.void_event is not None or asked.correction is not None
    if asked.outcome != "upheld":
        if named:
            raise Invalid(
                say("A denied claim led to no void nor correction: leave them out."),
                "denied_with_change",
            )
        return None
    if not named:
        raise Invalid(
            say(
                "An upheld claim names the void or the correction it led to (void_event "
                "or correction)."
            ),
            "upheld_without_change",
        )
    void = None
    if asked.void_event is not None:
        check_whole(asked.void_event, (1, MAX_ID), say_later("void's event"), "void_event")
        elsewhere = say(
            "Event {event_id} is not an event of hand {id}: name the void recorded on it.",
            event_id=asked.void_event,
            id=hand.id,
        )
        void = _of_hand(session, Event, asked.void_event, hand, elsewhere, "void_not_in_hand")
        if void.type not in VOIDS:
            raise Invalid(
                say(
                    "Event {event_id} is a {type}, not a void: name the void it led to.",
                    event_id=asked.void_event,
                    type=void.type,
                ),
                "not_a_void",
            )
    if asked.correction is not None:
        entry = _entry_of_hand(session, hand, asked.correction, "correction")
        if entry.reverses is None:
            raise Invalid(
                say(
                    "Ledger entry {correction_seq} corrects no other entry: name the "
                    "correction itself.",
                    correction_seq=asked.correction,
                ),
                "not_a_correction",
            )
    return void.seq if void is not None else None


def _audit_ruling(
    session: Session,
    hand: Hand,
    dispute: Dispute,
    ruling: DisputeRuling,
    user: User,
    recorder: Recorder,
    void_seq: int | None,
) -> None:
    """The ruling on the audit trail: in words (the dispute as every screen says it, the void
    by its number in the hand), its ids in the details."""
    record_hand_audit(
        session,
        "dispute_ruled",
        hand,
        recorder,
        words=dispute_ruled(
            user.name,
            dispute.id,
            hand.number,
            hand.id,
            dispute_sentence(session, dispute),
            ruling.outcome == "upheld",
            (void_seq, ruling.correction_seq),
            ruling.reason,
        ),
        details={
            "dispute": dispute.id,
            "outcome": ruling.outcome,
            "void_event": ruling.void_event_id,
            "correction": ruling.correction_seq,
        },
    )


def _add_recorded(session: Session, row: Dispute | DisputeRuling, recorder: Recorder) -> None:
    """Write ``row`` as ``recorder``'s (who, on which device) and link it into the keyed chain."""
    row.user_id = recorder.user_id
    row.device = recorder.device
    add_linked(session, row)
