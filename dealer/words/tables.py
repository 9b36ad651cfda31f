"""A table's settings in words: what a supervisor chooses and the floor reads of them."""

from __future__ import annotations

from dealer.words.catalogue import say

__all__ = [
    "acting_seat_changed",
    "acting_seat_choices",
    "acting_seat_refused",
    "acting_seat_words",
    "buy_in_label",
    "buy_in_pending",
    "california_warning",
    "limit_words",
]


def acting_seat_choices() -> dict[str, str]:
    """Each way the acting seat may go after a drop, as the settings screen offers it."""
    return {
        "stays": say("Stays with the seat that acted"),
        "moves_on": say("Moves on to the next seat in play"),
    }


def acting_seat_words(way: str) -> str:
    """The table's way, as the hand screen tells the dealer: "After a drop, ..."."""
    if way == "moves_on":
        return say("After a drop or a foul, the acting seat moves on to the next seat in play.")
    return say("After a drop or a foul, the acting seat stays with the seat that acted.")


def acting_seat_refused() -> str:
    return say(
        "Choose whether the acting seat stays with the seat that acted or moves on to the "
        "next seat in play after a drop."
    )


def acting_seat_changed(user: str, table: str, way: str) -> str:
    """The audit trail's sentence for a supervisor's change."""
    return say(
        "{user} set where the acting seat goes after a drop at {table}: {way}.",
        user=user,
        table=table,
        way=acting_seat_choices()[way].lower(),
    )


def limit_words(field: str) -> str:
    """A table's money limit (`dealer.floor.limits.LIMIT_FIELDS`) by name: ``largest buy-in``."""
    return {
        "min_buy_in": say("least buy-in"),
        "max_buy_in": say("largest buy-in"),
        "approval_above": say("buy-in or cash-out needing a supervisor above"),
    }[field]


def buy_in_label() -> str:
    """The hand screen's buy-in for the acting seat: its one field."""
    return say("Chips from the cage")


def buy_in_pending() -> str:
    """A buy-in waiting on the tablet, as its pending line says it; ``{seat}`` is left for the
    page to fill with the seat it is for."""
    return say("Buy-in for seat {seat}", seat="{seat}")


def california_warning() -> str:
    """What the floor is told of a rake taken as a share of the pot, before choosing one."""
    return say(
        "A rake taken as a share of the pot is not allowed in California card rooms: "
        "there, use a per-hand or time collection."
    )
