"""Printed reports and exports: hand slips, table sessions, the shift ledger, CSV files.

The documents are laid out from plain data (`dealer.views.documents`: the model, and what
fills it from the ledger, every chip figure a sum of entries), never from the database
directly, so that they can be tested without one and so that each figure printed comes from
one place. `dealer.ledger.prints` counts each print for the REPRINT stamp, and ``routes``
serves them with the API's sign-in.
"""

from dealer.reports.down import down_pdf
from dealer.reports.exports import (
    LEDGER_HEADER,
    PLAYERS_HEADER,
    iter_ledger_csv,
    iter_players_csv,
    ledger_csv,
    players_csv,
)
from dealer.reports.hand_slip import hand_slip_pdf
from dealer.reports.shift import shift_pdf

__all__ = [
    "LEDGER_HEADER",
    "PLAYERS_HEADER",
    "down_pdf",
    "hand_slip_pdf",
    "iter_ledger_csv",
    "iter_players_csv",
    "ledger_csv",
    "players_csv",
    "shift_pdf",
]
