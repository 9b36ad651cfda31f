"""Players known across sessions and days (`dealer.disputes.players`): add, find, read, and a
player's statement over a window.

Anyone signed in may find and add players (seating a player needs both); a player's card
number and notes, and a statement, which shows what a player won or lost, are for a
supervisor or above (`dealer.disputes.players.card_for`).
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from flask import Response, request
from pydantic import BaseModel, Field
from sqlalchemy.orm import Session

from dealer.api import bp
from dealer.api.shapes import when
from dealer.api.writes import write
from dealer.clock import floor_clock
from dealer.disputes import players as service
from dealer.extensions import current_session
from dealer.inputs import NewPlayer, PlayerSearch, Window, read_window
from dealer.web.contract import ID, asked, declare, given
from dealer.web.refusals import json_response
from dealer.web.signin import principal, signed_in

PLAYER = f"/players/<{ID}:player_id>"


class PlayerAnswer(BaseModel):
    id: int
    name: str
    card_number: str | None = Field(description="Null unless asked by a supervisor or above.")
    notes: str | None = Field(description="Null unless asked by a supervisor or above.")
    created_at: datetime


class PlayerList(BaseModel):
    players: list[PlayerAnswer]


class HandNet(BaseModel):
    hand: int
    table: str
    number: int
    seat: int
    at: datetime
    net: int


class DayFigures(BaseModel):
    day: date = Field(description="On the floor's clock (DEALER_TIMEZONE).")
    buy_ins: int
    cash_outs: int
    net: int = Field(description="Won (+) or lost (-) at play that day.")


class StatementAnswer(BaseModel):
    player: PlayerAnswer
    from_: datetime | None = Field(alias="from")
    to: datetime | None
    seatings: int = Field(description="Stays in a seat that belong to the player.")
    buy_ins: int
    cash_outs: int
    collections: int = Field(description="Time collection taken from the seat (negative).")
    net: int = Field(description="Won or lost at play: the hands' nets plus collections.")
    hands: list[HandNet]
    days: list[DayFigures]


def player_shape(player: service.PlayerCard) -> dict[str, Any]:
    return {
        "id": player.id,
        "name": player.name,
        "card_number": player.card_number,
        "notes": player.notes,
        "created_at": when(player.created_at),
    }


def statement_shape(found: service.PlayerStatement) -> dict[str, Any]:
    return {
        "player": player_shape(service.card_for(found.player, principal().user)),
        "from": when(found.start),
        "to": when(found.end),
        "seatings": found.seatings,
        "buy_ins": found.buy_ins,
        "cash_outs": found.cash_outs,
        "collections": found.collections,
        "net": found.net,
        "hands": [
            {
                "hand": h.hand_id,
                "table": h.table,
                "number": h.number,
                "seat": h.seat,
                "at": when(h.started_at),
                "net": h.net,
            }
            for h in found.hands
        ],
        "days": [
            {"day": d.day.isoformat(), "buy_ins": d.buy_ins, "cash_outs": d.cash_outs, "net": d.net}
            for d in found.days
        ],
    }


@bp.get("/players")
@signed_in()
@declare({200: (PlayerList, "The players found.")}, [422], query=PlayerSearch)
def find_players() -> Response:
    """Players whose name holds ``q`` (any case) or whose card number is ``q``: at most 20."""
    typed = asked(PlayerSearch).get("q")
    found = service.find_players(current_session(), typed, principal().user)
    return json_response({"players": [player_shape(p) for p in found]}, 200)


@bp.post("/players")
@signed_in()
@declare({201: (PlayerAnswer, "The player.")}, json=NewPlayer, write=True)
def add_player() -> Response:
    """Keep a new player: a name or nickname, a card number (one player per card), notes."""
    body = given(NewPlayer)

    def work(session: Session) -> tuple[Any, int]:
        user = principal().user
        player = service.add_player(session, body.name, body.card_number, body.notes, user)
        return player_shape(service.card_for(player, user)), 201

    return write(work)


@bp.get(PLAYER)
@signed_in()
@declare({200: (PlayerAnswer, "The player.")}, [404])
def get_player(player_id: int) -> Response:
    """One player (the card number and notes for a supervisor or above)."""
    found = service.read_player(current_session(), player_id, principal().user)
    return json_response(player_shape(found), 200)


@bp.get(PLAYER + "/statement")
@signed_in("supervisor")
@declare({200: (StatementAnswer, "The statement.")}, [404, 422], query=Window)
def player_statement(player_id: int) -> Response:
    """A player's buy-ins, cash-outs and net by hand and by day over [from, to) (either end
    may be left open; a time without a zone is on the floor's clock).

    Role: supervisor or above.
    """
    tz = floor_clock().zone
    start, end = read_window(request.args.get("from"), request.args.get("to"), tz)
    found = service.player_statement(current_session(), player_id, start, end, tz)
    return json_response(statement_shape(found), 200)
