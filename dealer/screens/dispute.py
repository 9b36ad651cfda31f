"""The dispute view: one payment, the rule behind it, its cards and its ledger entries."""

from __future__ import annotations

from dataclasses import dataclass

from flask import render_template
from sqlalchemy.orm import Session

from dealer.auth.guard import page
from dealer.extensions import current_session
from dealer.ledger import hands as service
from dealer.ledger import parse_account
from dealer.ledger.disputes import payment_trail
from dealer.models import Hand, LedgerEntry, Seating
from dealer.people import names_of

from . import bp
from .board import build_board
from .faces import faces
from .screen import at_table

HAND = "/hands/<int(max=2147483647):hand_id>"
PAYMENT = HAND + "/events/<int(max=2147483647):event_id>/payments/<int(min=1, max=1000):number>"

#: Each payment rule in a dealer's words, with where PAN_RULES.md says it.
RULE_WORDS = {
    "collection": "The house's collection (section 6): a fixed fee per hand paid by each seat "
    "dealt in before the deal, or the time collection from each seated player.",
    "ante": "Tops ante (section 5.1): each seat dealt in antes into the hand's pot.",
    "drop_forfeit": "Dropping (section 5.2): a seat that drops before the first meld pays the "
    "drop forfeit (the tops) into the pot.",
    "condition": "Collecting for conditions (section 4): when a condition is laid or grows, "
    "every paying seat pays the rise of its value above its paid level, at once.",
    "going_out": "Going out (section 5.4): each other paying seat pays the going-out chips.",
    "conditions_again": "Going out (section 5.4): each paying seat pays the winner again what "
    "it paid the winner for conditions during the hand, net of anything returned.",
    "pot": "The pot (sections 5.2 and 5.4): the seat that goes out, or the last seat left in, "
    "takes the pot.",
    "rake": "Rake (section 6): the house takes a percent of the winner's collection, rounded "
    "down, at most the cap. Never allowed in California card rooms.",
    "foul_refund": "Foul (section 7): the fouled seat pays back every condition chip it "
    "collected this hand, and keeps paying the others.",
    "penalty": "Discard penalty (section 7): the seat that discarded the card the winner went "
    "out on pays each other losing seat, except the winner, its loss for the hand.",
    "void": "Void of an event (section 7): the event's payments are returned by new entries "
    "that point at the ones they reverse; nothing is deleted.",
    "void_hand": "Void of the hand (section 7): a supervisor returns every entry of the hand, "
    "antes and collections included.",
}


@dataclass(frozen=True, slots=True)
class EntryLine:
    """A ledger entry as the dispute view lists it."""

    entry: LedgerEntry
    source: str
    target: str
    user: str


def _account_words(session: Session, hand: Hand, name: str) -> str:
    parsed = parse_account(name)
    if parsed is None:
        return name
    if parsed.kind == "seating" and parsed.id is not None:
        seating = session.get(Seating, parsed.id)
        return f"seat {seating.seat} ({seating.player})" if seating else name
    if parsed.kind == "pot":
        return "the pot" if parsed.id == hand.id else f"the pot of hand {parsed.id}"
    return {"house": "the house", "cage": "the cage"}.get(parsed.kind, name)


def _lines(session: Session, hand: Hand, entries: list[LedgerEntry]) -> list[EntryLine]:
    names = names_of(session, (e.user_id for e in entries))
    return [
        EntryLine(
            e,
            _account_words(session, hand, e.from_account),
            _account_words(session, hand, e.to_account),
            names.get(e.user_id, "?"),
        )
        for e in entries
    ]


@bp.get(PAYMENT)
@page()
@at_table("read")
def payment(hand_id: int, event_id: int, number: int) -> str:
    session = current_session()
    hand = service.get_hand(session, hand_id)
    board = build_board(session, hand)
    trail = payment_trail(session, board.replayed, event_id, number)
    paid = trail.payment
    event_ids = {row.seq: row.id for row in board.replayed.events}
    return render_template(
        "screens/payment.html",
        board=board,
        event=board.events[trail.index],
        record=trail.record,
        paid=paid,
        number=number,
        payer=_capital(board.label(paid.payer)),
        payee=board.label(paid.payee),
        rule_words=RULE_WORDS.get(paid.rule, paid.rule),
        paid_cards=faces(paid.cards),
        meld=board.meld(paid.meld) if paid.meld else None,
        entries=_lines(session, hand, [trail.entry]),
        linked=_lines(session, hand, trail.linked),
        behind=trail.behind,
        event_ids=event_ids,
    )


def _capital(words: str) -> str:
    return words[:1].upper() + words[1:]
