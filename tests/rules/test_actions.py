"""Actions: the API's JSON bodies parsed into values, and back to canonical JSON."""

import pytest

from dealer.rules import InvalidActionError, InvalidCardError, action_from_dict, action_to_dict

BODIES = [
    {"type": "drop", "seat": 5},
    {"type": "meld", "seat": 1, "cards": ["5S", "5S", "5S"]},
    {"type": "meld", "seat": 1, "cards": ["5S", "5S", "5S"], "claimed": False},
    {"type": "add", "seat": 1, "meld": 3, "cards": ["5S"]},
    {"type": "add", "seat": 1, "meld": 3, "cards": ["5S"], "claimed": False},
    {
        "type": "borrow",
        "seat": 2,
        "meld": 1,
        "take": ["7D"],
        "cards": ["7H", "7C"],
        "claimed": False,
    },
    {
        "type": "split",
        "seat": 1,
        "meld": 1,
        "cards": [],
        "into": [["5S", "5S", "5S"], ["5S", "5S", "5S"]],
        "claimed": False,
    },
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


@pytest.mark.parametrize(
    "body", BODIES, ids=[b["type"] + ("_unclaimed" if "claimed" in b else "") for b in BODIES]
)
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


@pytest.mark.parametrize("kind", ["meld", "add", "borrow", "split"])
def test_claimed_true_reads_as_the_default_and_is_left_out(kind):
    body = next(b for b in BODIES if b["type"] == kind and "claimed" not in b)
    action = action_from_dict({**body, "claimed": True})
    assert action.claimed is True and action == action_from_dict(body)
    assert action_to_dict(action) == body


@pytest.mark.parametrize("kind", ["meld", "add", "borrow", "split"])
@pytest.mark.parametrize("claimed", ["false", 0, 1, None, [], {}])
def test_claimed_that_is_not_a_boolean_is_refused_naming_the_field(kind, claimed):
    body = next(b for b in BODIES if b["type"] == kind and "claimed" not in b)
    with pytest.raises(InvalidActionError) as caught:
        action_from_dict({**body, "claimed": claimed})
    assert caught.value.code == "invalid_action"
    assert "(claimed)" in caught.value.message and "true or false" in caught.value.message


def test_an_unclaimed_event_says_so():
    body = {"type": "add", "seat": 1, "meld": 3, "cards": ["5S"], "claimed": False}
    assert (
        action_from_dict(body).describe() == "seat 1 adds 5S to meld 3 (not claimed: nothing paid)"
    )
