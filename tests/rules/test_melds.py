"""PAN_RULES.md section 2: set and run validity, and growth."""

import pytest

from dealer.rules import IllegalMeldError, check_growth, classify, is_valid_meld, parse_cards


def cards(text):
    return parse_cards(text)


@pytest.mark.parametrize(
    "meld",
    [
        "6H 6H 6H",  # one suit
        "6H 6C 6S",  # three suits
        "6H 6C 6S 6H",  # grown mixed set
        "AH AH AD",  # aces mix freely
        "KS KS KH",  # kings too
        "KS KS KS",
        "5C 6C 7C",
        "6D 7D JD",  # 7 and J are adjacent
        "AS 2S 3S",  # ace low
        "7H JH QH KH",
        "3S 2S AS",  # input order does not matter
        "JH 7H QH",
    ],
)
def test_valid_melds(meld):
    assert is_valid_meld(cards(meld))


@pytest.mark.parametrize(
    ("meld", "why"),
    [
        ("6H 6H 6C", "at least three different suits"),
        ("QS KS AS", "ace is low only"),
        ("KS AS 2S", "ace is low only"),
        ("6H 7H JH QC", "one rank"),
        ("5C 6C", "at least three cards"),
        ("5C 6C JC", "consecutive"),
        ("5C 5C 6C", "same rank twice"),
        ("5C 6C 6C 7C", "same rank twice"),
    ],
)
def test_invalid_melds_say_why(meld, why):
    with pytest.raises(IllegalMeldError) as caught:
        classify(cards(meld))
    assert caught.value.code == "illegal_meld"
    assert why in caught.value.message


def test_no_cards_is_not_a_meld():
    with pytest.raises(IllegalMeldError, match="No cards"):
        classify(())


def grow(meld, added):
    old = cards(meld)
    check_growth(old, classify(old), cards(added))


def test_one_suit_set_grows_only_by_its_rank_and_suit():
    grow("6H 6H 6H", "6H")
    with pytest.raises(IllegalMeldError, match="grows only by sixes in hearts"):
        grow("6H 6H 6H", "6C 6S")  # would even make three suits: still no (section 9)
    with pytest.raises(IllegalMeldError):
        grow("6H 6H 6H", "6C")


def test_mixed_set_grows_by_its_rank_in_any_suit():
    grow("6H 6C 6S", "6H")
    grow("6H 6C 6S", "6D")
    with pytest.raises(IllegalMeldError):
        grow("6H 6C 6S", "7H")


def test_mixed_ace_set_grows_by_any_ace():
    grow("AH AH AD", "AS")


def test_run_grows_at_either_end_in_its_suit():
    grow("5C 6C 7C", "JC")
    grow("5C 6C 7C", "4C")
    grow("5C 6C 7C", "3C 4C JC")
    with pytest.raises(IllegalMeldError):
        grow("5C 6C 7C", "JH")
    with pytest.raises(IllegalMeldError):
        grow("5C 6C 7C", "QC")  # a gap
    with pytest.raises(IllegalMeldError):
        grow("JC QC KC", "AC")  # no wrap


def test_a_set_cannot_become_a_run():
    with pytest.raises(IllegalMeldError):
        grow("6H 6H 6H", "7H")
