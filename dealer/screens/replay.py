"""The hand replay on the screens: the table as it stood after one event, stepped through
with first, back, next and last (and the keyboard's arrows, static/dealer.js)."""

from __future__ import annotations

from flask import render_template

from dealer.extensions import current_session
from dealer.inputs import ReplayAt
from dealer.screens.auth.guard import page
from dealer.screens.blueprint import HAND, bp
from dealer.screens.screen import filled_args
from dealer.views.replay import replay_view
from dealer.web.contract import read_query


@bp.get(HAND + "/replay")
@page(at="read")
def replay(hand_id: int) -> str:
    """Hand ``hand_id`` after event ``at`` (the last when not given); a step that is not in
    the hand is refused in words (`dealer.views.replay`)."""
    step = read_query(ReplayAt, filled_args())
    return render_template("screens/replay.html", r=replay_view(current_session(), hand_id, **step))
