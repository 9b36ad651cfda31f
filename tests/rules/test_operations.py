"""PAN_RULES.md section 4: meld, add, borrow, split; the shoe and card-count checks."""

import pytest

from dealer.rules import (
    IllegalActionError,
    IllegalMeldError,
    InvalidActionError,
    NotAllowedNowError,
    ShoeExceededError,
)
from tests.rules.helpers import act, each, new_hand, paid


def melds(hand, seat):
    return sorted((str(m), m.paid) for m in hand.melds_of(seat))


def test_seed_000_borrow_example():
    # Ben has 4D 5D 6D 7D, draws 7H, holds 7C: takes the 7D and melds 7D 7H 7C.
    hand = new_hand(seats=(1, 2, 3))
    act(hand, "meld", seat=2, cards=["4D", "5D", "6D", "7D"])
    event = act(hand, "borrow", seat=2, meld=1, take=["7D"], cards=["7H", "7C"])
    assert paid(event) == each((1, 3), 2, 1)
    assert melds(hand, 2) == [("4D 5D 6D", 0), ("7C 7D 7H", 1)]
    assert hand.cards_down[2] == 6


def test_borrow_must_leave_a_valid_meld():
    hand = new_hand(seats=(1, 2))
    act(hand, "meld", seat=1, cards=["4D", "5D", "6D", "7D"])
    with pytest.raises(IllegalMeldError, match="would leave"):
        act(hand, "borrow", seat=1, meld=1, take=["5D"], cards=["5H", "5C"])
    # "From 7, 6, 5, 4, either the 7 or 4 may be borrowed, but not both."
    with pytest.raises(IllegalMeldError, match="would leave"):
        act(hand, "borrow", seat=1, meld=1, take=["4D", "7D"], cards=["2D"])
    with pytest.raises(IllegalMeldError, match="does not hold"):
        act(hand, "borrow", seat=1, meld=1, take=["KD"], cards=["KH", "KC"])


def test_sending_collects_then_borrows_the_card_away():
    # Seed 003: QS JS 7S melded, hit with the KS: paid first, then meld it with two kings.
    hand = new_hand(seats=(1, 2, 3))
    act(hand, "meld", seat=1, cards=["7S", "JS", "QS"])
    # A four-card run with the king in spades, classic: 2 + 2 x 1 = 4.
    assert paid(act(hand, "add", seat=1, meld=1, cards=["KS"])) == each((2, 3), 1, 4)
    event = act(hand, "borrow", seat=1, meld=1, take=["KS"], cards=["KH", "KD"])
    assert paid(event) == []  # a mixed king set is no condition; the run keeps P = 4
    assert melds(hand, 1) == [("7S JS QS", 4), ("KD KH KS", 0)]


def test_split_example_from_the_rules():
    # 5C 6C 7C JC + 4C + QC -> 4C 5C 6C and 7C JC QC.
    hand = new_hand(seats=(1, 2))
    act(hand, "meld", seat=1, cards=["5C", "6C", "7C", "JC"])
    event = act(
        hand,
        "split",
        seat=1,
        meld=1,
        cards=["4C", "QC"],
        into=[["4C", "5C", "6C"], ["7C", "JC", "QC"]],
    )
    assert paid(event) == []
    assert sorted(hand.melds) == [1, 2]
    assert str(hand.melds[1]) == "4C 5C 6C" and str(hand.melds[2]) == "7C JC QC"
    assert hand.cards_down[1] == 6


def test_split_part_worth_more_keeps_identity_and_level():
    hand = new_hand(seats=(1, 2))
    act(hand, "meld", seat=1, cards=["3C", "4C", "5C", "6C", "7C", "JC", "QC"])
    act(hand, "add", seat=1, meld=1, cards=["KC"])  # run with the king, 8 cards: V = 6
    assert hand.melds[1].paid == 6
    event = act(
        hand,
        "split",
        seat=1,
        meld=1,
        cards=["2C"],
        into=[["2C", "3C", "4C", "5C"], ["6C", "7C", "JC", "QC", "KC"]],
    )
    # The part holding the king (V 3, against 0) keeps id 1 and P = 6: nothing paid.
    assert str(hand.melds[1]) == "6C 7C JC QC KC" and hand.melds[1].paid == 6
    assert str(hand.melds[2]) == "2C 3C 4C 5C" and hand.melds[2].paid == 0
    assert paid(event) == []


