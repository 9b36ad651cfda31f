"""The ledger, read: a table's entries and the full verification."""

from __future__ import annotations

from flask import Response, request

from dealer.errors import Invalid
from dealer.extensions import current_session
from dealer.ledger import verify
from dealer.ledger.tables import get_table
from dealer.web.refusals import json_response
from dealer.web.signin import signed_in

from . import bp
from .shapes import ledger_shape
from .tables import TABLE


@bp.get(TABLE + "/ledger")
@signed_in()
def table_ledger(table_id: int) -> Response:
    """The entries at a table in seq order: all, or ``limit`` of them after seq ``after``."""
    after = _query_number("after", 0, 2**31 - 1)
    limit = _query_number("limit", 1, 10_000)
    table = get_table(current_session(), table_id)
    return json_response(ledger_shape(current_session(), table, after or 0, limit), 200)


def _query_number(name: str, low: int, high: int) -> int | None:
    given = request.args.get(name)
    if given is None:
        return None
    if not given.isascii() or not given.isdigit() or not low <= int(given) <= high:
        raise Invalid(f"{name} must be a whole number from {low} to {high}.", "invalid_query")
    return int(given)


@bp.get("/ledger/verify")
@signed_in("supervisor")
def verify_ledger() -> Response:
    return json_response(verify(current_session()).as_dict(), 200)
