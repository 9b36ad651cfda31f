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

__all__ = [
    "PlayerList",
    "PlayerStatementView",
    "PlayerView",
    "player_list",
    "player_statement_view",
    "player_view",
]


class PlayerView(View):
    id: int
    name: str
    card_number: str | None = Field(description="Null unless asked by a supervisor or above.")
    notes: str | None = Field(description="Null unless asked by a supervisor or above.")
    created_at: Time


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
    from_: Time | None = Field(alias="from")
    to: Time | None
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
    return PlayerStatementView(
        player=player_view(found.player),
        **{"from": found.start},
        to=found.end,
        seatings=found.seatings,
        buy_ins=found.buy_ins,
        cash_outs=found.cash_outs,
        collections=found.collections,
        net=found.net,
        hands=[
            HandNetView(
                hand=h.hand_id,
                table=h.table,
                number=h.number,
                seat=h.seat,
                at=h.started_at,
                net=h.net,
            )
            for h in found.hands
        ],
        days=[
            DayFiguresView(day=d.day, buy_ins=d.buy_ins, cash_outs=d.cash_outs, net=d.net)
            for d in found.days
        ],
    )


def player_list(found: Iterable[Player | PlayerCard]) -> PlayerList:
    return PlayerList(players=[player_view(p) for p in found])
