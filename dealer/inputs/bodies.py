"""The bodies of the writes (API.md), each field with its bounds and its words.

A body is a JSON object holding only the fields declared here, each strictly typed: a
seat is the number 3, never "3" nor 3.0. Optional fields may also be null, which means
the same as leaving them out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field
from pydantic_core import core_schema

from dealer import rules
from dealer.bounds import (
    BUY_IN_CHIPS,
    CARD_NUMBER,
    CHIP_VALUE_CENTS,
    MAX_CHIPS,
    MAX_ID,
    PIN_DIGITS,
    PLAYER_NAME,
    PLAYER_NOTES,
    SEATS,
    TABLE_NAME,
    USER_NAME,
    check_text,
    is_plain,
)
from dealer.errors import Invalid, NotSignedIn
from dealer.floor.acting_seat import ACTING_SEAT_WAYS, ActingSeat, check_acting_seat
from dealer.floor.tables import CHIP_MOVES, ChipMoveKind, check_chip_move, check_paused
from dealer.inputs.profiles import COLLECTION_WORDS, PROFILE_WORDS, Collection, KnobsGiven, Profile
from dealer.inputs.stays import StayAt
from dealer.inputs.words import (
    NON_BLANK,
    Asked,
    Words,
    optional_text,
    refuse_unknown,
    text,
    whole,
)
from dealer.models import ROLES
from dealer.people import pins, users
from dealer.people.languages import check_language
from dealer.words import inputs as said
from dealer.words.catalogue import say_later

__all__ = [
    "PIN",
    "Body",
    "ChipMove",
    "CloseDown",
    "Leave",
    "NewAssignment",
    "NewPlayer",
    "NewSeat",
    "NewTable",
    "NewUser",
    "Nothing",
    "SeatPause",
    "SignIn",
    "Supervisor",
    "TableSettings",
    "TakeCollection",
]

#: Each role, as the form adding someone offers it (`dealer.words.people.role_name`).
ROLE_WORDS = {
    "dealer": say_later("dealer"),
    "supervisor": say_later("supervisor"),
    "admin": say_later("admin"),
}
#: A PIN as the document writes it.
PIN = f"^[0-9]{{{PIN_DIGITS[0]},{PIN_DIGITS[1]}}}$"

#: What the OpenAPI document says of a person's name and of a PIN, wherever one is asked for.
NAME_SCHEMA = core_schema.str_schema(min_length=1, max_length=USER_NAME, pattern=NON_BLANK)
PIN_SCHEMA = core_schema.str_schema(pattern=PIN)


class Body(BaseModel):
    """A request body: a JSON object of exactly the declared fields, strictly typed."""

    model_config = ConfigDict(extra="forbid", strict=True)


class Nothing(Body):
    """No fields: the body may be left out, or be ``{}``."""


def _service(check: Any, inner: core_schema.CoreSchema | None = None) -> Words:
    """A field a service judges with its own ``check(value)``."""
    return Words(lambda value, _field, _given: check(value), inner=inner)


#: A language the app ships, by its code, or null for none chosen (`dealer.web.language`).
Language = Annotated[
    str | None,
    _service(check_language, core_schema.nullable_schema(core_schema.str_schema(max_length=12))),
]


def _profile(value: Any, _field: str, _given: Mapping[str, Any]) -> str:
    if not isinstance(value, str):
        raise Invalid(said.choose_profile(*rules.PROFILES))
    return rules.make_rules(value).profile  # the engine names a profile it does not know


def _overrides(value: Any, _field: str, given: Mapping[str, Any]) -> Any:
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise Invalid(said.wrong_type(say_later("list of rule overrides")))
    rules.make_rules(given.get("profile", "classic"), value)  # the engine judges every knob
    return value


def _collection(value: Any, _field: str, _given: Mapping[str, Any]) -> Any:
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise Invalid(said.wrong_type(say_later("collection")))
    return rules.make_collection(value).as_dict()  # the engine's judgement, kind spelt out


def _supervisor(value: Any, _field: str, _given: Mapping[str, Any]) -> Any:
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise Invalid(said.supervisor_shape())
    refuse_unknown(Supervisor, value)
    return value


def _supervisor_name(value: Any, _field: str, _given: Mapping[str, Any]) -> str:
    if not isinstance(value, str):
        raise Invalid(said.supervisor_shape())
    return check_text(value, USER_NAME, say_later("supervisor's name"))


def _pin(value: Any, whose: str) -> str:
    """A PIN as typed: a string of digits, or the sentence saying what is wrong with it."""
    if value is None or value == "":
        raise Invalid(said.enter(whose) if whose != "PIN" else said.enter_yours(whose))
    if not isinstance(value, str) or not pins.PIN_PATTERN.fullmatch(value):
        raise Invalid(said.pin_digits(*PIN_DIGITS), "invalid_pin")
    return value


def _supervisor_pin(value: Any, _field: str, _given: Mapping[str, Any]) -> str:
    if not isinstance(value, str):
        raise Invalid(said.supervisor_shape())
    return _pin(value, say_later("supervisor's PIN"))


class Supervisor(Body):
    """A supervisor approving on the spot, by name and PIN."""

    name: Annotated[str, Words(_supervisor_name, inner=NAME_SCHEMA)]
    pin: Annotated[str, Words(_supervisor_pin, inner=PIN_SCHEMA), Asked(how="password")]


#: A supervisor's approval, as a field of a body.
Approval = Annotated[
    Supervisor | None,
    Words(_supervisor, said.SUPERVISOR_SHAPE),
    Asked(parts=(say_later("Supervisor's name"), say_later("Supervisor's PIN"))),
]


#: A money limit of a table (`dealer.floor.limits`), optional: the default or the setting
#: it had stays when it is left out.
Limit = Annotated[int | None, whole(BUY_IN_CHIPS, say_later("limit in chips"), optional=True)]
LeastBuyIn = Annotated[Limit, Asked(say_later("Least buy-in, chips"))]
MostBuyIn = Annotated[Limit, Asked(say_later("Largest buy-in, chips"))]
ApprovalAbove = Annotated[
    Limit, Asked(say_later("Supervisor approves buy-ins and cash-outs above, chips"))
]


class TableSettings(Body):
    """A table's money limits, as a supervisor changes them; those left out stay."""

    min_buy_in: LeastBuyIn = Field(None, description="The least one buy-in may be, in chips.")
    max_buy_in: MostBuyIn = Field(None, description="The most one buy-in may be, in chips.")
    approval_above: ApprovalAbove = Field(
        None,
        description="A buy-in or cash-out above this many chips needs a supervisor's name and PIN.",
    )
    acting_seat: Annotated[
        ActingSeat | None,
        _service(
            check_acting_seat,
            core_schema.nullable_schema(core_schema.literal_schema(list(ACTING_SEAT_WAYS))),
        ),
        Asked(say_later("After a drop or a foul, the acting seat"), choices={}),
    ] = Field(
        None,
        description="Where the hand screen's acting seat goes after a drop or a foul: stays "
        "with the seat that acted, or moves_on to the next seat in play.",
    )


