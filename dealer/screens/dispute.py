"""The dispute view: one payment, the rule behind it, its cards and its ledger entries."""

from __future__ import annotations

from dataclasses import dataclass

from flask import render_template
from sqlalchemy.orm import Session

from dealer.disputes.payment import payment_trail
from dealer.extensions import current_session
from dealer.hands import reading as service
from dealer.ledger import parse_account
from dealer.models import Hand, LedgerEntry, Seating
from dealer.people.users import names_of
from dealer.rulebook import rule
from dealer.screens import bp
from dealer.screens.auth.guard import page
from dealer.screens.board import build_board
from dealer.screens.faces import faces
from dealer.screens.screen import at_table

HAND = "/hands/<int(max=2147483647):hand_id>"
PAYMENT = HAND + "/events/<int(max=2147483647):event_id>/payments/<int(min=1, max=1000):number>"


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
    why = paid.reason
    if paid.reverses is not None:  # "void of event 6 (seat 1 adds 5C to meld 3; ...)": in cards
        seq = paid.reverses[0]
        why = why.replace(board.engine.events[seq - 1].text, board.events[seq - 1].text)
    return render_template(
        "screens/payment.html",
        board=board,
        event=board.events[trail.index],
        record=trail.record,
        paid=paid,
        number=number,
        payer=_capital(board.label(paid.payer)),
        payee=board.label(paid.payee),
        rule=rule(paid.rule),
        seats=[p for p in (paid.payer, paid.payee) if isinstance(p, int)],
        paid_cards=faces(paid.cards),
        meld=board.meld(paid.meld) if paid.meld else None,
        entries=_lines(session, hand, [trail.entry]),
        linked=_lines(session, hand, trail.linked),
        behind=[(board.events[e.seq - 1], n, p) for e, n, p in trail.behind],
        why=why,
    )


def _capital(words: str) -> str:
    return words[:1].upper() + words[1:]
