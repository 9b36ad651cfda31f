"""The ledger, read: a table's entries and the full verification."""

from __future__ import annotations

from flask import Response

from dealer.extensions import current_session
from dealer.ledger import verify
from dealer.ledger.tables import get_table

from . import bp
from .auth import signed_in
from .idempotency import json_response
from .shapes import ledger_shape
from .tables import TABLE


@bp.get(TABLE + "/ledger")
@signed_in()
def table_ledger(table_id: int) -> Response:
    """Every entry at a table, in seq order (a dealer may read their own table's)."""
    table = get_table(current_session(), table_id)
    return json_response(ledger_shape(current_session(), table), 200)


@bp.get("/ledger/verify")
@signed_in("supervisor")
def verify_ledger() -> Response:
    return json_response(verify(current_session()).as_dict(), 200)
