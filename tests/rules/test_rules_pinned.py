"""dealer/rules through its own functions, where the other tests leave it unsaid: what a
whole hand's void reverses, payment by payment, the words of a refused void, of a void without a
reason, of a borrow that leaves no meld and of a seat or a meld not given as a whole number,
and the plays open to a seat out of play or in a hand that is over (none); a rake's rounding
and cap, and no seat after the last one still in play."""

from __future__ import annotations

import pytest

from dealer.rules import (
    Collection,
    IllegalMeldError,
    InvalidActionError,
    NotAllowedNowError,
    action_from_dict,
)
from tests.rules.helpers import act, new_hand


def test_a_hands_void_names_each_payment_it_reverses_and_comes_once() -> None:
    hand = new_hand("cardroom", seats=(1, 2, 3), collection={"kind": "per_hand", "chips": 1})
    act(hand, "drop", seat=3)
    act(hand, "meld", seat=1, cards=["5S", "5S", "5S"])
    reversed_ = [
        (event.seq, i)
        for event in hand.events
        if hand.is_active(event.seq)
        for i, _paid in enumerate(event.payments)
    ]
    void = act(hand, "void_hand", reason="misdeal")
    assert [p.reverses for p in void.payments] == reversed_
    with pytest.raises(NotAllowedNowError) as again:
        act(hand, "void_hand", reason="misdeal")
    assert (again.value.code, again.value.message) == ("already_void", "The hand is already void.")


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"type": "drop", "seat": "1"}, "The seat must be given as a whole number (seat)."),
        (
            {"type": "add", "seat": 1, "meld": "2", "cards": ["5S"]},
            "The meld must be given as a whole number (meld).",
        ),
        (
            {"type": "borrow", "seat": 1, "meld": "2", "take": ["5S"], "cards": ["5S"]},
            "The meld must be given as a whole number (meld).",
        ),
        (
            {"type": "split", "seat": 1, "meld": "2", "into": [["5S"], ["6S"]]},
            "The meld must be given as a whole number (meld).",
        ),
    ],
)
def test_a_number_not_given_as_one_is_refused_in_words(body: dict[str, object], words: str) -> None:
    with pytest.raises(InvalidActionError) as refused:
        action_from_dict(body)
    assert refused.value.message == words


def test_a_void_without_a_reason_is_refused_in_words() -> None:
    with pytest.raises(InvalidActionError) as refused:
        action_from_dict({"type": "void", "event": 2, "reason": " "})
    assert refused.value.message == "A void needs a reason the floor can read later."


def test_a_seat_out_of_play_or_a_hand_over_opens_no_play_to_a_seat() -> None:
    hand = new_hand("classic", seats=(1, 2, 3))
    act(hand, "drop", seat=3)
    assert hand.allowed(3) == frozenset()
    assert "meld" in hand.allowed(1)
    act(hand, "void_hand", reason="misdeal")
    assert hand.allowed(1) == frozenset()


def test_a_borrow_that_leaves_no_meld_is_refused_in_words() -> None:
    hand = new_hand("classic", seats=(1, 2, 3))
    act(hand, "meld", seat=1, cards=["JH", "QH", "KH"])
    with pytest.raises(IllegalMeldError) as refused:
        act(hand, "borrow", seat=1, meld=1, take=["KH"], cards=["KD", "KC"])
    assert refused.value.message == (
        "Borrowing KH would leave JH QH, which is not a meld: every meld left on the table must "
        "stay valid."
    )


def test_a_rake_is_its_percent_of_the_collection_rounded_down_at_most_its_cap() -> None:
    rake = Collection(kind="rake_percent", percent=5, cap=10)
    assert [rake.rake(n) for n in (0, 19, 20, 100, 139, 140, 400)] == [0, 0, 1, 5, 6, 7, 10]


def test_no_seat_follows_the_last_seat_still_in_play() -> None:
    hand = new_hand(seats=(1, 2, 3))
    assert [hand.next_in_play(seat) for seat in (1, 2, 3)] == [2, 3, 1]
    act(hand, "drop", seat=2)
    assert [hand.next_in_play(seat) for seat in (1, 3)] == [3, 1]
    hand.seat_status[3] = "dropped"  # as a second drop leaves it, read before the hand ends
    assert hand.next_in_play(1) is None
