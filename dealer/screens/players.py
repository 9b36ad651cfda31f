"""Players on the screens: the list (search, add) and a player's statement across sessions and
days (`dealer.disputes.players`), with its PDF one tap away. For a supervisor or above."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from flask import current_app, render_template, request, url_for
from sqlalchemy.orm import Session
from werkzeug.wrappers import Response

from dealer.clock import floor_clock
from dealer.disputes import players as service
from dealer.errors import DealerError
from dealer.extensions import current_session
from dealer.inputs import read_window
from dealer.screens.auth.guard import page, who
from dealer.screens.blueprint import SCREEN_ID, bp
from dealer.screens.forms import PlayerForm
from dealer.screens.sent import record_or_redraw
from dealer.web.refusals import refusal

PLAYER = f"/players/<{SCREEN_ID}:player_id>"


def _list_page(
    form: PlayerForm | None = None, status: int = 200, error: str | None = None
) -> tuple[str, int]:
    typed = request.args.get("q", "")[:60]
    found = service.find_players(current_session(), typed, who().user)
    form = form or PlayerForm(formdata=None)
    return render_template(
        "screens/players.html",
        players=found,
        typed=typed,
        form=form.stamp(url_for("screens.players")),
        error=error,
    ), status


bp.add_url_rule("/players", "players", page("supervisor")(_list_page))


@bp.post("/players")
@page("supervisor")
def add_player() -> Response | tuple[str, int]:
    form = PlayerForm()
    body = form.judged()
    if body is None:
        return _list_page(form, 422)
    fields = body.model_dump()

    def work(session: Session) -> str:
        player = service.add_player(
            session, fields["name"] or "", fields["card_number"], fields["notes"], who().user
        )
        return url_for("screens.player", player_id=player.id)

    return record_or_redraw(
        form.key.data, fields, work, lambda status, message: _list_page(form, status, message)
    )


@bp.get(PLAYER)
@page("supervisor")
def player(player_id: int) -> tuple[str, int]:
    """A player's statement over [from, to): either end may be left open."""
    tz = floor_clock(current_app.config).zone
    given = request.args.get("from", ""), request.args.get("to", "")
    error = None
    try:
        start, end = read_window(*given, tz)
    except DealerError as exc:
        error, (start, end) = refusal(exc)[2], (None, None)
    statement = service.player_statement(current_session(), player_id, start, end, tz)
    pdf = url_for("reports.player_statement", player_id=player_id, **_window_args(*given))
    # Their payments over the last week on the screens' clock, the search's own form of time.
    now = datetime.now(floor_clock(current_app.config).zone).replace(tzinfo=None)
    week: dict[str, Any] = {
        "from": f"{now - timedelta(days=7):%Y-%m-%dT%H:%M}",
        "to": f"{now + timedelta(minutes=1):%Y-%m-%dT%H:%M}",  # this minute's included
    }
    payments = url_for("screens.find_payment", player_id=player_id, **week)
    return (
        render_template(
            "screens/player.html",
            statement=statement,
            given=given,
            error=error,
            pdf=pdf if error is None else None,
            payments=payments,
        ),
        422 if error else 200,
    )


def _window_args(start: str, end: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if start:
        out["from"] = start
    if end:
        out["to"] = end
    return out
