"""PAN_RULES.md sections 5 and 6: deal, stay or drop, going out, the pot, the house."""

import pytest

from dealer.rules import (
    HOUSE,
    POT,
    Hand,
    IllegalActionError,
    InvalidActionError,
    NotAllowedNowError,
    make_collection,
    make_rules,
    time_collection,
)
from tests.rules.helpers import act, each, new_hand, paid


def lay_eleven(hand, seat):
    """Seed 000's winner: 5S 5S 5S and JH QH KH, and five more non-condition cards."""
    act(hand, "meld", seat=seat, cards=["5S", "5S", "5S"])
    act(hand, "meld", seat=seat, cards=["JH", "QH", "KH"])
    act(hand, "meld", seat=seat, cards=["2C", "3C", "4C", "5C", "6C"])


def test_seed_000_example_classic():
    hand = new_hand(seats=(1, 2, 3, 4, 5, 6))
    assert paid(act(hand, "drop", seat=5)) == [("5", "pot", 2, "drop_forfeit")]
    lay_eleven(hand, 1)
    event = act(hand, "go_out", seat=1)
    others = (2, 3, 4, 6)
    expected = [*each(others, 1, 1, "going_out"), *each(others, 1, 5, "conditions_again")]
    assert paid(event) == sorted([*expected, ("pot", "1", 2, "pot")])
    assert hand.net == {1: 46, 2: -11, 3: -11, 4: -11, 5: -2, 6: -11, POT: 0, HOUSE: 0}
    assert hand.status == "settled" and hand.winner == 1


def test_seed_000_example_cardroom():
    # Ante 1 each (pot 6); the drop just loses its ante; conditions 4 + 1; going out 2.
    hand = new_hand("cardroom", seats=(1, 2, 3, 4, 5, 6))
    assert paid(hand.events[0]) == each((1, 2, 3, 4, 5, 6), POT, 1, "ante")
    assert paid(act(hand, "drop", seat=5)) == []
    lay_eleven(hand, 1)
    act(hand, "go_out", seat=1)
    # Each of four: 1 ante + 5 conditions + 2 going out + 5 again = 13; seat 1 collects
    # 4 x 12 during play and at going out, and the pot of 6 (its own ante among them): 53.
    assert hand.net == {1: 53, 2: -13, 3: -13, 4: -13, 5: -1, 6: -13, POT: 0, HOUSE: 0}


def test_a_hand_needs_two_seats():
    with pytest.raises(IllegalActionError):
        Hand(make_rules("classic"), [3])


def test_drop_only_before_the_first_meld():
    hand = new_hand()
    act(hand, "meld", seat=1, cards=["4C", "5C", "6C"])
    with pytest.raises(NotAllowedNowError) as caught:
        act(hand, "drop", seat=2)
    assert caught.value.code == "too_late_to_drop"


def test_last_seat_left_takes_the_pot_and_the_hand_ends():
    hand = new_hand(seats=(1, 2, 3))
    act(hand, "drop", seat=1)
    event = act(hand, "drop", seat=3)
    assert paid(event) == [("3", "pot", 2, "drop_forfeit"), ("pot", "2", 4, "pot")]
    assert hand.status == "settled" and hand.winner == 2
    assert hand.net == {1: -2, 2: 4, 3: -2, POT: 0, HOUSE: 0}


def test_a_dropped_seat_cannot_play():
    hand = new_hand(seats=(1, 2, 3))
    act(hand, "drop", seat=3)
    with pytest.raises(NotAllowedNowError) as caught:
        act(hand, "meld", seat=3, cards=["4C", "5C", "6C"])
    assert caught.value.code == "seat_not_in"


def test_going_out_needs_exactly_hand_size_plus_one():
    hand = new_hand(seats=(1, 2))
    act(hand, "meld", seat=1, cards=["2C", "3C", "4C", "5C", "6C", "7C", "JC", "QC", "KC"])
    with pytest.raises(IllegalActionError) as caught:
        act(hand, "go_out", seat=1)
    assert caught.value.code == "cannot_go_out" and "exactly 11" in caught.value.message


def test_fifteen_goes_out_with_sixteen():
    hand = new_hand(seats=(1, 2), hand_size=15)
    act(hand, "meld", seat=1, cards=["AC", "2C", "3C", "4C", "5C", "6C", "7C", "JC", "QC", "KC"])
    act(hand, "meld", seat=1, cards=["6H"] * 3)
    with pytest.raises(IllegalActionError):
        act(hand, "go_out", seat=1)  # 13 down
    act(hand, "add", seat=1, meld=2, cards=["6H"] * 3)
    act(hand, "go_out", seat=1)
    assert hand.winner == 1


def test_per_hand_collection_is_paid_before_the_deal():
    hand = new_hand(seats=(1, 2, 3), collection={"kind": "per_hand", "chips": 1})
    assert paid(hand.events[0]) == each((1, 2, 3), HOUSE, 1, "collection")
    assert hand.net[HOUSE] == 3


def test_rake_is_a_share_of_the_winners_collection_rounded_down_and_capped():
    hand = new_hand(
        "cardroom", seats=(1, 2, 3), collection={"kind": "rake_percent", "percent": 10, "cap": 5}
    )
    lay_eleven(hand, 1)
    event = act(hand, "go_out", seat=1)
    # Collected: pot 3 + from each of two seats 2 going out + 5 again = 17; 10 % is 1.
    assert ("1", "house", 1, "rake") in paid(event)
    assert hand.net[HOUSE] == 1


def test_time_collection_is_table_level():
    payments = time_collection([3, 1], make_collection({"kind": "time", "chips": 2, "minutes": 30}))
    assert [(p.payer, p.payee, p.chips, p.rule) for p in payments] == [
        (1, HOUSE, 2, "collection"),
        (3, HOUSE, 2, "collection"),
    ]
    with pytest.raises(NotAllowedNowError):
        time_collection([1], make_collection(None))


def test_allowed_actions_for_buttons():
    hand = new_hand(seats=(1, 2))
    assert hand.allowed(1) == {"meld", "drop", "foul"}
    act(hand, "meld", seat=1, cards=["4C", "5C", "6C", "7C"])
    assert hand.allowed(1) == {"meld", "add", "split", "borrow", "foul"}
    assert hand.allowed(9) == frozenset()


def test_the_last_seat_in_play_cannot_drop_and_leave_a_fouled_seat_the_pot():
    hand = new_hand(seats=(1, 2, 3))
    act(hand, "foul", seat=1)
    act(hand, "drop", seat=2)
    with pytest.raises(NotAllowedNowError) as caught:
        act(hand, "drop", seat=3)
    assert caught.value.code == "last_seat_in_play"
    assert hand.status == "playing"


def test_at_the_card_limit_a_long_meld_may_still_be_split_or_lent():
    hand = new_hand(seats=(1, 2))
    act(hand, "meld", seat=1, cards=["AC", "2C", "3C", "4C", "5C", "6C", "7C", "JC"])
    act(hand, "meld", seat=1, cards=["6H", "6H", "6H"])
    assert hand.allowed(1) == {"split", "borrow", "go_out", "foul"}
    act(
        hand,
        "split",
        seat=1,
        meld=1,
        cards=[],
        into=[["AC", "2C", "3C"], ["4C", "5C", "6C", "7C", "JC"]],
    )
    assert hand.cards_down[1] == 11


@pytest.mark.parametrize("seats", [[1, "2"], [1, 1], [0, 1], [1, True], [1, 9]])
def test_bad_seats_are_refused_as_rules_errors(seats):
    with pytest.raises(InvalidActionError):
        Hand(make_rules("classic"), seats)
