"""The dispute desk's answers, as the OpenAPI document shows them (see `answers`)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from dealer.bounds import SEATS

__all__ = ["Payments", "Statement"]

SeatNumber = Annotated[int, Field(ge=SEATS[0], le=SEATS[1])]
Party = Annotated[str, Field(description='A seat ("3"), "pot" or "house".')]


class RuleNamed(BaseModel):
    code: str = Field(description="The engine's code for the rule.")
    name: str = Field(description='In words: "conditions paid again".')
    section: str = Field(description='Where PAN_RULES.md says it: "5.4".')
    link: str = Field(description="The rule's text in the app.")


class StatementLine(BaseModel):
    event: int = Field(description="The event's id.")
    event_seq: int
    payment: int = Field(description="The payment's number within its event (from 1).")
    entry: int = Field(description="The ledger entry's seq.")
    at: datetime
    other: Party
    rule: RuleNamed
    chips: int = Field(description="Signed as the seat sees it: positive in, negative out.")
    detail: str = Field(description='What it was for: "for 5S 5S 5S".')
    reason: str
    event_text: str
    voided_by: int | None = Field(description="The seq of the void standing against the event.")
    running: int = Field(description="The seat's net after this line.")
    dispute: str = Field(description="The payment's dispute view (a screen).")


class RuleGroup(BaseModel):
    rule: RuleNamed
    direction: Literal["paid", "received"]
    chips: int
    detail: str
    words: str = Field(description='"6 conditions paid again (4 for 5S 5S 5S, 2 for KS KS KS)".')
    lines: list[int] = Field(description="The entries (seqs) of this group.")


class PartyGroup(BaseModel):
    party: Party
    label: str
    paid: int
    received: int
    net: int
    running: int = Field(description="The seat's net after this party and those before it.")
    groups: list[RuleGroup]


class Statement(BaseModel):
    hand: int
    number: int
    table: int
    table_name: str
    status: Literal["playing", "settled", "void"]
    seat: SeatNumber
    player: str
    seating: int
    account: str
    paid: int
    received: int
    net: int
    ledger_net: int = Field(description="The ledger's own sum over the seat's account.")
    balanced: bool = Field(description="net == ledger_net.")
    sentences: list[str]
    parties: list[PartyGroup]
    lines: list[StatementLine]


class Side(BaseModel):
    party: str = Field(description='A seat ("3"), "pot" or "house".')
    words: str


class FoundPayment(BaseModel):
    entry: int
    at: datetime
    table: int
    table_name: str
    hand: int
    hand_number: int
    event: int
    payment: int
    from_: Side = Field(alias="from")
    to: Side
    chips: int
    rule: RuleNamed
    reason: str
    reverses: int | None
    dispute: str = Field(description="The payment's dispute view (a screen).")
    statements: dict[str, str] = Field(
        description="Each seat's statement for the hand (API), by seat."
    )


class Payments(BaseModel):
    payments: list[FoundPayment]
    more: bool = Field(description="More payments match than this page holds.")
