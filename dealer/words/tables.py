"""A table's settings in words: what a supervisor chooses and the floor reads of them."""

from __future__ import annotations

from dealer.words.catalogue import say, say_later, say_n, say_of
from dealer.words.rules import profile_words


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


_TAKEN_EARLY = say_later(
    "{supervisor} let the time collection at {table} be taken {minutes} min before it was due."
)


def collection_taken_early(supervisor: str, table: str, minutes: int) -> str:
    """The audit trail's sentence for a time collection a supervisor let be taken early."""
    return say(_TAKEN_EARLY, supervisor=supervisor, table=table, minutes=minutes)


#: A table's money limits (their fields) and what a dealer calls them (the messages).
LIMIT_NAMES = {
    "min_buy_in": say_later("least buy-in"),
    "max_buy_in": say_later("largest buy-in"),
    "approval_above": say_later("buy-in or cash-out needing a supervisor above"),
}


def limit_words(field: str) -> str:
    """A table's money limit by name: ``largest buy-in``."""
    return say_of(LIMIT_NAMES, field)


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


def limits_changed(user: str, table: str, changes: list[tuple[str, int, int]]) -> str:
    """The audit trail's sentence for a table's money limits changed: each limit (its field),
    from and to."""
    changed = ", ".join(
        say("{limit} {old:,} -> {new:,}", limit=limit_words(field), old=old, new=new)
        for field, old, new in changes
    )
    sentence = say_later("{user} changed the limits of {table}: {changed}.")
    return say(sentence, user=user, table=table, changed=changed)


def table_opened(user: str, table_id: int, name: str, profile: str) -> str:
    """The audit trail's sentence for a table opened under a rule profile."""
    opened = say_later("{user} opened table {id} ({name}, {profile}).")
    return say(opened, user=user, id=table_id, name=name, profile=profile_words(profile))


def down_opened(down_id: int, table: str, implicit: bool) -> str:
    """The audit trail's sentence for a dealer's session opened (by dealing, when none was)."""
    how = say_later("Session {id} opened at {table}.")
    if implicit:
        how = say_later("Session {id} opened at {table} by dealing with none open.")
    return say(how, id=down_id, table=table)


def hands_dealt_label() -> str:
    """The label of a count of hands on every document: the hands dealt, voids among them."""
    return say("hands dealt")


def hands_dealt(dealt: int, void: int) -> str:
    """``2 (1 void)``: every hand dealt, the voided ones among them (one meaning on every
    document: the session report and the shift ledger count the same hands alike)."""
    if not void:
        return str(dealt)
    return say_n("{dealt} ({n} void)", "{dealt} ({n} void)", void, dealt=dealt)


def stay_ended(seat: int, made_for: str | None, now: str | None) -> str:
    """An entry made at ``seat`` for ``made_for``'s stay, refused: that stay has ended (``now``
    sits there instead, or nobody)."""
    if made_for is None:
        if now is None:
            return say(
                "This entry was made for another stay in seat {seat}, which has ended: nothing "
                "was recorded.",
                seat=seat,
            )
        return say(
            "This entry was made for another stay in seat {seat}; {now} sits there now: "
            "nothing was recorded on {now}.",
            seat=seat,
            now=now,
        )
    if now is None:
        return say(
            "This entry was made for {player} in seat {seat}, who has left: nothing was recorded.",
            player=made_for,
            seat=seat,
        )
    return say(
        "This entry was made for {player} in seat {seat}, who has left; {now} sits there now: "
        "nothing was recorded on {now}.",
        player=made_for,
        seat=seat,
        now=now,
    )
