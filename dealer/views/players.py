"""Players as a client reads them: a player on record, and a player's statement across
sessions and days (`dealer.disputes.players`). The API dumps these; its document is made
from them."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date

from pydantic import Field

from dealer.disputes.players import PlayerCard, PlayerStatement
from dealer.models import Player
from dealer.views.base import Time, View


class PlayerView(View):
    id: int
    name: str
    card_number: str | None = Field(description="Null unless asked by a supervisor or above.")
    notes: str | None = Field(description="Null unless asked by a supervisor or above.")
    created_at: Time
    language: str | None = Field(
        None,
        description="The language the player's statement and slips are printed in (es, fil); "
        "null: none chosen, the language of who prints them.",
    )


class PlayerList(View):
    players: list[PlayerView]


class HandNetView(View):
    hand: int
    table: str
    number: int
    seat: int
    at: Time
    net: int


class DayFiguresView(View):
    day: date = Field(description="On the floor's clock (DEALER_TIMEZONE).")
    buy_ins: int
    cash_outs: int
    net: int = Field(description="Won (+) or lost (-) at play that day.")


class PlayerStatementView(View):
    """A player's chips over a window, across sessions and days."""

    player: PlayerView
    start: Time | None = Field(alias="from")
    end: Time | None = Field(alias="to")
    seatings: int = Field(description="Stays in a seat that belong to the player.")
    buy_ins: int
    cash_outs: int
    collections: int = Field(description="Time collection taken from the seat (negative).")
    net: int = Field(description="Won or lost at play: the hands' nets plus collections.")
    hands: list[HandNetView]
    days: list[DayFiguresView]


def player_view(player: Player | PlayerCard) -> PlayerView:
    """A player as the API answers them: a `PlayerCard` holds what the one asking may read."""
    return PlayerView.model_validate(player, from_attributes=True)


def player_statement_view(found: PlayerStatement) -> PlayerStatementView:
    return PlayerStatementView.model_validate(found, from_attributes=True)


def player_list(found: Iterable[Player | PlayerCard]) -> PlayerList:
    return PlayerList(players=[player_view(p) for p in found])
