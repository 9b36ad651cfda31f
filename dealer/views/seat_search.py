"""The seats a search in words found (`dealer.disputes.seat_search`), as the API answers them
and the floor's screen lists them: each names its hand, table, time and seat, and why it fits."""

from __future__ import annotations

from dataclasses import asdict
from typing import Literal

from pydantic import Field

from dealer.disputes.found_seats import FoundSeat, SeatsFound
from dealer.views.base import Time, View
from dealer.words.catalogue import say, say_n

__all__ = ["FoundSeatView", "SeatsFoundView", "seats_found"]


class MatchedPaymentView(View):
    entry: int = Field(description="The ledger entry's seq.")
    event: int = Field(description="The event's id.")
    event_seq: int
    number: int = Field(description="The payment's number within its event.")
    chips: int
    paid: bool = Field(description="true: the seat paid it; false: the seat received it.")


class FoundSeatView(View):
    """A seat of a hand that fits the search."""

    hand: int
    hand_number: int
    table: int
    table_name: str
    at: Time = Field(description="When the hand was dealt.")
    seat: int
    player: str
    paid: int = Field(description="The chips the seat paid in the hand, in all.")
    received: int = Field(description="The chips the seat received in the hand, in all.")
    matched: Literal["paid", "received", "payment", "event", ""] = Field(
        description="How the amount shows: paid or received in all, one payment, or the "
        "seat's total for one event (16 chips from four payers of 4); empty when no amount "
        "was asked about."
    )
    why: str = Field(description="Why it fits, in words.")
    payments: list[MatchedPaymentView] = Field(
        description="The seat's payments the amount is made of (all of them: no amount)."
    )


class SeatsFoundView(View):
    seats: list[FoundSeatView] = Field(description="The newest hand first.")
    more: bool = Field(description="More seats may fit than these: say more.")
    said: str = Field(description="What was looked for, in words.")
    stopped: Time | None = Field(
        description="An amount alone (no player, seat, table or time) read the hands dealt "
        "since then only (a busy shift's newest): a seat, a player, a table or a time looks "
        "further back. null: it read the whole shift."
    )


def _why(s: FoundSeat) -> str:
    who = say("Seat {seat} ({player})", seat=s.seat, player=s.player)
    if s.matched == "paid" and s.paid != s.amount:
        return say_n(
            "{who} is down {n} chip for the hand",
            "{who} is down {n} chips for the hand",
            -s.net,
            who=who,
        )
    if s.matched == "received" and s.received != s.amount:
        return say_n(
            "{who} is up {n} chip for the hand",
            "{who} is up {n} chips for the hand",
            s.net,
            who=who,
        )
    if s.matched == "paid":
        return say_n("{who} paid {n} chip in all", "{who} paid {n} chips in all", s.paid, who=who)
    if s.matched == "received":
        return say_n(
            "{who} received {n} chip in all", "{who} received {n} chips in all", s.received, who=who
        )
    if s.matched == "payment":
        chips = s.payments[0].chips
        return say_n(
            "{who}: one payment of {n} chip", "{who}: one payment of {n} chips", chips, who=who
        )
    if s.matched == "event":
        return _event_why(s, who)
    return say(
        "{who} paid {paid} and received {received}", who=who, paid=s.paid, received=s.received
    )


def _event_why(s: FoundSeat, who: str) -> str:
    """The seat's total for one event, and the payments it is made of."""
    first = s.payments[0]
    group = [p for p in s.payments if (p.event, p.paid) == (first.event, first.paid)]
    total = sum(p.chips for p in group)
    if first.paid:
        return say_n(
            "{who} paid {total} chips in one event, in {n} payment",
            "{who} paid {total} chips in one event, in {n} payments",
            len(group),
            who=who,
            total=total,
        )
    return say_n(
        "{who} received {total} chips in one event, from {n} payment",
        "{who} received {total} chips in one event, from {n} payments",
        len(group),
        who=who,
        total=total,
    )


def _said(found: SeatsFound) -> str:
    q = found.query
    parts = []
    if q.player is not None:
        parts.append(say("player {name}", name=q.player))
    if q.seat is not None:
        parts.append(say("seat {seat}", seat=q.seat))
    if found.tables:
        parts.append(", ".join(found.tables))
    if q.near is not None:
        parts.append(say("around the time asked (a quarter hour either way)"))
    if q.amount is not None:
        parts.append(say_n("{n} chip", "{n} chips", q.amount))
    parts.append(say("this shift"))
    return ", ".join(parts)


def seats_found(found: SeatsFound) -> SeatsFoundView:
    # A found seat and its payments hold the view's fields by the view's names (and a few the
    # search kept for itself, which the view leaves out); only why it fits is said here.
    return SeatsFoundView(
        seats=[FoundSeatView(**asdict(s), why=_why(s)) for s in found.seats],
        more=found.more,
        said=_said(found),
        stopped=found.stopped,
    )
