"""Hand actions as values, and their parsing from the API's JSON form."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from .cards import Card, format_cards, parse_cards
from .errors import InvalidActionError, Phrase

__all__ = [
    "ACTION_TYPES",
    "CLAIMABLE_TYPES",
    "NOT_CLAIMED",
    "Action",
    "Add",
    "Borrow",
    "Drop",
    "Foul",
    "GoOut",
    "Meld",
    "Penalty",
    "Split",
    "Void",
    "VoidHand",
    "action_from_dict",
    "action_to_dict",
]


@dataclass(frozen=True, slots=True)
class _SeatOnly:
    """An action that names only its seat: what it says is its class's ``said``."""

    seat: int
    said: ClassVar[str] = ""

    def describe(self) -> str:
        return self.said.format(seat=self.seat)


@dataclass(frozen=True, slots=True)
class Drop(_SeatOnly):
    type = "drop"
    said = "seat {seat} drops"


#: What the history says of a meld event recorded with ``claimed`` false.
NOT_CLAIMED = "not claimed: nothing paid"


def _claim_note(claimed: bool) -> str:
    return "" if claimed else f" ({NOT_CLAIMED})"


# ``claimed`` false (section 4, "Unclaimed"): the seat did not ask for its chips before its
# discard, so the cards move as usual and nothing is paid, then or later.


@dataclass(frozen=True, slots=True)
class Meld:
    seat: int
    cards: tuple[Card, ...]
    claimed: bool = True
    type = "meld"

    def describe(self) -> str:
        cards = format_cards(sorted(self.cards))
        return f"seat {self.seat} melds {cards}{_claim_note(self.claimed)}"


@dataclass(frozen=True, slots=True)
class Add:
    seat: int
    meld: int
    cards: tuple[Card, ...]
    claimed: bool = True
    type = "add"

    def describe(self) -> str:
        cards = format_cards(sorted(self.cards))
        return f"seat {self.seat} adds {cards} to meld {self.meld}{_claim_note(self.claimed)}"


@dataclass(frozen=True, slots=True)
class Borrow:
    seat: int
    meld: int
    take: tuple[Card, ...]
    cards: tuple[Card, ...]
    claimed: bool = True
    type = "borrow"

    def describe(self) -> str:
        new = format_cards(sorted((*self.take, *self.cards)))
        took = format_cards(sorted(self.take))
        note = _claim_note(self.claimed)
        return f"seat {self.seat} borrows {took} from meld {self.meld} for {new}{note}"


@dataclass(frozen=True, slots=True)
class Split:
    seat: int
    meld: int
    cards: tuple[Card, ...]
    into: tuple[tuple[Card, ...], tuple[Card, ...]]
    claimed: bool = True
    type = "split"

    def describe(self) -> str:
        parts = " and ".join(format_cards(sorted(p)) for p in self.into)
        note = _claim_note(self.claimed)
        return f"seat {self.seat} splits meld {self.meld} into {parts}{note}"


@dataclass(frozen=True, slots=True)
class GoOut(_SeatOnly):
    type = "go_out"
    said = "seat {seat} goes out"


@dataclass(frozen=True, slots=True)
class Foul(_SeatOnly):
    type = "foul"
    said = "seat {seat} fouls"


@dataclass(frozen=True, slots=True)
class Penalty(_SeatOnly):
    type = "penalty"
    said = "discard penalty on seat {seat}"


@dataclass(frozen=True, slots=True)
class Void:
    event: int
    reason: str
    type = "void"

    def describe(self) -> str:
        return f"void of event {self.event}"


@dataclass(frozen=True, slots=True)
class VoidHand:
    reason: str
    type = "void_hand"

    def describe(self) -> str:
        return "the hand is void"


Action = Drop | Meld | Add | Borrow | Split | GoOut | Foul | Penalty | Void | VoidHand
#: The actions that collect for conditions, and so may be recorded with ``claimed`` false.
CLAIMABLE_TYPES = ("meld", "add", "borrow", "split")

ACTION_TYPES = (
    "drop",
    "meld",
    "add",
    "borrow",
    "split",
    "go_out",
    "foul",
    "penalty",
    "void",
    "void_hand",
)


