"""PAN_RULES.md section 1: card notation and parsing."""

import re
from itertools import product

import pytest

from dealer.rules import (
    ALL_CARDS,
    CARD_PATTERN,
    InvalidCardError,
    format_cards,
    parse_card,
    parse_cards,
)


def test_there_are_forty_distinct_cards_and_no_8_9_10():
    assert len(ALL_CARDS) == 40
    assert {str(c)[0] for c in ALL_CARDS} == set("A234567JQK")


@pytest.mark.parametrize(
    ("token", "canonical"),
    [
        ("5S", "5S"),
        ("jh", "JH"),
        ("Ad", "AD"),
        ("7c", "7C"),
        ("5♠", "5S"),
        ("q♥", "QH"),
        ("K♦", "KD"),
        ("2♣", "2C"),
        (" 3h ", "3H"),
    ],
)
def test_input_is_case_insensitive_and_accepts_suit_symbols(token, canonical):
    assert str(parse_card(token)) == canonical


@pytest.mark.parametrize(
    ("token", "words"),
    [
        ("10H", "no 8s, 9s or 10s"),
        ("8C", "no 8s, 9s or 10s"),
        ("9d", "no 8s, 9s or 10s"),
        ("TS", "no 8s, 9s or 10s"),
        ("joker", "no jokers"),
        ("", "empty card"),
        ("5X", "must end in a suit"),
        ("ZS", "rank must be one of"),
        ("5", "must end in a suit"),
    ],
)
def test_every_bad_token_is_an_error_naming_it(token, words):
    with pytest.raises(InvalidCardError) as caught:
        parse_card(token)
    assert caught.value.code == "invalid_card"
    assert words in caught.value.message
    if token:
        assert repr(token) in caught.value.message


def test_a_list_fails_on_its_first_bad_token_by_name():
    with pytest.raises(InvalidCardError, match="'10H'"):
        parse_cards(["5S", "10H", "8C"])


def test_typed_shorthand_splits_on_spaces_and_commas():
    assert format_cards(parse_cards("5s 5s, 5♠")) == "5S 5S 5S"


def test_non_text_is_an_invalid_card_not_a_crash():
    with pytest.raises(InvalidCardError):
        parse_card(5)  # type: ignore[arg-type]
    with pytest.raises(InvalidCardError):
        parse_cards(7)  # type: ignore[arg-type]


def test_valle_cards_are_3_5_7():
    assert {str(c)[0] for c in ALL_CARDS if c.is_valle} == {"3", "5", "7"}


@pytest.mark.parametrize("token", ["5\u017f", "\u0131S", "5\uff33", "5s\u0301"])
def test_look_alike_letters_are_not_cards(token):
    with pytest.raises(InvalidCardError):
        parse_card(token)


@pytest.mark.parametrize("token", ["", " ", "\t"])
def test_a_blank_card_is_shown_as_it_came(token):
    with pytest.raises(InvalidCardError) as caught:
        parse_card(token)
    assert repr(token) in caught.value.message


def test_the_card_pattern_matches_exactly_the_cards_parse_card_reads():
    """The front doors declare cards with CARD_PATTERN: does it say what the parser says?"""
    # Ranks, suits, their symbols, near misses, and a long s (which .upper() makes an S).
    characters = (
        "A234567891JQKTXajqkxCDHSNcdhs0 " + "\u2660\u2661\u2662\u2663\u2664\u2665\u2666\u2667\u017f"
    )
    for rank, suit in product(characters, repeat=2):
        token = rank + suit
        try:
            parse_card(token)
            reads = True
        except InvalidCardError:
            reads = False
        assert bool(re.fullmatch(CARD_PATTERN, token)) == (reads and token == token.strip()), token
