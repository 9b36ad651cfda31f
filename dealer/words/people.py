"""People on screen in words: what an admin is told when adding someone, giving a new PIN or
deactivating someone, and the PIN field's own words."""

from __future__ import annotations

from dealer.words.catalogue import say, say_later


def role_name(role: str) -> str:
    """A user's role (`dealer.models.ROLES`) as a name: ``dealer``, ``supervisor``, ``admin``."""
    return {"dealer": say("dealer"), "supervisor": say("supervisor"), "admin": say("admin")}[role]


def pin_field(low: int, high: int) -> str:
    """The label of a PIN being chosen: ``A PIN of 4 to 8 digits``."""
    return say("A PIN of {low} to {high} digits", low=low, high=high)


def form_expired() -> str:
    """A form whose token has aged (or never came): nothing was changed."""
    return say("The form expired: send it again.")


def person_added(name: str, role: str) -> str:
    return say(
        "{name} is added as {role}: they sign in with their name and PIN.", name=name, role=role
    )


def new_pin_given(name: str) -> str:
    return say("{name} has a new PIN: their sign-ins have ended.", name=name)


def deactivated(name: str) -> str:
    return say("{name} is deactivated: they can no longer sign in.", name=name)


def player_added(user: str, player_id: int, name: str, card: str | None) -> str:
    """The audit trail's sentence for a player added, with their card number if given."""
    added = say_later("{user} added player {id}: {name}.")
    if card:
        added = say_later("{user} added player {id}: {name} (card {card}).")
    return say(added, user=user, id=player_id, name=name, card=card)


def typed_by_another(typist: str | None, user: str) -> str:
    """An entry typed by ``typist`` (None: someone this app does not know), sent while ``user``
    is signed in, refused: it is not recorded as ``user``'s without their word."""
    if typist is None:
        return say(
            "Someone else typed this entry: it is not recorded as {user}'s. Nothing was recorded.",
            user=user,
        )
    return say(
        "{typist} typed this entry before their sign-in ended; {user} is signed in now. It is "
        "not recorded as {user}'s unless {user} records it as theirs (with both names), or "
        "{typist} signs in again to send it.",
        typist=typist,
        user=user,
    )


def typed_and_confirmed(typist: str, user: str) -> str:
    """The trail's sentence: ``user`` recorded as theirs an entry ``typist`` typed."""
    return say(
        "{user} recorded as theirs an entry {typist} typed on this tablet before their "
        "sign-in ended.",
        user=user,
        typist=typist,
    )
