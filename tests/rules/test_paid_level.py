"""PAN_RULES.md section 4: the paid level, and laying at once equals growing."""

from dealer.rules import parse_cards
from tests.rules.helpers import act, each, new_hand, paid


def test_a_new_condition_pays_its_value_from_every_paying_seat():
    hand = new_hand(seats=(1, 2, 3, 4))
    event = act(hand, "meld", seat=1, cards=["5S", "5S", "5S"])
    assert paid(event) == each((2, 3, 4), 1, 4)
    assert event.payments[0].reason == "valle set in spades (5S 5S 5S): 4 from each of 3 seats"
    assert hand.melds[1].paid == 4


def test_growing_pays_only_the_rise_in_value():
    hand = new_hand(seats=(1, 2, 3))
    act(hand, "meld", seat=1, cards=["5S", "5S", "5S"])
    event = act(hand, "add", seat=1, meld=1, cards=["5S"])
    assert paid(event) == each((2, 3), 1, 4)  # seed 000: "everyone pays her 4 more"
    assert "grown to 4 cards" in event.payments[0].reason
    assert hand.melds[1].paid == 8


def test_growing_in_card_room_pays_the_unit():
    hand = new_hand("cardroom", seats=(1, 2, 3))
    act(hand, "meld", seat=1, cards=["5S", "5S", "5S"])
    assert paid(act(hand, "add", seat=1, meld=1, cards=["5S"])) == each((2, 3), 1, 2)
    act(hand, "meld", seat=2, cards=["AD", "2D", "3D"])
    # A card beyond the third of a run is worth nothing in card room: no payment.
    assert paid(act(hand, "add", seat=2, meld=2, cards=["4D"])) == []


def test_a_non_condition_pays_nothing():
    hand = new_hand()
    assert paid(act(hand, "meld", seat=1, cards=["4C", "5C", "6C"])) == []
    assert hand.melds[1].paid == 0


def test_growing_into_a_condition_pays_the_whole_value():
    hand = new_hand(seats=(1, 2))
    act(hand, "meld", seat=1, cards=["5C", "6C", "7C"])
    event = act(hand, "add", seat=1, meld=1, cards=["JC", "QC", "KC"])
    # Now a six-card run with the king: 1 + 1 x 3 in classic, all of it new.
    assert paid(event) == each((2,), 1, 4)


def total_paid_by(hand, payer):
    return sum(p.chips for p in hand.payments if p.payer == payer and p.rule == "condition")


def test_laying_at_once_pays_exactly_what_growing_pays():
    at_once = new_hand(seats=(1, 2, 3))
    act(at_once, "meld", seat=1, cards=["5S"] * 6)
    grown = new_hand(seats=(1, 2, 3))
    act(grown, "meld", seat=1, cards=["5S"] * 3)
    for _ in range(3):
        act(grown, "add", seat=1, meld=1, cards=["5S"])
    assert total_paid_by(at_once, 2) == total_paid_by(grown, 2) == 16


def test_a_dropped_seat_neither_pays_nor_collects():
    hand = new_hand(seats=(1, 2, 3))
    act(hand, "drop", seat=3)
    assert paid(act(hand, "meld", seat=1, cards=["KS", "KS", "KS"])) == each((2,), 1, 2)


def test_a_borrowed_condition_keeps_its_level_and_pays_no_refund():
    hand = new_hand(seats=(1, 2))
    act(hand, "meld", seat=1, cards=["5S"] * 4)  # V = 8
    event = act(hand, "borrow", seat=1, meld=1, take=["5S"], cards=["5H", "5C"])
    assert hand.melds[1].value == 4 and hand.melds[1].paid == 8
    assert paid(event) == each((2,), 1, 1)  # only the new mixed valle set
    # Re-growing it pays only beyond its old level: back to 4 cards pays nothing.
    assert paid(act(hand, "add", seat=1, meld=1, cards=["5S"])) == []
    assert paid(act(hand, "add", seat=1, meld=1, cards=["5S"])) == each((2,), 1, 4)


def test_payer_going_below_zero_still_pays():
    hand = new_hand(seats=(1, 2))
    for suit in "SHD":
        act(hand, "meld", seat=1, cards=[f"5{suit}"] * 3)
    assert hand.net[2] == -8  # the ledger records it; the app flags the short stack


def test_parse_cards_is_what_the_actions_use():
    hand = new_hand(seats=(1, 2))
    act(hand, "meld", seat=1, cards="5♠ 5s 5S")
    assert hand.melds[1].cards == parse_cards("5S 5S 5S")
