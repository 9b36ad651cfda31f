"""The API's answers as the OpenAPI document shows them: what `shapes` and the views return.

Declared for the document only: an answer is never validated at run time (schemathesis
checks the answers against the document in the tests). A field with a default may be
missing from an answer; every other is always there.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Annotated, Literal, TypeAlias

from pydantic import BaseModel, ConfigDict, Field

from dealer.bounds import MAX_CHIPS, SEATS
from dealer.inputs import Collection, Knobs, KnobsGiven, Ruled
from dealer.rules import ACTION_TYPES

__all__ = [
    "Assignments",
    "Balances",
    "Collected",
    "Entries",
    "Event",
    "Fits",
    "Hand",
    "OpenAPIDocument",
    "Recorded",
    "Seat",
    "Session",
    "Sessions",
    "SignedIn",
    "Table",
    "User",
    "Users",
    "Verification",
]

SeatNumber = Annotated[int, Field(ge=SEATS[0], le=SEATS[1])]
#: A seat as an object's key: "1" to "8".
SeatKey = Annotated[str, Field(pattern=f"^[{SEATS[0]}-{SEATS[1]}]$")]
Party = Annotated[str, Field(description='A seat ("3"), "pot" or "house".')]
Cards = list[Annotated[str, Field(examples=["5S"])]]
Role = Literal["dealer", "supervisor", "admin"]
if TYPE_CHECKING:
    EventType: TypeAlias = str
else:  # the deal, then every action the engine takes
    EventType = Literal[("deal", *ACTION_TYPES)]


class Payment(BaseModel):
    from_: Party = Field(alias="from")
    to: Party
    chips: Annotated[int, Field(ge=1, le=MAX_CHIPS)]
    reason: str
    rule: str


class Posted(Payment):
    """A payment as the ledger recorded it."""

    entry: int | None = Field(description="The ledger entry's seq.")


class Seat(BaseModel):
    seat: SeatNumber
    player: str
    stack: int = Field(description="Below zero when the player is short.")
    short: bool
    paused: bool
    seating: int = Field(description="This stay in the seat (its ledger account).")
    player_id: int | None = Field(
        None, description="The player record the seat belongs to; null for a name only."
    )
    cashed_out: int | None = None
    left: bool | None = None


class DueTime(BaseModel):
    """At a time table: when the time collection was last taken and when it is next due."""

    last: datetime | None
    due: datetime | None = Field(description="null: due now.")


class Limits(BaseModel):
    """A table's money limits, in chips."""

    min_buy_in: int = Field(description="The least one buy-in may be.")
    max_buy_in: int = Field(description="The most one buy-in may be.")
    approval_above: int = Field(
        description="A buy-in or cash-out above this needs a supervisor's name and PIN."
    )


class Assignment(BaseModel):
    dealer: str
    dealer_id: int


class Assignments(BaseModel):
    """The dealers a supervisor assigned to a table, and who holds its open session."""

    table: int
    assigned: list[Assignment]
    session_dealer: str | None = Field(description="Whose session is open at the table.")


class Table(BaseModel):
    id: int
    name: str
    profile: Literal["classic", "cardroom"]
    rules: Knobs
    overrides: KnobsGiven
    collection: Collection
    chip_value_cents: int
    warnings: list[str]
    limits: Limits | None = None
    seats: dict[SeatKey, Seat] | None = None
    hand: int | None = Field(None, description="The hand in play, if any.")
    time_collection: DueTime | None = None


class SeatBalance(BaseModel):
    player: str
    stack: int
    short: bool


class Balances(BaseModel):
    seats: dict[SeatKey, SeatBalance]
    house: int
    pot: int = Field(description="The pot of the hand in play (0 when none).")


class Collected(BaseModel):
    payments: list[Posted]
    balances: Balances


class Condition(BaseModel):
    name: str
    value: int


class Meld(BaseModel):
    id: int
    cards: Cards
    kind: Literal["set", "run"]
    condition: Condition | None
    paid: int


class Event(BaseModel):
    """An event of a hand, with what it paid and whether it stands."""

    id: int
    seq: int
    type: EventType
    seat: SeatNumber | None
    cards: Cards | None = None
    meld: int | None = None
    take: Cards | None = None
    into: list[Cards] | None = None
    event: int | None = Field(None, description="A void: the id of the event it voids.")
    event_seq: int | None = None
    reason: str | None = None
    text: str
    melds: list[int]
    voided: bool
    voided_by: int | None
    payments: list[Payment]
    user: str
    supervisor: str | None
    device: str
    #: The device in words that say it is the client's own claim ("claimed: ...").
    device_claim: str
    at: datetime


class HandSeat(BaseModel):
    player: str
    status: Literal["in", "dropped", "fouled"]
    cards_down: int
    melds: list[Meld]
    allowed: list[str] = Field(description="The events this seat may record now.")


class Net(BaseModel):
    """Each account's change over the hand; it sums to zero."""

    model_config = ConfigDict(extra="allow")
    __pydantic_extra__: dict[str, int]
    pot: int
    house: int


class Hand(BaseModel):
    id: int
    table: int
    number: int
    status: Literal["playing", "settled", "void"]
    rules: Ruled
    collection: Collection
    winner: SeatNumber | None
    seats: dict[SeatKey, HandSeat]
    net: Net
    events: list[Event]
    started_at: datetime
    ended_at: datetime | None


class Recorded(BaseModel):
    """An event recorded: the event, its payments (with their ledger seqs) and the hand."""

    event: Event
    payments: list[Posted]
    hand: Hand


class Place(BaseModel):
    """A meld a card could be added to, and whether it takes the seat out."""

    seat: SeatNumber
    meld: int
    goes_out: bool


class Fits(BaseModel):
    fits: list[Place]


class Entry(BaseModel):
    seq: int
    at: datetime
    from_: str = Field(alias="from", description='A seat ("3"), "pot", "house" or "cage".')
    to: str
    chips: Annotated[int, Field(ge=1)]
    reason: str
    rule: str
    hand: int | None
    event: int | None
    reverses: int | None
    from_account: str
    to_account: str
    device: str
    #: The device in words that say it is the client's own claim ("claimed: ...").
    device_claim: str
    hash: str


class Entries(BaseModel):
    entries: list[Entry]


class LedgerProblem(BaseModel):
    check: str
    message: str
    seq: int | None = None
    hand: int | None = None


class Verification(BaseModel):
    ok: bool
    entries: int
    head: str
    problems: list[LedgerProblem]


class Who(BaseModel):
    name: str
    role: Role


class SignedIn(BaseModel):
    user: Who
    token: str


class User(BaseModel):
    id: int
    name: str
    role: Role
    active: bool


class Users(BaseModel):
    users: list[User]


class Session(BaseModel):
    """A table session: a dealer's down."""

    id: int
    table: int
    dealer: str
    status: Literal["open", "awaiting_confirmation", "closed"] = Field(
        description="awaiting_confirmation: the down has ended; the floor has not yet "
        "confirmed the close."
    )
    implicit: bool = Field(description="Opened by dealing a hand while none was open.")
    opened_at: datetime
    closed_at: datetime | None = Field(description="When the down ended.")
    close_requested_by: str | None
    close_confirmed_by: str | None = Field(description="The supervisor who confirmed.")
    close_confirmed_at: datetime | None
    hands: list[int] = Field(description="The hands dealt in it.")


class Sessions(BaseModel):
    sessions: list[Session]


class OpenAPIDocument(BaseModel):
    """This document."""

    model_config = ConfigDict(extra="allow")