#: The refusal of each whole number an event carries, when it is not one.
_NOT_WHOLE = {
    "seat": Phrase("The seat must be given as a whole number (seat)."),
    "meld": Phrase("The meld must be given as a whole number (meld)."),
    "event": Phrase("The event to void must be given as a whole number (event)."),
}
#: The refusal of each list of cards an event carries, when it is not one.
_NOT_CARDS = {
    "cards": Phrase("The cards must be a list of cards such as 5S."),
    "take": Phrase("The take must be a list of cards such as 5S."),
    "into": Phrase("The into must be a list of cards such as 5S."),
}


def _int(body: Mapping[str, Any], name: str) -> int:
    value = body.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidActionError(_NOT_WHOLE[name])
    return value


def _seat(body: Mapping[str, Any]) -> int:
    seat = _int(body, "seat")
    if not 1 <= seat <= 8:
        raise InvalidActionError(
            "Seat {seat} does not exist: seats are numbered 1 to 8.", seat=seat
        )
    return seat


def _cards(body: Mapping[str, Any], name: str) -> tuple[Card, ...]:
    value = body.get(name)
    if not isinstance(value, list | tuple | str):
        raise InvalidActionError(_NOT_CARDS[name])
    return parse_cards(value)


def _claimed(body: Mapping[str, Any]) -> bool:
    if "claimed" not in body:
        return True
    value = body["claimed"]
    if not isinstance(value, bool):
        raise InvalidActionError(
            "Whether the seat claimed its chips must be true or false (claimed): false "
            "records the event with nothing paid."
        )
    return value


def _reason(body: Mapping[str, Any]) -> str:
    reason = body.get("reason", "")
    if not isinstance(reason, str) or not reason.strip():
        raise InvalidActionError("A void needs a reason the floor can read later.")
    if len(reason) > 500:
        raise InvalidActionError("The reason is too long: keep it under 500 characters.")
    return reason.strip()


#: The actions that carry only a seat, by type.
_SEAT_ONLY: dict[str, type[Drop | GoOut | Foul | Penalty]] = {
    "drop": Drop,
    "go_out": GoOut,
    "foul": Foul,
    "penalty": Penalty,
}


def action_from_dict(body: object) -> Action:
    """Parse the JSON body of an event (API.md) into an action; raise ``RulesError`` if bad."""
    if not isinstance(body, Mapping):
        raise InvalidActionError("The event must be a JSON object with a type.")
    kind = body.get("type")
    if isinstance(kind, str) and kind in _SEAT_ONLY:
        return _SEAT_ONLY[kind](_seat(body))
    if kind == "meld":
        return Meld(_seat(body), _cards(body, "cards"), _claimed(body))
    if kind == "add":
        return Add(_seat(body), _int(body, "meld"), _cards(body, "cards"), _claimed(body))
    if kind == "borrow":
        return Borrow(
            _seat(body),
            _int(body, "meld"),
            _cards(body, "take"),
            _cards(body, "cards"),
            _claimed(body),
        )
    if kind == "split":
        into = body.get("into")
        if not isinstance(into, list | tuple) or len(into) != 2:
            raise InvalidActionError("A split needs into: the two melds it makes, as two lists.")
        first, second = (_cards({"into": part}, "into") for part in into)
        cards = _cards(body, "cards") if "cards" in body else ()
        meld = _int(body, "meld")
        return Split(_seat(body), meld, cards, (first, second), _claimed(body))
    if kind == "void":
        return Void(_int(body, "event"), _reason(body))
    if kind == "void_hand":
        return VoidHand(_reason(body))
    raise InvalidActionError(
        "{kind} is not an event type: use one of {types}.",
        code="unknown_event_type",
        kind=repr(kind),
        types=", ".join(ACTION_TYPES),
    )


def action_to_dict(action: Action) -> dict[str, Any]:
    """The canonical JSON form of an action: what ``action_from_dict`` reads back.

    ``claimed`` appears only when false, so that every claimed event keeps the form it had
    before the field existed.
    """
    out: dict[str, Any] = {"type": action.type}
    for name in (f.name for f in fields(action)):
        value = getattr(action, name)
        if name == "claimed":
            if value:
                continue
        elif name == "into":
            value = [[str(c) for c in part] for part in value]
        elif name in ("cards", "take"):
            value = [str(c) for c in value]
        out[name] = value
    return out
