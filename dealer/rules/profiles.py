"""Rule profiles: the knobs of PAN_RULES.md section 8, and the house collection models."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple, get_args

from .errors import InvalidRulesError

__all__ = [
    "COLLECTION_FIELDS",
    "KNOB_BOUNDS",
    "PROFILES",
    "Collection",
    "Rules",
    "make_collection",
    "make_rules",
]

AdditionPay = Literal["value", "unit"]


@dataclass(frozen=True, slots=True)
class Rules:
    """The knobs a hand is played under. Build one with ``make_rules``."""

    profile: str
    packs: int
    spade_sets_removed: int
    hand_size: int
    tops_ante: int
    drop_forfeit: int
    going_out_chips: int
    addition_pay: AdditionPay
    spades_double: bool
    mixed_valle_condition: bool
    #: A split or a borrow must play at least one card from hand (section 4).
    rearrange_needs_card: bool

    @property
    def cards_to_go_out(self) -> int:
        """Cards a seat must have down to go out: the hand plus the drawn card."""
        return self.hand_size + 1

    def copies(self, suit: str) -> int:
        """How many copies of each card of ``suit`` the shoe holds."""
        return self.packs - self.spade_sets_removed if suit == "S" else self.packs

    @property
    def shoe_size(self) -> int:
        return 40 * self.packs - 10 * self.spade_sets_removed

    def knobs(self) -> dict[str, Any]:
        """Every knob and its effective value (the profile name excluded)."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)[1:]}


KNOBS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Rules)[1:])


class _Knob(NamedTuple):
    """One knob: its value in each profile, and what an override of it may be."""

    classic: Any
    cardroom: Any
    #: A whole number's bounds: what a careful floor would accept; outside is a mis-entry.
    bounds: tuple[int, int] | None = None
    #: A choice's values. A knob with neither bounds nor choices is a switch (true or false).
    choices: tuple[str, ...] = ()


#: Every knob, as PAN_RULES.md section 8 tables the two profiles.
_KNOBS: dict[str, _Knob] = {
    "packs": _Knob(8, 8, bounds=(1, 20)),
    "spade_sets_removed": _Knob(0, 1, bounds=(0, 19)),
    "hand_size": _Knob(10, 10, bounds=(5, 20)),
    "tops_ante": _Knob(0, 1, bounds=(0, 1000)),
    "drop_forfeit": _Knob(2, 0, bounds=(0, 1000)),
    "going_out_chips": _Knob(1, 2, bounds=(0, 1000)),
    "addition_pay": _Knob("value", "unit", choices=get_args(AdditionPay)),
    "spades_double": _Knob(True, True),
    "mixed_valle_condition": _Knob(True, True),
    "rearrange_needs_card": _Knob(False, True),
}

PROFILES: Mapping[str, Rules] = {
    "classic": Rules(profile="classic", **{name: k.classic for name, k in _KNOBS.items()}),
    "cardroom": Rules(profile="cardroom", **{name: k.cardroom for name, k in _KNOBS.items()}),
}

# Each knob's kind: a number in bounds, one of a few choices, or a switch.
_INT_BOUNDS: dict[str, tuple[int, int]] = {n: k.bounds for n, k in _KNOBS.items() if k.bounds}
_CHOICES: dict[str, tuple[str, ...]] = {n: k.choices for n, k in _KNOBS.items() if k.choices}
_BOOLS: tuple[str, ...] = tuple(n for n, k in _KNOBS.items() if not (k.bounds or k.choices))


