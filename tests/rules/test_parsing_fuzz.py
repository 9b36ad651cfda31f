"""Fuzzing the engine's parsers: bad input is a ``RulesError`` with a code and a sentence.

The API maps ``RulesError`` to a 4xx; any other exception would be a 500 (API.md: "Never a
500 for bad input"). So for any text or JSON-like value the parsers either return or raise a
``RulesError`` whose ``code`` is snake_case and whose ``message`` is one readable sentence.
"""

import re
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from dealer.rules import (
    ACTION_TYPES,
    ALL_CARDS,
    PROFILES,
    RANKS,
    Card,
    Collection,
    RulesError,
    action_from_dict,
    make_collection,
    make_rules,
    parse_card,
    parse_cards,
)
from tests.examples import examples

SETTINGS = settings(
    max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

SNAKE_CASE = re.compile(r"^[a-z][a-z0-9_]*$")
SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
#: The engine also takes the white suit symbols; PAN_RULES.md section 1 names only the black.
WHITE_SYMBOLS = {"C": "♧", "D": "♢", "H": "♡", "S": "♤"}
KNOBS = tuple(PROFILES["classic"].knobs())

json_like = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
card_tokens = st.one_of(
    st.sampled_from([str(c) for c in ALL_CARDS]),
    st.sampled_from(["10H", "8C", "TS", "JK", "joker", "", " ", "5X", "5s ", "k♠"]),
    st.text(max_size=4),
)
card_lists = st.lists(card_tokens, max_size=5) | st.text(max_size=16) | json_like


def check_refusal(exc: BaseException) -> None:
    """A refusal the API can show: a RulesError, a snake_case code, one sentence."""
    assert isinstance(exc, RulesError), repr(exc)
    assert isinstance(exc.code, str) and SNAKE_CASE.match(exc.code), exc.code
    message = exc.message
    assert isinstance(message, str) and message == message.strip() and message, repr(exc)
    assert message.endswith("."), message
    assert len(message.split()) >= 3, message
    assert str(exc) == message


def outcome(call: Callable[[], object]) -> object:
    """Call; return the result, or check the refusal and return it. Nothing else may escape."""
    try:
        return call()
    except Exception as exc:
        check_refusal(exc)
        return exc


# ------------------------------------------------------------------------ cards


@SETTINGS
@given(token=st.text() | json_like | card_tokens)
def test_parse_card_returns_a_card_or_names_the_bad_token(token: object) -> None:
    result = outcome(lambda: parse_card(token))  # type: ignore[arg-type]
    if isinstance(result, Card):
        assert result in ALL_CARDS
        return
    assert repr(token) in result.message, (token, result.message)


@settings(SETTINGS, max_examples=examples(50))
@given(token=st.text(alphabet=" \t\n\r\u00a0\u2003", max_size=3))
def test_a_blank_token_is_named_in_the_message(token: str) -> None:
    with pytest.raises(RulesError) as caught:
        parse_card(token)
    check_refusal(caught.value)
    assert "empty" in caught.value.message
    assert repr(token) in caught.value.message


def spellings(card: Card) -> list[str]:
    """Every way PAN_RULES.md section 1 lets a dealer write ``card``."""
    rank, suit = RANKS[card.rank], card.suit
    ranks = {rank, rank.lower()}
    suits = {suit, suit.lower(), SYMBOLS[suit], WHITE_SYMBOLS[suit]}
    pads = [("", ""), (" ", ""), ("", " "), ("  ", "\t"), ("\n", " ")]
    return [f"{a}{r}{s}{b}" for r in ranks for s in suits for a, b in pads]


def test_every_spelling_of_every_card_parses_to_its_canonical_form() -> None:
    for card in ALL_CARDS:
        for token in spellings(card):
            assert parse_card(token) == card, token
            assert str(parse_card(token)) == RANKS[card.rank] + card.suit, token
    every = [s for c in ALL_CARDS for s in spellings(c)]
    assert [str(c) for c in parse_cards(every)] == [str(c) for c in ALL_CARDS for _ in spellings(c)]
    text = ", ".join(s.strip() for s in every)
    assert len(parse_cards(text)) == len(every)


ACCEPTED = {s.strip() for c in ALL_CARDS for s in spellings(c)}
#: Letters whose upper case is a suit or rank letter although they are not one themselves.
LOOKALIKES = "\u017f\uff53\uff33\u0131\u0130\u212a\u00df\ufb05"

near_cards = st.builds(
    lambda pad, rank, suit, end: pad + rank + suit + end,
    st.sampled_from(["", " "]),
    st.sampled_from(RANKS + RANKS.lower() + "8T"),
    st.sampled_from("CDHScdhs♣♦♥♠X" + LOOKALIKES),
    st.sampled_from(["", "\t"]),
)


@settings(SETTINGS, max_examples=examples(200))
@given(token=near_cards | st.text(alphabet=RANKS + "CDHScdhs♣♦♥♠" + LOOKALIKES, max_size=3))
@example(token="5\u017f")
def test_only_the_documented_spellings_are_accepted(token: str) -> None:
    accepted = not isinstance(outcome(lambda: parse_card(token)), RulesError)
    assert accepted == (token.strip() in ACCEPTED), token


@SETTINGS
@given(cards=card_lists)
def test_parse_cards_returns_cards_or_refuses(cards: object) -> None:
    result = outcome(lambda: parse_cards(cards))  # type: ignore[arg-type]
    if not isinstance(result, RulesError):
        assert isinstance(result, tuple) and all(c in ALL_CARDS for c in result)


# ---------------------------------------------------------------------- actions

action_fields = {
    "seat": st.integers(-2, 10) | json_like,
    "meld": st.integers(-1, 5) | json_like,
    "cards": card_lists,
    "take": card_lists,
    "into": st.lists(card_lists, max_size=3) | json_like,
    "event": st.integers(-1, 5) | json_like,
    "reason": st.text(max_size=600) | json_like,
}
action_bodies = st.one_of(
    json_like,
    st.fixed_dictionaries(
        {"type": st.sampled_from(ACTION_TYPES) | json_like},
        optional=action_fields,  # type: ignore[arg-type]
    ),
)


@settings(SETTINGS, max_examples=examples(600))
@given(body=action_bodies)
def test_action_from_dict_returns_an_action_or_refuses(body: object) -> None:
    result = outcome(lambda: action_from_dict(body))
    if not isinstance(result, RulesError):
        assert isinstance(body, dict)
        assert result.type == body["type"]


# ------------------------------------------------------------- rules, collection

overrides = st.one_of(
    json_like,
    st.dictionaries(st.sampled_from(KNOBS) | st.text(max_size=8), json_like, max_size=4),
    st.dictionaries(
        st.sampled_from(KNOBS),
        st.integers(-2, 25) | st.booleans() | st.sampled_from(["value", "unit"]),
        max_size=5,
    ),
)


@settings(SETTINGS, max_examples=examples(400))
@given(profile=st.sampled_from(sorted(PROFILES)) | json_like, knobs=overrides)
def test_make_rules_returns_rules_or_refuses(profile: object, knobs: object) -> None:
    result = outcome(lambda: make_rules(profile, knobs))  # type: ignore[arg-type]
    if not isinstance(result, RulesError):
        assert result.profile == profile
        assert result.packs >= 1
        assert 0 <= result.spade_sets_removed < result.packs
        if isinstance(knobs, dict):
            assert all(getattr(result, k) == v for k, v in knobs.items())


collection_specs = st.one_of(
    json_like,
    st.fixed_dictionaries(
        {},
        optional={  # type: ignore[arg-type]
            "kind": st.sampled_from(["none", "per_hand", "time", "rake_percent"]) | json_like,
            "chips": st.integers(-1, 1001) | json_like,
            "minutes": st.integers(-1, 601) | json_like,
            "percent": st.integers(-1, 101) | json_like,
            "cap": st.integers(-1, 10) | json_like,
        },
    ),
)


@settings(SETTINGS, max_examples=examples(400))
@given(spec=collection_specs)
def test_make_collection_returns_a_collection_or_refuses(spec: object) -> None:
    result = outcome(lambda: make_collection(spec))  # type: ignore[arg-type]
    if not isinstance(result, RulesError):
        assert isinstance(result, Collection)
        assert result.rake(10**6) >= 0
