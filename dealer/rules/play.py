"""Planning the plays of a hand: deal, meld, add, borrow, split, go out, drop.

Each ``plan_*`` function checks an action against the hand and works out what it
would change and pay, without changing anything (PAN_RULES.md sections 4 and 5).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import replace

from .actions import Add, Borrow, Drop, GoOut, Meld, Split
from .cards import Card, format_cards
from .errors import (
    IllegalActionError,
    IllegalMeldError,
    InvalidActionError,
    NotAllowedNowError,
    Phrase,
    ShoeExceededError,
)
from .melds import check_growth, multiset_minus
from .payments import HOUSE, POT, REASONS, Payment
from .records import Plan, seats_text
from .state import HandState
from .table import TableMeld, lay


def require_playing(hand: HandState) -> None:
    if hand.status == "settled":
        raise NotAllowedNowError("The hand is settled: nothing more can be played in it.")
    if hand.status == "void":
        raise NotAllowedNowError("The hand is void: nothing more can be recorded in it.")


def require_in(hand: HandState, seat: int) -> None:
    status = hand.seat_status.get(seat)
    if status is None:
        raise InvalidActionError(
            "Seat {seat} is not dealt into this hand.", code="unknown_seat", seat=seat
        )
    if status == "dropped":
        raise NotAllowedNowError(
            "Seat {seat} dropped and takes no further part in the hand.",
            code="seat_not_in",
            seat=seat,
        )
    if status == "fouled":
        raise NotAllowedNowError(
            "Seat {seat} fouled and is out of the hand.", code="seat_not_in", seat=seat
        )


def others_in_play(hand: HandState, seat: int) -> bool:
    """Whether a seat other than ``seat`` is still in play: one that could still go out."""
    return any(s != seat and hand.seat_status[s] == "in" for s in hand.seats)


def own_meld(hand: HandState, seat: int, meld_id: int) -> TableMeld:
    meld = hand.melds.get(meld_id)
    if meld is None:
        raise InvalidActionError(
            "There is no meld {meld} in this hand.", code="unknown_meld", meld=meld_id
        )
    if meld.seat != seat:
        raise IllegalActionError(
            "Meld {meld} is seat {seat}'s: a seat adds only to its own melds.",
            code="not_your_meld",
            meld=meld_id,
            seat=meld.seat,
        )
    return meld


def check_cards_down(hand: HandState, seat: int, cards: Sequence[Card]) -> None:
    after = hand.cards_down[seat] + len(cards)
    if after > hand.limit:
        raise IllegalActionError(
            "Seat {seat} would have {after} cards down: a seat never has more than {limit}.",
            code="too_many_cards",
            seat=seat,
            after=after,
            limit=hand.limit,
        )
    rules = hand.rules
    for card in set(cards):
        on_table = hand.shoe_count(card) + cards.count(card)
        copies = rules.copies(card.suit)
        if on_table > copies:
            raise ShoeExceededError(
                "That would put {on_table} copies of {card} on the table, but the shoe holds "
                "only {copies}: check the cards entered.",
                on_table=on_table,
                card=card,
                copies=copies,
            )


def collect(
    hand: HandState, plan: Plan, seat: int, ids: Iterable[int], claimed: bool = True
) -> None:
    """Raise each changed meld's paid level to its value; the paying seats pay the rise.

    Unclaimed (section 4), the level rises all the same and nobody pays: those chips are
    never owed later. The level never falls (a borrowed meld keeps its ``P``).
    """
    payers = hand.payers(seat)
    seats = seats_text(len(payers))
    for mid in ids:
        meld = plan.changes[mid]
        assert meld is not None
        value = meld.value
        if value <= meld.paid:
            continue
        if not claimed:
            plan.changes[mid] = meld.with_paid(value)
            continue
        rise = value - meld.paid
        cond = meld.condition
        assert cond is not None
        cards = format_cards(meld.cards)
        said = {"condition": cond.name, "cards": cards, "chips": rise}
        if meld.paid:
            text = REASONS["grown"].format(size=meld.shape.size, seats=seats, **said)
        else:
            text = REASONS["condition"].format(seats=seats, **said)
        for payer in payers:
            plan.payments.append(Payment(payer, seat, rise, "condition", text, meld.id, meld.cards))
        plan.changes[mid] = meld.with_paid(value)


def meld_in_play(hand: HandState, action: Add | Borrow | Split) -> TableMeld:
    """The meld ``action`` works on: the hand in play, its seat still in it, the meld its own."""
    require_playing(hand)
    require_in(hand, action.seat)
    return own_meld(hand, action.seat, action.meld)


def require_card_from_hand(hand: HandState, action: Borrow | Split) -> None:
    """Section 4: under ``rearrange_needs_card`` a split or a borrow plays a card from hand."""
    if action.cards or not hand.rules.rearrange_needs_card:
        return
    if isinstance(action, Split):
        raise IllegalActionError(
            "A split must play at least one card from the hand under these rules: meld {meld} "
            "cannot be rearranged with no card added.",
            code="needs_card_from_hand",
            meld=action.meld,
        )
    raise IllegalActionError(
        "A borrow must play at least one card from the hand under these rules: meld {meld} "
        "cannot be rearranged with no card added.",
        code="needs_card_from_hand",
        meld=action.meld,
    )


def plan_meld(hand: HandState, action: Meld) -> Plan:
    require_playing(hand)
    require_in(hand, action.seat)
    new = lay(hand.next_meld_id, action.seat, action.cards, hand.rules)
    check_cards_down(hand, action.seat, action.cards)
    return _collected(hand, action, {new.id: new}, new.cards, next_meld=1)


def plan_add(hand: HandState, action: Add) -> Plan:
    meld = meld_in_play(hand, action)
    if not action.cards:
        raise IllegalMeldError("No cards were given to add.")
    check_growth(meld.cards, meld.shape, action.cards)
    check_cards_down(hand, action.seat, action.cards)
    grown = meld.with_cards((*meld.cards, *action.cards), hand.rules)
    return _collected(hand, action, {meld.id: grown}, action.cards)


def plan_borrow(hand: HandState, action: Borrow) -> Plan:
    source = meld_in_play(hand, action)
    if not action.take:
        raise IllegalMeldError("Say which cards are borrowed from the meld.")
    require_card_from_hand(hand, action)
    left = multiset_minus(source.cards, action.take)
    if left is None:
        raise IllegalMeldError(
            "Meld {meld} ({cards}) does not hold {take}.",
            meld=source.id,
            cards=source,
            take=format_cards(sorted(action.take)),
        )
    try:
        kept = source.with_cards(left, hand.rules)
    except IllegalMeldError as exc:
        raise IllegalMeldError(
            "Borrowing {take} would leave {left}, which is not a meld: every meld left on the "
            "table must stay valid.",
            take=format_cards(sorted(action.take)),
            left=format_cards(left),
        ) from exc
    new = lay(hand.next_meld_id, action.seat, (*action.take, *action.cards), hand.rules)
    return _rearranged(hand, action, kept, new)


def plan_split(hand: HandState, action: Split) -> Plan:
    source = meld_in_play(hand, action)
    require_card_from_hand(hand, action)
    first, second = action.into
    if Counter((*source.cards, *action.cards)) != Counter((*first, *second)):
        raise IllegalMeldError(
            "The two melds must hold exactly meld {meld}'s cards ({cards}) and the cards added "
            "({added}).",
            meld=source.id,
            cards=source,
            added=format_cards(sorted(action.cards)) or Phrase("none"),
        )
    parts = [lay(0, action.seat, part, hand.rules) for part in (first, second)]
    keep = keeper(parts[0], parts[1])
    kept = replace(parts[keep], id=source.id, paid=source.paid)
    new = replace(parts[1 - keep], id=hand.next_meld_id)
    return _rearranged(hand, action, kept, new)


def _rearranged(hand: HandState, action: Borrow | Split, kept: TableMeld, new: TableMeld) -> Plan:
    """A borrow's or a split's plan: the meld ``kept`` under its id and a ``new`` one, each
    collecting for the conditions it now meets (section 4)."""
    check_cards_down(hand, action.seat, action.cards)
    return _collected(hand, action, {kept.id: kept, new.id: new}, tuple(action.cards), next_meld=1)


def _collected(
    hand: HandState,
    action: Meld | Add | Borrow | Split,
    changes: dict[int, TableMeld | None],
    added: tuple[Card, ...],
    next_meld: int = 0,
) -> Plan:
    """The plan of a play that changes the melds ``changes`` (by id), with each of them
    collecting for the conditions it now meets."""
    plan = Plan(seat=action.seat, changes=changes, added=added, next_meld=next_meld)
    collect(hand, plan, action.seat, changes, action.claimed)
    return plan


def keeper(first: TableMeld, second: TableMeld) -> int:
    """Which part of a split keeps the meld's identity and paid level (section 4): 0 or 1.

    The part worth more; equal values, the one with more cards; still equal, the one with
    the lower cards, so that not even a later growth depends on the order of entry.
    """
    a = (first.value, first.shape.size)
    b = (second.value, second.shape.size)
    if a != b:
        return 0 if a > b else 1
    return 0 if first.cards <= second.cards else 1


def plan_go_out(hand: HandState, action: GoOut) -> Plan:
    require_playing(hand)
    seat = action.seat
    require_in(hand, seat)
    down = hand.cards_down[seat]
    if down != hand.limit:
        raise IllegalActionError(
            "Seat {seat} has {down} cards down: going out needs exactly {limit}.",
            code="cannot_go_out",
            seat=seat,
            down=down,
            limit=hand.limit,
        )
    plan = Plan(seat=seat, hand_status="settled", winner=seat)
    chips = hand.rules.going_out_chips
    collected = 0
    payers = hand.payers(seat)
    going_out_text = REASONS["going_out"].format(chips=chips, seats=seats_text(len(payers)))
    for payer in payers:
        if chips:
            plan.payments.append(Payment(payer, seat, chips, "going_out", going_out_text))
            collected += chips
        again = hand.condition_paid(payer, seat)
        if again:
            plan.payments.append(
                Payment.said(payer, seat, again, "conditions_again", payer=payer, seat=seat)
            )
            collected += again
    pot = hand.net[POT]
    if pot > 0:
        plan.payments.append(Payment.said(POT, seat, pot, "pot"))
        collected += pot
    rake = hand.collection.rake(collected)
    if rake:
        c = hand.collection
        plan.payments.append(
            Payment(
                seat,
                HOUSE,
                rake,
                "rake",
                REASONS["rake"].format(
                    percent=f"{c.percent}%", collected=collected, cap=c.cap, chips=rake
                ),
            )
        )
    return plan


def plan_drop(hand: HandState, action: Drop) -> Plan:
    require_playing(hand)
    seat = action.seat
    require_in(hand, seat)
    if hand.melds:
        raise NotAllowedNowError(
            "A seat can drop only before the first meld of the hand.", code="too_late_to_drop"
        )
    if not others_in_play(hand, seat):
        # A fouled seat collects nothing more, so it can never be left to take the pot.
        raise NotAllowedNowError(
            "Seat {seat} is the last seat in play and cannot drop.",
            code="last_seat_in_play",
            seat=seat,
        )
    plan = Plan(seat=seat, statuses={seat: "dropped"})
    forfeit = hand.rules.drop_forfeit
    if forfeit:
        plan.payments.append(Payment.said(seat, POT, forfeit, "drop_forfeit"))
    left = [s for s in hand.seats if s != seat and hand.seat_status[s] != "dropped"]
    if len(left) == 1:
        (last,) = left
        pot = hand.net[POT] + forfeit
        if pot > 0:
            plan.payments.append(
                Payment(POT, last, pot, "pot", REASONS["last_seat"].format(chips=pot))
            )
        plan.hand_status = "settled"
        plan.winner = last
    return plan