class NewTable(Body):
    """A table to open under a rule profile, with overrides, a collection and money limits."""

    name: Annotated[
        str, text(TABLE_NAME, say_later("table's name")), Asked(say_later("Table name"))
    ]
    profile: Annotated[
        Profile,
        Words(_profile),
        Asked(say_later("Rule profile"), choices=PROFILE_WORDS, default="classic"),
    ]
    rules: Annotated[KnobsGiven | None, Words(_overrides)] = Field(
        None, description="Knobs that differ from the profile's."
    )
    chip_value_cents: Annotated[
        int | None,
        whole(CHIP_VALUE_CENTS, say_later("chip value in cents"), optional=True),
        Asked(say_later("Chip value, in cents"), default=100),
    ] = Field(None, description="What one chip is worth, in cents: 100 if not given.")
    collection: Annotated[
        Collection | None,
        Words(_collection),
        Asked(say_later("House collection"), choices=COLLECTION_WORDS, default="none"),
    ] = Field(None, description="The house's collection: none if not given.")
    min_buy_in: LeastBuyIn = Field(None, description="The least one buy-in may be: 1 if not given.")
    max_buy_in: MostBuyIn = Field(
        None, description="The most one buy-in may be: 2000 if not given."
    )
    approval_above: ApprovalAbove = Field(
        None,
        description="A buy-in or cash-out above this needs a supervisor: 1000 if not given.",
    )


class NewSeat(Body):
    """A player sitting down with a buy-in from the cage (within the table's limits; above
    its approval threshold with a supervisor's name and PIN)."""

    seat: Annotated[int, whole(SEATS, say_later("seat")), Asked(say_later("Seat"), how="select")]
    player: Annotated[
        str | None,
        optional_text(PLAYER_NAME, say_later("player's name")),
        Asked(say_later("Player's name")),
    ] = Field(
        None,
        description="The name shown for the seat; with player_id it may be left out (the "
        "player's name is shown).",
    )
    buy_in: Annotated[
        int, whole((0, MAX_CHIPS), say_later("buy-in")), Asked(say_later("Buy-in, chips"))
    ]
    player_id: Annotated[
        int | None, whole((1, MAX_ID), say_later("player's id"), optional=True)
    ] = Field(None, description="The player record the seat belongs to (GET /api/v1/players).")
    supervisor: Approval = None


