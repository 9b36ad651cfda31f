"""The dealer's screens: the floor, a table with its seats, a hand, its settlement and history.

Views parse the form and check who is asking (`dealer.screens.auth.guard.page`); the
service in `dealer.ledger` records, asking `dealer.rules` what happens; the
screens show what the engine says is allowed (`Hand.allowed`, `voidable`,
`fits`, `needs_supervisor`). Every form is sent at most once (`once`).
"""

from dealer.screens import (  # noqa: F401
    asking,
    audit,
    corrections,
    desk,
    devices,
    dispute,
    downs,
    floor,
    hands,
    languages,
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
    table_settings,
)
from dealer.screens.blueprint import bp

__all__ = ["bp"]
