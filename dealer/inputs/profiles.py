"""Rule knobs and collection models, declared from the engine's own `Rules` and bounds.

The engine (`rules.make_rules`, `rules.make_collection`) stays the judge of their values,
with its sentences; these types are what the OpenAPI document shows of them, and what a
body holds once the engine has accepted it.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeAlias, Union, cast, get_type_hints

from pydantic import ConfigDict, Field
from typing_extensions import TypedDict

from dealer import rules
from dealer.bounds import COLLECTION_FIELDS, KNOB_BOUNDS
from dealer.words.catalogue import say_later

__all__ = ["Collection", "Knobs", "KnobsGiven", "Profile", "Ruled"]

#: Each profile and each collection, as the open-table form offers it.
PROFILE_WORDS = {
    "classic": say_later("Classic (seed 000): 320 cards, drop pays 2, going out 1"),
    "cardroom": say_later("Card room: 310 cards, 1-chip ante, going out 2"),
}
COLLECTION_WORDS = {
    "none": say_later("None"),
    "per_hand": say_later("Per hand: each seat dealt in pays a fixed fee"),
    "time": say_later("Time: each seated player pays every so many minutes"),
    "rake_percent": say_later("Rake: a share of the winner's collection"),
}
_CLOSED = ConfigDict(extra="forbid")
#: pydantic reads a TypedDict made at run time; its name becomes the document's.
_typed_dict: Any = TypedDict


def _knob_types() -> dict[str, Any]:
    """Each knob's type as the engine declares it, whole numbers with their bounds."""
    hints = get_type_hints(rules.Rules)
    out: dict[str, Any] = {}
    for knob in dataclasses.fields(rules.Rules)[1:]:
        low_high = KNOB_BOUNDS.get(knob.name)
        kind = hints[knob.name]
        out[knob.name] = (
            kind if low_high is None else Annotated[kind, Field(ge=low_high[0], le=low_high[1])]
        )
    return out


def _knobs(name: str, *, every: bool, profile: bool = False) -> Any:
    fields = _knob_types()
    if profile:
        fields = {"profile": Profile, **fields}
    made = _typed_dict(name, fields, total=every)
    made.__pydantic_config__ = _CLOSED
    return made


def _collection(kind: str) -> Any:
    fields: dict[str, Any] = {"kind": cast(Any, Literal)[kind]}
    for name, (low, high) in COLLECTION_FIELDS[kind].items():
        fields[name] = Annotated[int, Field(ge=low, le=high)]
    made = _typed_dict("Collection" + kind.title().replace("_", ""), fields)
    made.__pydantic_config__ = _CLOSED
    return made


if TYPE_CHECKING:  # made at run time from the engine: to mypy, what a view reads of them
    Profile: TypeAlias = str
    KnobsGiven: TypeAlias = dict[str, Any]
    Knobs: TypeAlias = dict[str, Any]
    Ruled: TypeAlias = dict[str, Any]
    Collection: TypeAlias = dict[str, Any]
else:
    #: A rule profile's name.
    Profile = Literal[tuple(rules.PROFILES)]
    #: Overrides of a profile: any knobs, each within the engine's bounds.
    KnobsGiven = _knobs("Knobs", every=False)
    #: Every knob, effective.
    Knobs = _knobs("EffectiveKnobs", every=True)
    #: The profile a hand is played under and every knob, effective.
    Ruled = _knobs("HandRules", every=True, profile=True)
    #: The house's collection: ``kind`` and that kind's settings.
    Collection = Annotated[
        Union[tuple(_collection(kind) for kind in COLLECTION_FIELDS)],  # noqa: UP007
        Field(discriminator="kind"),
    ]
