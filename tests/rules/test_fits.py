"""PAN_RULES.md sections 4-5: where a discard fits, and whether it lets a seat go out."""

from dealer.rules import Fit
from tests.rules.helpers import act, new_hand


def test_fits_lists_every_meld_a_card_could_grow():
    hand = new_hand(seats=(1, 2, 3))
    act(hand, "meld", seat=1, cards=["5C", "6C", "7C"])
    act(hand, "meld", seat=2, cards=["7H", "7D", "7S"])
    act(hand, "meld", seat=3, cards=["7C", "7C", "7C"])
    assert hand.fits("7c") == [Fit(2, 2, False), Fit(3, 3, False)]
    assert hand.fits("JC") == [Fit(1, 1, False)]
    assert hand.fits("KH") == []


def test_fits_flags_a_seat_with_ten_down():
    hand = new_hand(seats=(1, 2))
    act(hand, "meld", seat=1, cards=["AC", "2C", "3C", "4C", "5C", "6C", "7C"])
    act(hand, "meld", seat=1, cards=["KD", "KD", "KD"])
    assert hand.fits("JC") == [Fit(1, 1, True)]
    assert hand.fits("KD") == [Fit(1, 2, True)]
    assert hand.fits("KH") == []  # a one-suit set grows only in its suit


def test_nothing_fits_a_dropped_or_fouled_seat_or_a_settled_hand():
    hand = new_hand(seats=(1, 2, 3))
    act(hand, "meld", seat=1, cards=["5C", "6C", "7C"])
    act(hand, "foul", seat=1)
    assert hand.fits("JC") == []
