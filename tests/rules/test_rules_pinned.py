"""dealer/rules through its own functions, where the other tests leave it unsaid: what a
whole hand's void reverses, payment by payment, the words of a refused void, of a void without a
reason, of a borrow that leaves no meld and of a seat or a meld not given as a whole number,
and the plays open to a seat out of play or in a hand that is over (none); a rake's rounding
and cap, and no seat after the last one still in play; an event type unknown refused naming
every one, cards not given as a list refused in words, a split described with both its melds,
a penalty open to a seat of a hand gone out; a drop said with its seat, the last seat left in
taking the pot in words; a seat that dropped refused in words; a hand of one seat refused with
its code."""

from __future__ import annotations

import pytest

from dealer.rules import (
    Collection,
    IllegalActionError,
    IllegalMeldError,
    InvalidActionError,
    InvalidCardError,
    NotAllowedNowError,
    Split,
    action_from_dict,
    parse_cards,
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


def test_an_event_type_unknown_is_refused_naming_every_one() -> None:
    with pytest.raises(InvalidActionError) as refused:
        action_from_dict({"type": "fold"})
    assert refused.value.message == (
        "'fold' is not an event type: use one of drop, meld, add, borrow, split, go_out, foul, "
        "penalty, void, void_hand."
    )


def test_cards_not_given_as_a_list_are_refused_in_words() -> None:
    with pytest.raises(InvalidCardError) as refused:
        parse_cards(None)  # type: ignore[arg-type]
    assert refused.value.message == "The cards must be a list of cards such as 5S."


def test_a_split_is_described_with_both_its_melds() -> None:
    into = (parse_cards("5S 5S 5S"), parse_cards("6S 6S 6S"))
    assert Split(seat=1, meld=2, cards=(), into=into).describe() == (
        "seat 1 splits meld 2 into 5S 5S 5S and 6S 6S 6S"
    )


def test_a_penalty_is_open_to_a_seat_of_a_hand_gone_out() -> None:
    hand = new_hand("classic", seats=(1, 2, 3))
    for cards in (["5S", "5S", "5S"], ["JH", "QH", "KH"], ["2C", "3C", "4C", "5C", "6C"]):
        act(hand, "meld", seat=1, cards=cards)
    act(hand, "go_out", seat=1)
    assert (hand.status, hand.allowed(2)) == ("settled", frozenset({"penalty"}))


def test_the_last_seat_left_in_takes_the_pot_in_words() -> None:
    hand = new_hand("classic", seats=(1, 2, 3))
    assert act(hand, "drop", seat=2).text == "seat 2 drops"
    last = act(hand, "drop", seat=3)
    assert last.text == "seat 3 drops"
    taken = [p for p in last.payments if p.payee == 1]
    assert [(p.chips, p.reason) for p in taken] == [(4, "last seat left in: takes the pot of 4")]


def test_a_seat_that_dropped_is_refused_in_words() -> None:
    hand = new_hand("classic", seats=(1, 2, 3))
    act(hand, "drop", seat=2)
    with pytest.raises(NotAllowedNowError) as refused:
        act(hand, "meld", seat=2, cards=["5S", "5S", "5S"])
    assert (refused.value.code, refused.value.message) == (
        "seat_not_in",
        "Seat 2 dropped and takes no further part in the hand.",
    )


def test_a_hand_of_one_seat_is_refused_with_its_code() -> None:
    with pytest.raises(IllegalActionError) as refused:
        new_hand("classic", seats=(1,))
    assert refused.value.code == "not_enough_players"