def test_split_into_equal_parts_the_new_part_collects_its_full_value():
    hand = new_hand(seats=(1, 2))
    act(hand, "meld", seat=1, cards=["6H"] * 6)  # V = 1 + 3 = 4
    event = act(hand, "split", seat=1, meld=1, cards=[], into=[["6H"] * 3, ["6H"] * 3])
    assert hand.melds[1].paid == 4 and hand.melds[2].paid == 1
    assert paid(event) == each((2,), 1, 1)  # the new part collects its full V


def test_split_must_account_for_every_card():
    hand = new_hand(seats=(1, 2))
    act(hand, "meld", seat=1, cards=["5C", "6C", "7C", "JC"])
    with pytest.raises(IllegalMeldError, match="exactly"):
        act(
            hand,
            "split",
            seat=1,
            meld=1,
            cards=["4C", "QC"],
            into=[["4C", "5C", "6C"], ["7C", "JC"]],
        )
    with pytest.raises(IllegalMeldError, match="at least three"):
        act(hand, "split", seat=1, meld=1, cards=["4C"], into=[["4C", "5C", "6C"], ["7C", "JC"]])
    with pytest.raises(IllegalMeldError):
        act(
            hand,
            "split",
            seat=1,
            meld=1,
            cards=["4C", "QC"],
            into=[["4C", "5C", "JC"], ["6C", "7C", "QC"]],
        )


def test_a_seat_adds_only_to_its_own_melds():
    hand = new_hand(seats=(1, 2))
    act(hand, "meld", seat=1, cards=["5C", "6C", "7C"])
    with pytest.raises(IllegalActionError) as caught:
        act(hand, "add", seat=2, meld=1, cards=["4C"])
    assert caught.value.code == "not_your_meld"
    with pytest.raises(InvalidActionError) as unknown:
        act(hand, "add", seat=1, meld=9, cards=["4C"])
    assert unknown.value.code == "unknown_meld"


def test_shoe_check_counts_every_seat_and_follows_the_profile():
    hand = new_hand(seats=(1, 2))
    act(hand, "meld", seat=1, cards=["5S"] * 5)
    act(hand, "meld", seat=2, cards=["5S"] * 3)  # 8 copies of 5S: the whole classic shoe
    with pytest.raises(ShoeExceededError) as caught:
        act(hand, "add", seat=2, meld=2, cards=["5S"])
    assert caught.value.code == "shoe_exceeded" and "5S" in caught.value.message
    cardroom = new_hand("cardroom", seats=(1, 2))
    act(cardroom, "meld", seat=1, cards=["5S"] * 4)
    act(cardroom, "meld", seat=2, cards=["5S"] * 3)  # 7: one spade set is out
    with pytest.raises(ShoeExceededError):
        act(cardroom, "add", seat=1, meld=1, cards=["5S"])
    act(cardroom, "meld", seat=2, cards=["5H"] * 8)  # hearts: all 8 copies


def test_a_seat_never_has_more_than_hand_size_plus_one_down():
    hand = new_hand(seats=(1, 2))
    act(hand, "meld", seat=1, cards=["2C", "3C", "4C", "5C", "6C", "7C", "JC", "QC", "KC"])
    with pytest.raises(IllegalActionError) as caught:
        act(hand, "meld", seat=1, cards=["6H", "6H", "6H"])
    assert caught.value.code == "too_many_cards"
    act(hand, "add", seat=1, meld=1, cards=["AC"])
    act(hand, "meld", seat=2, cards=["6H", "6H", "6H"])
    assert hand.cards_down == {1: 10, 2: 3}


def test_a_rejected_action_changes_nothing():
    hand = new_hand(seats=(1, 2))
    act(hand, "meld", seat=1, cards=["5S", "5S", "5S"])
    before = (dict(hand.net), dict(hand.melds), len(hand.events), dict(hand.cards_down))
    for bad in (
        {"type": "add", "seat": 1, "meld": 1, "cards": ["5H"]},
        {"type": "meld", "seat": 2, "cards": ["6H", "6H", "6C"]},
        {"type": "borrow", "seat": 1, "meld": 1, "take": ["5S"], "cards": ["5H"]},
    ):
        with pytest.raises(IllegalMeldError):
            act(hand, **{("type_" if k == "type" else k): v for k, v in bad.items()})
    assert before == (dict(hand.net), dict(hand.melds), len(hand.events), dict(hand.cards_down))


def test_settled_hand_refuses_melds():
    hand = new_hand(seats=(1, 2))
    act(hand, "drop", seat=2)
    with pytest.raises(NotAllowedNowError) as caught:
        act(hand, "meld", seat=1, cards=["5S", "5S", "5S"])
    assert caught.value.kind == "state"
