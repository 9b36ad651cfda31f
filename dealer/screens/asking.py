"""The floor's search in a player's words: one line ("player Rosa, table 4, around 21:40, 8
chips"), and the seats of this shift's hands that fit, each one tap from its statement."""

from __future__ import annotations

from flask import current_app, render_template

from dealer import clock
from dealer.clock import floor_clock, this_shift_start
from dealer.disputes.asking import read_asked
from dealer.disputes.search import SEARCH_ROLE, find_seats
from dealer.errors import DealerError
from dealer.extensions import current_session
from dealer.inputs import SeatSearch
from dealer.screens.auth.guard import page
from dealer.screens.blueprint import bp
from dealer.screens.screen import filled_args
from dealer.views.disputes import seats_found
from dealer.web.contract import read_query
from dealer.web.refusals import refusal


@bp.get("/search")
@page(SEARCH_ROLE)
def search() -> tuple[str, int]:
    """The search box, and what it found; a part it cannot read is said above the box, which
    keeps what was typed."""
    asked = filled_args()
    found, error, status = None, None, 200
    if asked:
        try:
            now = clock.now()
            query = read_asked(
                read_query(SeatSearch, asked),
                floor_clock(current_app.config),
                now,
                this_shift_start(current_app.config, now),
            )
            found = seats_found(find_seats(current_session(), query))
        except DealerError as refused:
            status, _code, error = refusal(refused)
    return render_template(
        "screens/search.html", said=asked.get("q", ""), found=found, error=error
    ), status
