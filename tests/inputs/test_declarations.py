"""dealer/inputs: each declaration agrees with the engine, and refuses in the dealer's words."""

from __future__ import annotations

import dataclasses
from typing import Any, get_args

import pytest
from pydantic import TypeAdapter, ValidationError

from dealer import rules
from dealer.errors import Invalid
from dealer.inputs import EVENTS, KnobsGiven, NewEvent, NewSeat, NewTable, refusal, refuse_unknown


def test_each_event_type_declares_the_fields_of_the_engines_action() -> None:
    """Can the declared event bodies drift from the engine's actions? Not without this failing."""
    actions = {action.type: action for action in get_args(rules.Action)}
    declared = {}
    for event in EVENTS:
        (kind,) = get_args(event.model_fields["type"].annotation)
        declared[kind] = set(event.model_fields) - {"type", "supervisor"}
    assert sorted(declared) == sorted(rules.ACTION_TYPES) == sorted(actions)
    for kind, fields in declared.items():
        # the action's fields, its base class's too (drop, a foul... share one: seat)
        assert fields == {f.name for f in dataclasses.fields(actions[kind])}, kind


def test_the_knobs_are_the_engines() -> None:
    schema = TypeAdapter(KnobsGiven).json_schema()
    assert set(schema["properties"]) == set(rules.PROFILES["classic"].knobs())
    for knob, (low, high) in rules.KNOB_BOUNDS.items():
        assert (schema["properties"][knob]["minimum"], schema["properties"][knob]["maximum"]) == (
            low,
            high,
        )


def refused(model: Any, body: dict[str, Any]) -> Exception:
    refuse_unknown(model, body)
    with pytest.raises(ValidationError) as caught:
        model.model_validate(body)
    return refusal(caught.value, model, body)


@pytest.mark.parametrize(
    ("body", "sentence"),
    [
        ({"player": "A", "buy_in": 1}, "Enter the seat."),
        ({"seat": "1", "player": "A", "buy_in": 1}, "The seat must be a whole number."),
        ({"seat": 9, "player": "A", "buy_in": 1}, "The seat must be from 1 to 8."),
        (
            {"seat": 1, "player": " ", "buy_in": 1},
            "Enter the player's name.",
        ),
        (
            {"seat": 1, "player": "x" * 61, "buy_in": 1},
            "The player's name is too long: at most 60 characters.",
        ),
        (
            {"seat": 1, "player": "A", "buy_in": -1},
            "The buy-in must be from 0 to 1000000.",
        ),
    ],
)
def test_a_seat_is_refused_in_the_dealers_words(body: dict[str, Any], sentence: str) -> None:
    error = refused(NewSeat, body)
    assert isinstance(error, Invalid)
    assert (error.code, error.message) == ("invalid", sentence)


def test_an_unknown_field_is_refused_before_anything_else() -> None:
    with pytest.raises(Invalid) as caught:
        refuse_unknown(NewSeat, {"seat": "x", "colour": "red"})
    assert caught.value.code == "unknown_field"
    assert caught.value.message == (
        "Unknown field 'colour': this call takes buy_in, player, player_id, seat, supervisor."
    )


def test_the_engine_judges_knobs_collections_and_events() -> None:
    error = refused(NewTable, {"name": "T", "profile": "classic", "rules": {"packs": 99}})
    assert isinstance(error, rules.InvalidRulesError)
    assert error.message == "The rule packs must be from 1 to 20, not 99."
    error = refused(NewEvent, {"type": "meld", "seat": 1, "cards": ["8S", "8S", "8S"]})
    assert isinstance(error, rules.InvalidCardError)


def test_an_event_is_held_as_the_engine_spells_it() -> None:
    event = NewEvent.model_validate({"type": "meld", "seat": 1, "cards": "5c 6♣ 7C"})
    assert event.action() == {"type": "meld", "seat": 1, "cards": ["5C", "6C", "7C"]}
