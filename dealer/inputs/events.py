"""The bodies of a hand's writes (API.md): the deal, a card to fit, and an event of the hand
(POST /hands/{id}/events), one shape per type.

The engine is the judge of an event (`rules.action_from_dict`, with its own sentences):
it reads the body first, and the shapes below describe the body as the engine spells it
back (`rules.action_to_dict`), plus a supervisor's approval. So the document shows each
type's fields, an unknown field is refused before anything else, and a value the engine
would refuse is refused in the engine's words.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal, get_args

from pydantic import Field, RootModel, model_validator
from pydantic_core import core_schema

from dealer import rules
from dealer.bounds import CARD_PATTERN, REASON, SEATS
from dealer.errors import Invalid
from dealer.inputs.bodies import Approval, Body
from dealer.inputs.words import Asked, Words, text
from dealer.words import inputs as said
from dealer.words.catalogue import say_later

__all__ = ["EVENTS", "Fit", "NewEvent", "NewHand"]

Seat = Annotated[int, Field(ge=SEATS[0], le=SEATS[1])]
Card = Annotated[str, Field(pattern=CARD_PATTERN, examples=["5S"])]
Cards = list[Card]
Reason = Annotated[
    str,
    # after the engine's own sentences: a character that does not print
    text(REASON, say_later("reason")),
    Field(description="Why, for the floor."),
    Asked(say_later("Reason")),
]
MeldId = Annotated[int, Field(description="A meld's id, as the hand shows it.")]


def _seats(value: Any, _field: str, _given: Mapping[str, Any]) -> Any:
    if value is None:
        return None
    if not isinstance(value, list):
        raise Invalid(said.wrong_type(say_later("list of seats that drop")))
    if any(isinstance(s, bool) or not isinstance(s, int) for s in value):
        raise Invalid(said.drops_not_seats())
    if any(not SEATS[0] <= s <= SEATS[1] for s in value):
        raise Invalid(said.out_of_bounds(say_later("seats that drop"), *SEATS))
    if len(set(value)) != len(value):
        raise Invalid(said.drops_twice())
    return value


class NewHand(Body):
    """A hand to deal, and the seats that drop at once."""

    dropped: Annotated[
        list[int] | None,
        Words(
            _seats,
            None,
            inner=core_schema.nullable_schema(
                core_schema.list_schema(core_schema.int_schema(ge=SEATS[0], le=SEATS[1]))
            ),
            also={"uniqueItems": True},
        ),
        Asked(say_later("Drops")),
    ] = Field(None, description="The seats that drop before any card is played.")


def _card(value: Any, _field: str, _given: Mapping[str, Any]) -> str:
    if not isinstance(value, str):
        raise Invalid(said.card_to_fit(), "invalid_card")
    return str(rules.parse_card(value))  # the engine says what is wrong with a card


class Fit(Body):
    """A card to look for a place for."""

    card: Annotated[str, Words(_card, inner=core_schema.str_schema(pattern=CARD_PATTERN))] = Field(
        examples=["5S", "jh", "5♠"]
    )


class EventBody(Body):
    """Any event may bring a supervisor's approval."""

    supervisor: Approval = None


class ClaimableEvent(EventBody):
    """An event that collects for conditions, unless the seat did not claim its chips."""

    claimed: bool = Field(
        True,
        description=(
            "false: the seat did not ask for its chips before discarding (section 4): the "
            "cards move as usual and nothing is paid, then or later. Left out: true."
        ),
    )


class DropEvent(EventBody):
    """The seat drops."""

    type: Literal["drop"]
    seat: Seat


class MeldEvent(ClaimableEvent):
    """The seat lays a new meld."""

    type: Literal["meld"]
    seat: Seat
    cards: Cards


class AddEvent(ClaimableEvent):
    """The seat adds cards to one of its melds."""

    type: Literal["add"]
    seat: Seat
    meld: MeldId
    cards: Cards


class BorrowEvent(ClaimableEvent):
    """The seat takes cards from one of its melds into a new one: ``take`` + ``cards``."""

    type: Literal["borrow"]
    seat: Seat
    meld: MeldId
    take: Cards
    cards: Cards


class SplitEvent(ClaimableEvent):
    """The seat adds ``cards`` to a meld and splits it ``into`` two."""

    type: Literal["split"]
    seat: Seat
    meld: MeldId
    cards: Cards = Field(default_factory=list)
    into: Annotated[list[Cards], Field(min_length=2, max_length=2)]


class GoOutEvent(EventBody):
    """The seat goes out."""

    type: Literal["go_out"]
    seat: Seat


class FoulEvent(EventBody):
    """The seat fouls."""

    type: Literal["foul"]
    seat: Seat


class PenaltyEvent(EventBody):
    """The discard penalty, after settlement."""

    type: Literal["penalty"]
    seat: Seat


class VoidEvent(EventBody):
    """An earlier event voided, by its id."""

    type: Literal["void"]
    event: Annotated[int, Field(description="The id of the event it voids.")]
    reason: Reason


class VoidHandEvent(EventBody):
    """The whole hand voided (a supervisor)."""

    type: Literal["void_hand"]
    reason: Reason


AnyEvent = (
    DropEvent
    | MeldEvent
    | AddEvent
    | BorrowEvent
    | SplitEvent
    | GoOutEvent
    | FoulEvent
    | PenaltyEvent
    | VoidEvent
    | VoidHandEvent
)
#: Each event type's shape.
EVENTS: tuple[type[EventBody], ...] = get_args(AnyEvent)


class NewEvent(RootModel[Annotated[AnyEvent, Field(discriminator="type")]]):
    """One event of a hand, of one of the engine's types."""

    @model_validator(mode="before")
    @classmethod
    def engine_first(cls, body: Any) -> Any:
        """The body as the engine reads it, or the engine's refusal."""
        if not isinstance(body, Mapping):
            return body
        action = rules.action_from_dict({k: v for k, v in body.items() if k != "supervisor"})
        spelt = rules.action_to_dict(action)
        if "supervisor" in body:
            spelt["supervisor"] = body["supervisor"]
        return spelt

    def action(self) -> dict[str, Any]:
        """The event as the engine spells it: everything but the supervisor, and ``claimed``
        only when the seat did not claim."""
        action = self.root.model_dump(exclude={"supervisor"})
        if action.get("claimed") is True:
            del action["claimed"]
        return action