def _check_int(name: str, value: object, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidRulesError("The rule {name} must be a whole number.", name=name)
    if not low <= value <= high:
        raise InvalidRulesError(
            "The rule {name} must be from {low} to {high}, not {value}.",
            name=name,
            low=low,
            high=high,
            value=value,
        )
    return value


def make_rules(profile: str, overrides: Mapping[str, object] | None = None) -> Rules:
    """The profile's knobs with ``overrides`` applied; every value is checked."""
    base = PROFILES.get(profile) if isinstance(profile, str) else None
    if base is None:
        one, other = sorted(PROFILES)
        raise InvalidRulesError(
            "{profile} is not a rule profile: choose {one} or {other}.",
            code="unknown_profile",
            profile=repr(profile),
            one=one,
            other=other,
        )
    if not overrides:
        return base
    if not isinstance(overrides, Mapping):
        raise InvalidRulesError("The rule overrides must be a set of knob: value pairs.")
    changes: dict[str, object] = {}
    for name, value in overrides.items():
        if name not in KNOBS:
            raise InvalidRulesError(
                "{name} is not a rule knob: the knobs are {knobs}.",
                code="unknown_knob",
                name=repr(name),
                knobs=", ".join(KNOBS),
            )
        if name in _INT_BOUNDS:
            changes[name] = _check_int(name, value, *_INT_BOUNDS[name])
        elif name in _CHOICES:
            choices = _CHOICES[name]
            if value not in choices:
                one, other = (repr(c) for c in choices)
                raise InvalidRulesError(
                    "The rule {name} must be {one} or {other}.", name=name, one=one, other=other
                )
            changes[name] = value
        elif name in _BOOLS:
            if not isinstance(value, bool):
                raise InvalidRulesError("The rule {name} must be true or false.", name=name)
            changes[name] = value
        else:  # every knob is a number, a choice or a switch (a test holds the three lists)
            raise InvalidRulesError("The rule {name} cannot be overridden.", name=name)
    rules = dataclasses.replace(base, **changes)  # type: ignore[arg-type]
    if rules.spade_sets_removed >= rules.packs:
        raise InvalidRulesError(
            "The rule spade_sets_removed must leave at least one pack of spades in the shoe."
        )
    return rules


CollectionKind = Literal["none", "per_hand", "time", "rake_percent"]

_COLLECTION_FIELDS: dict[str, dict[str, tuple[int, int]]] = {
    "none": {},
    "per_hand": {"chips": (1, 1000)},
    "time": {"chips": (1, 1000), "minutes": (1, 600)},
    "rake_percent": {"percent": (1, 100), "cap": (1, 100000)},
}


@dataclass(frozen=True, slots=True)
class Collection:
    """The house's collection model ("drop") at a table."""

    kind: CollectionKind = "none"
    chips: int = 0
    minutes: int = 0
    percent: int = 0
    cap: int = 0

    def as_dict(self) -> dict[str, Any]:
        """The API form: ``kind`` plus only the fields that kind uses."""
        out: dict[str, Any] = {"kind": self.kind}
        for name in _COLLECTION_FIELDS[self.kind]:
            out[name] = getattr(self, name)
        return out

    @property
    def banned_in_california(self) -> bool:
        """A share of the pot: California card rooms may charge only fixed fees."""
        return self.kind == "rake_percent"

    def rake(self, collected: int) -> int:
        """The house's share of a winner's collection: rounded down, at most ``cap``."""
        if self.kind != "rake_percent" or collected <= 0:
            return 0
        return min(self.cap, collected * self.percent // 100)


NO_COLLECTION = Collection()


def make_collection(spec: Mapping[str, object] | None) -> Collection:
    """Check and build a collection model from its API form: ``{"kind": "time", ...}``."""
    if spec is None:
        return NO_COLLECTION
    if not isinstance(spec, Mapping):
        raise InvalidRulesError("The collection must be an object with a kind.")
    if "kind" not in spec:
        raise InvalidRulesError(
            "The collection needs a kind: none, per_hand, time or rake_percent.",
            code="unknown_collection",
        )
    kind = spec["kind"]
    if not isinstance(kind, str) or kind not in _COLLECTION_FIELDS:
        raise InvalidRulesError(
            "{kind} is not a collection model: choose none, per_hand, time or rake_percent.",
            code="unknown_collection",
            kind=repr(kind),
        )
    fields = _COLLECTION_FIELDS[kind]
    values: dict[str, int] = {}
    for name in spec:
        if name != "kind" and name not in fields:
            raise InvalidRulesError(
                "The {kind} collection has no setting {name}.",
                code="unknown_knob",
                kind=kind,
                name=repr(name),
            )
    for name, (low, high) in fields.items():
        if name not in spec:
            raise InvalidRulesError("The {kind} collection needs {name}.", kind=kind, name=name)
        values[name] = _check_int(name, spec[name], low, high)
    return Collection(kind=kind, **values)  # type: ignore[arg-type]


#: The bounds of every whole-number knob, for the front doors' forms and schemas to read.
KNOB_BOUNDS: Mapping[str, tuple[int, int]] = _INT_BOUNDS
#: Each collection model's settings and their bounds, likewise.
COLLECTION_FIELDS: Mapping[str, Mapping[str, tuple[int, int]]] = _COLLECTION_FIELDS