class NewPlayer(Body):
    """A player to keep across sessions and days."""

    name: Annotated[
        str, text(PLAYER_NAME, say_later("player's name")), Asked(say_later("Name or nickname"))
    ]
    card_number: Annotated[
        str | None,
        optional_text(CARD_NUMBER, say_later("card number")),
        Asked(say_later("Card number")),
    ] = Field(None, description="The card room's player card; one player per card.")
    notes: Annotated[
        str | None, optional_text(PLAYER_NOTES, say_later("notes")), Asked(say_later("Notes"))
    ] = None
    language: Language = Field(
        None,
        description="The language the player's statement and slips are printed in (es, fil: "
        "one the app ships); null or left out: none chosen.",
    )


class ChipMove(Body):
    """More chips bought in, or some cashed out."""

    kind: Annotated[
        ChipMoveKind,
        _service(check_chip_move, core_schema.literal_schema(list(CHIP_MOVES))),
        Asked(
            say_later("Chips"),
            choices={
                "buy_in": say_later("Buy in (from the cage)"),
                "cash_out": say_later("Cash out (to the cage)"),
            },
            default="buy_in",
        ),
    ]
    amount: Annotated[
        int, whole((1, MAX_CHIPS), say_later("number of chips")), Asked(say_later("How many chips"))
    ]
    supervisor: Approval = None
    seating: StayAt = None


class SeatPause(Body):
    """A player sitting out, or back in."""

    paused: Annotated[bool, _service(check_paused)]
    seating: StayAt = None


class TakeCollection(Body):
    """The time collection; a supervisor's name and PIN take it before it is due."""

    supervisor: Approval = None


class Leave(Body):
    """A player leaving; a supervisor's name and PIN approve a cash-out above the threshold
    (the API's DELETE takes no body: a supervisor calls, or one cashes out first)."""

    supervisor: Approval = None
    seating: StayAt = None


class NewAssignment(Body):
    """A dealer sent to a table by a supervisor."""

    dealer: Annotated[
        str, text(USER_NAME, say_later("dealer's name")), Asked(say_later("Dealer"), how="select")
    ]


class CloseDown(Body, title="CloseSession"):
    """The end of a down; a supervisor's name and PIN confirm it on the spot."""

    supervisor: Approval = None


class NewUser(Body):
    """Someone who signs in with a name and a PIN."""

    name: Annotated[str, _service(users.check_name, NAME_SCHEMA), Asked(say_later("Name"))]
    role: Annotated[
        str,
        _service(users.check_role, core_schema.literal_schema(list(ROLES))),
        Asked(say_later("Role"), choices=ROLE_WORDS, default="dealer"),
    ]
    pin: Annotated[str, _service(pins.check_pin_format, PIN_SCHEMA), Asked(how="password")]
    language: Language = Field(
        None,
        description="The language this person reads the app in (es, fil: one the app ships); "
        "null or left out: none chosen.",
    )


def _signing_name(value: Any, _field: str, _given: Mapping[str, Any]) -> str:
    """A name typed to sign in: one no user can have is refused before any PIN is checked."""
    if not isinstance(value, str):
        raise NotSignedIn(users.no_match(), "wrong_pin")  # what any other wrong name hears
    if not value.strip():
        raise Invalid(said.enter_yours(say_later("name")))
    if len(value) > USER_NAME:
        raise Invalid(said.too_long(say_later("name"), USER_NAME))
    if not is_plain(value):
        raise Invalid(said.not_plain(say_later("name")), "unprintable_text")
    return value


def _signing_pin(value: Any, _field: str, _given: Mapping[str, Any]) -> str:
    if not isinstance(value, str):
        raise NotSignedIn(users.no_match(), "wrong_pin")
    return _pin(value, say_later("PIN"))


class SignIn(Body):
    """A name and PIN to sign in with; a name or PIN no user can have is refused as such."""

    name: Annotated[str, Words(_signing_name, inner=NAME_SCHEMA), Asked(say_later("Name"))]
    pin: Annotated[
        str, Words(_signing_pin, inner=PIN_SCHEMA), Asked(say_later("PIN"), how="password")
    ]
