"""The language a person, a tablet or a player chose (or none: the next choice speaks, see
`dealer.web.language`): only a language shipped may be chosen."""

from __future__ import annotations

from typing import Literal, cast

from sqlalchemy.orm import Session

from dealer.errors import Invalid
from dealer.models import Device, Hand, Player, Seating, User
from dealer.models.base import by_id
from dealer.words.catalogue import languages, say

#: Whose language is chosen, by the row that keeps it.
WHOSE: dict[str, type[User] | type[Device] | type[Player]] = {
    "user": User,
    "device": Device,
    "player": Player,
}


def choose_language(
    session: Session, whose: Literal["user", "device", "player"], ref: int, code: object
) -> User | Device | Player:
    """``code`` (``es``; empty or None: none) becomes the language of row ``ref`` of
    ``whose``."""
    chosen = check_language(code)
    row = by_id(session, WHOSE[whose], ref, say("No such person, tablet or player."), "not_found")
    row.language = chosen
    return row


def check_language(code: object) -> str | None:
    """``code`` if it is a language shipped (``es``); None for none chosen (empty or None)."""
    if code in (None, ""):
        return None
    if code not in languages():
        raise Invalid(
            say("Choose one of the languages shown: {codes}.", codes=", ".join(languages())),
            "unknown_language",
        )
    return str(code)


def language_of(
    session: Session, whose: Literal["user", "device", "player"], ref: int | None
) -> str | None:
    """The language row ``ref`` of ``whose`` chose, if it chose one (None for no such row)."""
    row = session.get(WHOSE[whose], ref) if ref else None
    return cast(User | Device | Player, row).language if row is not None else None


def seat_language(session: Session, hand_id: int, seat: int) -> str | None:
    """The language of the player who sat in ``seat`` of hand ``hand_id``, if they chose one:
    their statement and slips for that hand are printed in it."""
    hand = session.get(Hand, hand_id)
    ref = hand.seats.get(str(seat)) if hand is not None else None
    seating = session.get(Seating, ref) if ref is not None else None
    return language_of(session, "player", seating.player_id) if seating is not None else None
