"""The ledger, read: a table's entries and the full verification."""

from __future__ import annotations

from flask import Response

from dealer.api.at_table import read_at_table
from dealer.api.blueprint import bp, door
from dealer.api.tables import TABLE
from dealer.extensions import current_session
from dealer.inputs import LedgerPage
from dealer.ledger import verify
from dealer.transactions import snapshot
from dealer.views.ledger import EntriesView, VerificationView, ledger_view, verification_view
from dealer.web.contract import asked
from dealer.web.refusals import json_response


@bp.get(TABLE + "/ledger")
@door({200: (EntriesView, "The entries.")}, [403, 404, 422], query=LedgerPage)
def read_ledger(table_id: int) -> Response:
    """Every ledger entry at a table, in seq order (a dealer: their own table's).

    All of them, or ``limit`` of them after seq ``after``.
    """
    page = asked(LedgerPage)
    return read_at_table(
        table_id,
        lambda session, table: ledger_view(session, table, page.get("after", 0), page.get("limit")),
    )


@bp.get("/ledger/verify")
@door({200: (VerificationView, "The report.")}, role="supervisor")
def verify_ledger() -> Response:
    """Run every ledger check: sequence, chain, accounts, reversals, hands, balances."""
    # One snapshot for every check, as the reports and `flask ledger verify` read: a write
    # committed between two of its reads would otherwise be named as tampering.
    with snapshot(current_session()) as session:
        report = verify(session)
    return json_response(verification_view(report).answer(), 200)
