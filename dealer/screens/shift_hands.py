"""Every hand of the shift and every open dispute, one tap from the floor: the shift's hands
(all tables, or one table's), paged, the newest first; the disputes still open."""

from __future__ import annotations

from typing import Any

from flask import current_app, render_template, request, url_for

from dealer.clock import this_shift_start
from dealer.extensions import current_session
from dealer.floor.tables import get_table
from dealer.inputs import ShiftHandsPage
from dealer.models import Table
from dealer.screens.auth.guard import page
from dealer.screens.blueprint import TABLE, bp
from dealer.screens.screen import filled_args
from dealer.views.shift_hands import ShiftHands, open_disputes_list, shift_hands
from dealer.web.contract import read_query


def _table_asked(asked: ShiftHandsPage) -> Table | None:
    """The table the page asks about (``table``), if any: one that never was is a 404 in
    words."""
    table = asked.get("table")
    return get_table(current_session(), table) if table is not None else None


def _page(found: ShiftHands, endpoint: str, where: dict[str, Any]) -> str:
    """The page of hands, with the addresses of the newest page and of the next older one."""
    return render_template(
        "screens/shift_hands.html",
        found=found,
        every_table=found.table is None,
        newest=url_for(endpoint, **where) if request.args.get("before") else None,
        older=url_for(endpoint, before=found.next, **where) if found.next else None,
    )


@bp.get("/floor/hands")
@page("supervisor")
def shift_hands_page() -> str:
    """The shift's hands at every table (or ``table``), the newest first, 25 a page."""
    asked = read_query(ShiftHandsPage, filled_args())
    session = current_session()
    table = asked.get("table")
    _table_asked(asked)
    found = shift_hands(session, this_shift_start(current_app.config), table, asked.get("before"))
    return _page(found, "screens.shift_hands_page", {"table": table} if table else {})


@bp.get(TABLE + "/hands")
@page(at="read")
def table_hands(table_id: int) -> str:
    """One table's hands of the shift, the newest first (a dealer: their own table)."""
    asked = read_query(ShiftHandsPage, filled_args())
    found = shift_hands(
        current_session(), this_shift_start(current_app.config), table_id, asked.get("before")
    )
    return _page(found, "screens.table_hands", {"table_id": table_id})


@bp.get("/floor/disputes")
@page("supervisor")
def open_disputes() -> str:
    """Every dispute still open (at ``table``, when given), each a link to its hand."""
    asked = read_query(ShiftHandsPage, filled_args())
    found_table = _table_asked(asked)
    name = found_table.name if found_table is not None else None
    found = open_disputes_list(current_session(), asked.get("table"))
    return render_template("screens/open_disputes.html", found=found, table_name=name)
