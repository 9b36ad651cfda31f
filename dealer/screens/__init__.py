"""The dealer's screens: the floor, a table with its seats, a hand, its settlement and history.

Views parse the form and check who is asking (`dealer.screens.auth.guard.page`); the
service in `dealer.ledger` records, asking `dealer.rules` what happens; the
screens show what the engine says is allowed (`Hand.allowed`, `voidable`,
`fits`, `needs_supervisor`). Every form is sent at most once (`once`).
"""

from flask import Blueprint

from dealer.bounds import MAX_ID

bp = Blueprint("screens", __name__)
#: A screen's id in its address: up to a signed 32-bit integer, and 0 too, whose page says in
#: words that no such row is there (the API's `dealer.web.contract.ID` starts at 1).
SCREEN_ID = f"int(max={MAX_ID})"

from dealer.screens import (  # noqa: E402,F401
    asking,
    audit,
    corrections,
    desk,
    devices,
    dispute,
    floor,
    hands,
    live,
    paper,
    people,
    players,
    replay,
    rulings,
    screen,
    seats,
    settle,
    shift_hands,
    sign_ins,
    table_sessions,
    table_settings,
)

__all__ = ["SCREEN_ID", "bp"]
