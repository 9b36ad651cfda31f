"""The hand replay on the screens: the table as it stood after one event, stepped through
with first, back, next and last (and the keyboard's arrows, static/dealer.js)."""

from __future__ import annotations

from flask import render_template, request

from dealer.extensions import current_session
from dealer.inputs import ReplayAt, refuse_unknown
from dealer.screens.auth.guard import page
from dealer.screens.blueprint import SCREEN_ID, bp
from dealer.screens.screen import at_table
from dealer.views.replay import replay_view
from dealer.web.contract import read_query

HAND = f"/hands/<{SCREEN_ID}:hand_id>"


@bp.get(HAND + "/replay")
@page()
@at_table("read")
def replay(hand_id: int) -> str:
    """Hand ``hand_id`` after event ``at`` (the last when not given); a step that is not in
    the hand is refused in words (`dealer.views.replay`)."""
    asked = {k: v for k, v in request.args.items() if v.strip()}
    refuse_unknown(ReplayAt, asked)
    step = read_query(ReplayAt, asked)
    return render_template("screens/replay.html", r=replay_view(current_session(), hand_id, **step))
