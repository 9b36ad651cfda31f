"""Who chips move between, in words: ``seat 3 (Cy)``, ``the pot``, ``the house``, ``the cage``.

A payment's parties are the engine's (a seat number, ``pot``, ``house``); a ledger entry's
accounts are named by the same words (`dealer.views.payment`).
"""

from __future__ import annotations

from collections.abc import Mapping

from dealer import rules
from dealer.words.catalogue import say


def seat_words(seat: int, player: str | None = None) -> str:
    """``seat 3`` or, with the player's name, ``seat 3 (Cy)``."""
    if player:
        return say("seat {seat} ({player})", seat=seat, player=player)
    return say("seat {seat}", seat=seat)


def party_words(party: rules.Party | str, names: Mapping[int, str] | None = None) -> str:
    """A party to a hand's payments: a seat (with its player when ``names`` has one), the
    pot, the house or the cage."""
    if party in (rules.POT, "pot"):
        return say("the pot")
    if party in (rules.HOUSE, "house"):
        return say("the house")
    if party == "cage":
        return say("the cage")
    seat = int(party)
    return seat_words(seat, (names or {}).get(seat))


def role_words(role: str) -> str:
    """A user's role with its article: ``a dealer``, ``a supervisor``, ``an admin``."""
    return {"dealer": say("a dealer"), "supervisor": say("a supervisor"), "admin": say("an admin")}[
        role
    ]


def roles_needed(role: str) -> str:
    """Who may do what needs ``role``: ``an admin`` (none above), else ``a supervisor or above``."""
    if role == "admin":
        return role_words(role)
    return say("{someone} or above", someone=role_words(role))
