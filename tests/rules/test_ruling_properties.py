"""Properties of the rulings on splits and unclaimed melds (PAN_RULES.md section 4), on random
legal play: the order a split's parts are entered in never changes a chip, and an unclaimed
event never makes any seat pay more than the same event claimed.

Each test plays a random hand to a random point, then forks it: two copies of the same hand
take the two versions of one event, then the same later events, and their chips are compared.
"""

import dataclasses

from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.strategies import DataObject

from dealer.rules import Action, Collection, Hand, Penalty, Rules, Split
from tests.examples import examples
from tests.rules.strategies import collections, rules_st, seat_lists
from tests.rules.test_properties import (
    SETTINGS,
    deal,
    play_out,
    propose,
    propose_add,
    propose_borrow,
    propose_meld,
    propose_split,
    table_state,
)

#: How often to look for an event of the kind a test forks on before giving up on the hand.
TRIES = 12


def find(hand: Hand, data: DataObject, proposers) -> Action | None:
    """A legal action from one of ``proposers``, or None when none turned up."""
    if hand.status != "playing":
        return None
    for _ in range(TRIES):
        action = data.draw(st.sampled_from(proposers))(hand, data)
        if action is not None and hand.can(action):
            return action
    return None


def fork(hand: Hand) -> Hand:
    """The same hand again, its events replayed (voids name events by seq, so they agree)."""
    twin = Hand(hand.rules, hand.seats, hand.collection)
    for event in hand.events[1:]:
        assert event.action is not None
        twin.apply(event.action)
    assert table_state(twin) == table_state(hand)
    return twin


def paid_by_seat(hand: Hand) -> dict[int, int]:
    """What each seat has paid out over the hand (every payment, reversals included)."""
    out = dict.fromkeys(hand.seats, 0)
    for p in hand.payments:
        if isinstance(p.payer, int):
            out[p.payer] += p.chips
    return out


def chips(record) -> list[tuple[object, object, int, str, int | None]]:
    return [(p.payer, p.payee, p.chips, p.rule, p.meld) for p in record.payments]


@settings(SETTINGS, max_examples=examples(100))
@given(rules=rules_st(), collection=collections(), seats=seat_lists(), data=st.data())
def test_entering_a_splits_parts_in_either_order_never_changes_a_chip(
    rules: Rules, collection: Collection, seats: list[int], data: DataObject
) -> None:
    """The same split with its parts swapped pays the same, leaves the same table (ids and
    paid levels included), and so every later event pays the same too."""
    hand, referee = deal(rules, collection, seats)
    play_out(hand, referee, data, data.draw(st.integers(0, 30)))
    split = find(hand, data, [propose_split])
    assume(split is not None)
    assert isinstance(split, Split)
    first, second = split.into
    swapped = dataclasses.replace(split, into=(second, first))
    other = fork(hand)
    assert other.can(swapped)
    record = referee.play(split)
    again = other.apply(swapped)
    assert record is not None
    assert chips(record) == chips(again)
    assert record.melds == again.melds
    assert table_state(hand) == table_state(other)
    for _ in range(data.draw(st.integers(0, 15))):
        action = propose(hand, data)
        if action is None or not hand.can(action):
            continue
        assert other.can(action), action
        later = referee.play(action)
        assert later is not None
        assert chips(later) == chips(other.apply(action)), action
    assert table_state(hand) == table_state(other)


@settings(SETTINGS, max_examples=examples(100))
@given(rules=rules_st(), collection=collections(), seats=seat_lists(), data=st.data())
def test_an_unclaimed_event_never_makes_a_seat_pay_more(
    rules: Rules, collection: Collection, seats: list[int], data: DataObject
) -> None:
    """A meld, add, borrow or split recorded unclaimed, then the same events as after it
    claimed: at every point no seat has paid more. (Not the discard penalty: it makes good
    each loser's loss, and a seat that did not claim its chips lost more.)"""
    hand, referee = deal(rules, collection, seats)
    play_out(hand, referee, data, data.draw(st.integers(0, 30)))
    event = find(hand, data, [propose_meld, propose_add, propose_borrow, propose_split])
    assume(event is not None)
    claimed = dataclasses.replace(event, claimed=True)
    unclaimed = dataclasses.replace(event, claimed=False)
    forgot = fork(hand)
    record = referee.play(claimed)
    assert record is not None
    assert forgot.apply(unclaimed).payments == ()
    # The cards moved alike, and the paid levels too: only the chips differ.
    assert table_state(hand)[1:8] == table_state(forgot)[1:8]
    for _ in range(data.draw(st.integers(0, 30))):
        action = propose(hand, data)
        if action is None or isinstance(action, Penalty) or not hand.can(action):
            continue
        assert forgot.can(action), action
        referee.play(action)
        forgot.apply(action)
        more = paid_by_seat(forgot)
        for seat, chips_paid in paid_by_seat(hand).items():
            assert more[seat] <= chips_paid, (seat, action)
