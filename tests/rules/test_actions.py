"""Actions: the API's JSON bodies parsed into values, and back to canonical JSON."""

import pytest

from dealer.rules import InvalidActionError, InvalidCardError, action_from_dict, action_to_dict

BODIES = [
    {"type": "drop", "seat": 5},
    {"type": "meld", "seat": 1, "cards": ["5S", "5S", "5S"]},
    {"type": "add", "seat": 1, "meld": 3, "cards": ["5S"]},
    {"type": "borrow", "seat": 2, "meld": 1, "take": ["7D"], "cards": ["7H", "7C"]},
    {
        "type": "split",
        "seat": 1,
        "meld": 1,
        "cards": ["4C", "QC"],
        "into": [["4C", "5C", "6C"], ["7C", "JC", "QC"]],
    },
    {"type": "go_out", "seat": 1},
    {"type": "foul", "seat": 3},
    {"type": "penalty", "seat": 4},
    {"type": "void", "event": 7, "reason": "mis-entry"},
    {"type": "void_hand", "reason": "misdeal"},
]


@pytest.mark.parametrize("body", BODIES, ids=[b["type"] for b in BODIES])
def test_canonical_bodies_round_trip(body):
    assert action_to_dict(action_from_dict(body)) == body


def test_input_cards_come_back_canonical():
    body = {"type": "meld", "seat": 1, "cards": ["5s", "5♠", " 5S"]}
    assert action_to_dict(action_from_dict(body))["cards"] == ["5S", "5S", "5S"]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ([], "invalid_action"),
        ({"seat": 1}, "unknown_event_type"),
        ({"type": "shuffle"}, "unknown_event_type"),
        ({"type": "drop"}, "invalid_action"),
        ({"type": "drop", "seat": "1"}, "invalid_action"),
        ({"type": "drop", "seat": True}, "invalid_action"),
        ({"type": "drop", "seat": 9}, "invalid_action"),
        ({"type": "meld", "seat": 1}, "invalid_action"),
        ({"type": "meld", "seat": 1, "cards": 5}, "invalid_action"),
        ({"type": "add", "seat": 1, "cards": ["5S"]}, "invalid_action"),
        ({"type": "split", "seat": 1, "meld": 1, "into": [["5S"]]}, "invalid_action"),
        ({"type": "void", "event": 3}, "invalid_action"),
        ({"type": "void", "event": 3, "reason": "  "}, "invalid_action"),
        ({"type": "void_hand", "reason": "x" * 501}, "invalid_action"),
    ],
)
def test_malformed_bodies_are_refused_with_a_code(body, code):
    with pytest.raises(InvalidActionError) as caught:
        action_from_dict(body)
    assert caught.value.code == code


def test_a_bad_card_in_a_body_names_the_card():
    with pytest.raises(InvalidCardError, match="'10H'"):
        action_from_dict({"type": "meld", "seat": 1, "cards": ["5S", "10H", "5S"]})
