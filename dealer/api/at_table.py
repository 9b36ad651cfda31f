"""What the routes of one table share: the table the address names, once who asks may read
or change it there (a dealer: their own table), and what was read or written as the answer."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Response
from sqlalchemy.orm import Session

from dealer.api.writes import write
from dealer.extensions import current_session
from dealer.floor.authority import Action, authorise_table
from dealer.models import Table
from dealer.views.base import View
from dealer.web.refusals import json_response
from dealer.web.signin import principal


def read_at_table(table_id: int, view: Callable[[Session, Table], View]) -> Response:
    """``view(session, table)`` of table ``table_id`` as the answer (200), once who asks may
    read there; 404 for no such table, 403 for one that is not theirs to read."""
    session = current_session()
    table = authorise_table(session, principal().user, table_id)
    return json_response(view(session, table).answer(), 200)


def write_at_table(
    table_id: int, action: Action, work: Callable[[Session, Table], tuple[Any, int]]
) -> Response:
    """`write` at table ``table_id``: ``work(session, table)`` once who asks may ``action``
    there, asked inside the write transaction, so a session closed or an assignment ended
    meanwhile is seen before anything records."""

    def at_table(session: Session) -> tuple[Any, int]:
        return work(session, authorise_table(session, principal().user, table_id, action))

    return write(at_table, table=table_id)
