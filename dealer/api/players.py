"""Players known across sessions and days (`dealer.disputes.players`): add, find, read, and a
player's statement over a window.

Anyone signed in may find and add players (seating a player needs both); a player's card
number and notes, and a statement, which shows what a player won or lost, are for a
supervisor or above (`dealer.disputes.players.card_for`).
"""

from __future__ import annotations

from typing import Any

from flask import Response, current_app, request
from sqlalchemy.orm import Session

from dealer.api.blueprint import bp, door
from dealer.api.writes import write
from dealer.clock import floor_clock
from dealer.disputes import players as service
from dealer.extensions import current_session
from dealer.inputs import NewPlayer, PlayerSearch, Window, read_window
from dealer.people.languages import choose_language
from dealer.views.players import (
    PlayerList,
    PlayerStatementView,
    PlayerView,
    player_list,
    player_statement_view,
    player_view,
)
from dealer.web.contract import ID, asked, given
from dealer.web.refusals import json_response
from dealer.web.signin import principal

PLAYER = f"/players/<{ID}:player_id>"


@bp.get("/players")
@door({200: (PlayerList, "The players found.")}, [422], query=PlayerSearch, open_to_all=True)
def find_players() -> Response:
    """Players whose name holds ``q`` (any case) or whose card number is ``q``: at most 20."""
    typed = asked(PlayerSearch).get("q")
    found = service.find_players(current_session(), typed, principal().user)
    return json_response(player_list(found).answer(), 200)


@bp.post("/players")
@door({201: (PlayerView, "The player.")}, json=NewPlayer, write=True, open_to_all=True)
def add_player() -> Response:
    """Keep a new player: a name or nickname, a card number (one player per card), notes."""
    body = given(NewPlayer)

    def work(session: Session) -> tuple[Any, int]:
        user = principal().user
        player = service.add_player(session, body.name, body.card_number, body.notes, user)
        choose_language(session, "player", player.id, body.language)
        return player_view(service.card_for(player, user)).answer(), 201

    return write(work)


@bp.get(PLAYER)
@door({200: (PlayerView, "The player.")}, [404], open_to_all=True)
def read_player(player_id: int) -> Response:
    """One player (the card number and notes for a supervisor or above)."""
    found = service.read_player(current_session(), player_id, principal().user)
    return json_response(player_view(found).answer(), 200)


@bp.get(PLAYER + "/statement")
@door({200: (PlayerStatementView, "The statement.")}, [404, 422], query=Window, role="supervisor")
def read_player_statement(player_id: int) -> Response:
    """A player's buy-ins, cash-outs and net by hand and by day over [from, to) (either end
    may be left open; a time without a zone is on the floor's clock).
    """
    tz = floor_clock(current_app.config).zone
    start, end = read_window(request.args.get("from"), request.args.get("to"), tz)
    found = service.player_statement(current_session(), player_id, start, end, tz)
    return json_response(player_statement_view(found).answer(), 200)
