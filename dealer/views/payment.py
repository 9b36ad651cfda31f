"""One payment in dispute: who paid whom, how much and why, the rule behind it, its cards,
the event it belongs to (in its one sentence), its ledger entries and the entries that
reverse it (or that it reverses), and, for conditions paid again at going out, the payments
behind them."""

from __future__ import annotations

from collections.abc import Mapping

from sqlalchemy import select
from sqlalchemy.orm import Session

from dealer.disputes.payment import payment_trail
from dealer.hands.reading import load_hand
from dealer.ledger.accounts import parse_account
from dealer.models import LedgerEntry, Seating
from dealer.people.users import names_of
from dealer.views.base import View
from dealer.views.events import EventView, PaymentView
from dealer.views.hand import HandView, MeldView, hand_view
from dealer.views.ledger import EntryView, entry_view
from dealer.words.catalogue import say, say_n
from dealer.words.numbers import capital
from dealer.words.parties import party_words, seat_words
from dealer.words.rules import Rule, meld_words, rule


class Behind(View):
    """An earlier payment between the same two seats that conditions paid again repeat."""

    event: EventView
    number: int
    payment: PaymentView


class PaymentDispute(View):
    hand: HandView
    event: EventView
    payment: PaymentView
    number: int
    #: ``Seat 3 (Cy) pays seat 1 (Rosa) 4 chips``.
    said: str
    rule: Rule
    #: The cards the payment is for, in words and as codes (for their faces).
    cards: str
    payment_cards: list[str]
    meld: MeldView | None
    seats: list[int]
    entries: list[EntryView]
    linked: list[EntryView]
    behind: list[Behind]


def payment_dispute(session: Session, hand_id: int, event_id: int, number: int) -> PaymentDispute:
    """Payment ``number`` (from 1) of event ``event_id`` of hand ``hand_id``, in dispute."""
    replayed = load_hand(session, hand_id)
    view = hand_view(session, replayed, board=True)
    trail = payment_trail(session, replayed, event_id, number)
    event = view.events[trail.index]
    told = event.payments[number - 1]
    paid = trail.payment
    return PaymentDispute(
        hand=view,
        event=event,
        payment=told,
        number=number,
        said=capital(
            say_n(
                "{payer} pays {payee} {n} chip",
                "{payer} pays {payee} {n} chips",
                told.chips,
                payer=told.payer,
                payee=told.payee,
            )
        ),
        rule=rule(paid.rule),
        cards=meld_words(paid.cards) if paid.cards else "",
        payment_cards=[str(c) for c in paid.cards],
        meld=view.meld(paid.meld) if paid.meld else None,
        seats=[p for p in (paid.payer, paid.payee) if isinstance(p, int)],
        entries=_lines(session, view, [trail.entry]),
        linked=_lines(session, view, trail.linked),
        behind=[
            Behind(
                event=view.events[e.seq - 1],
                number=n,
                payment=view.events[e.seq - 1].payments[n - 1],
            )
            for e, n, _p in trail.behind
        ],
    )


def _account_words(account: str, seatings: Mapping[int, tuple[int, str]]) -> str:
    """A ledger account as a party: ``seatings`` maps each seating (a stay in a seat) to its
    seat number and player; a seating not among them is "a seat that has left"."""
    parsed = parse_account(account)
    if parsed is None:
        return say("an unknown account")
    if parsed.kind == "seating" and parsed.id is not None:
        found = seatings.get(parsed.id)
        return seat_words(*found) if found is not None else say("a seat that has left")
    return party_words(parsed.kind)


def _lines(session: Session, view: HandView, entries: list[LedgerEntry]) -> list[EntryView]:
    users = names_of(session, (e.user_id for e in entries))
    rows = session.execute(
        select(Seating.id, Seating.seat, Seating.player).where(Seating.table_id == view.table)
    )
    seatings = {seating: (seat, player) for seating, seat, player in rows}
    seat_of = {seating: seat for seating, (seat, _) in seatings.items()}
    return [
        entry_view(e, seat_of, "", users.get(e.user_id, "?")).model_copy(
            update={
                "source": _account_words(e.from_account, seatings),
                "target": _account_words(e.to_account, seatings),
            }
        )
        for e in entries
    ]
