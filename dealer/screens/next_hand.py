"""A hand that is over deals the next one: its stay-or-drop round asked on the hand screen.

The form is the deal screen's own (`DealForm`, sent to `screens.start_hand`), so the deal is
judged, authorised and recorded exactly as from the table; it is offered only while no hand
is in play at the table and to someone who may deal there.
"""

from __future__ import annotations

from typing import Any

from flask import url_for

from dealer.errors import DealerError
from dealer.extensions import current_session
from dealer.floor import tables as service
from dealer.floor.authority import authorise
from dealer.floor.in_play import hands_in_play
from dealer.screens.auth.guard import who
from dealer.screens.forms import DealForm
from dealer.views.chairs import chairs
from dealer.views.hand import HandView


def next_deal(board: HandView) -> dict[str, Any]:
    """``deal_form`` and ``deal_seated`` for the hand screen (both None when there is none)."""
    none: dict[str, Any] = {"deal_form": None, "deal_seated": []}
    if board.status == "playing":
        return none
    session = current_session()
    if hands_in_play(session, [board.table]):
        return none
    try:
        authorise(session, who().user, board.table, "deal")
    except DealerError:
        return none
    table = service.get_table(session, board.table)
    seated = [c for c in chairs(session, table, None) if c.seating and not c.seating.paused]
    if len(seated) < 2:
        return none
    form = DealForm(formdata=None)
    form.stamp(url_for("screens.hand", hand_id=board.id))
    return {"deal_form": form, "deal_seated": seated}
