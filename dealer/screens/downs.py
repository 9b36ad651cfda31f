"""Table sessions on the table screen: open a down, close it, confirm the close (issue 5)."""

from __future__ import annotations

from flask import render_template, url_for
from sqlalchemy.orm import Session
from werkzeug.wrappers import Response

from dealer.errors import DealerError
from dealer.extensions import current_session
from dealer.floor import counts
from dealer.floor import downs as service
from dealer.floor import tables as table_service
from dealer.floor.authority import may_read
from dealer.models import User
from dealer.screens.auth.guard import page, who
from dealer.screens.blueprint import SCREEN_ID, TABLE, bp
from dealer.screens.forms import CloseDownForm, CountForm, OpenDownForm
from dealer.screens.screen import posted_at_table
from dealer.screens.seats import _table_page, record_at_table
from dealer.screens.sent import record_or_redraw
from dealer.web.refusals import refusal
from dealer.web.signin import confirming

DOWN = TABLE + f"/sessions/<{SCREEN_ID}:session_id>"


@bp.post(TABLE + "/sessions")
@page(at="open_down")
def open_down(table_id: int) -> Response | tuple[str | Response, int]:
    table = table_service.get_table(current_session(), table_id)
    form = OpenDownForm()
    if not form.validate_on_submit():
        return _table_page(table, 422)
    dealer_id = who().user.id

    def work(session: Session) -> str:
        live = table_service.get_table(session, table_id)
        service.open_down(session, live, dealer_id)
        return url_for("screens.table", table_id=table_id)

    def redraw(status: int, message: str) -> tuple[str | Response, int]:
        if may_read(current_session(), who().user, table_id):
            return _table_page(table, status, message)
        # Sent from the pick list: the table's own screen is not theirs to see.
        return render_template("screens/refused.html", status=status, message=message), status

    return record_or_redraw(form.key.data, {"open_session": table_id}, work, redraw)


@bp.post(DOWN + "/close")
@page(at="record")
def close_down(table_id: int, session_id: int) -> Response | tuple[str | Response, int]:
    table, form, body = posted_at_table(table_id, CloseDownForm())

    def work(session: Session, supervisor: User | None) -> str:
        found = service.down_at(session, table_id, session_id)
        service.close_down(session, found, who().user, supervisor)
        return url_for("screens.table", table_id=table_id, done="closed")

    fields = {"close_session": session_id}
    return record_at_table(table, form, body, fields, work)


@bp.post(DOWN + "/count")
@page(at="record")
def count_down(table_id: int, session_id: int) -> Response | tuple[str | Response, int]:
    """The count at the close: the tray (and the drop box), a second person confirming."""
    table, form, body = posted_at_table(table_id, CountForm())
    if body is None:
        return _table_page(table, 422, form.first_refusal())

    try:
        witness_id = confirming(body.witness)
    except DealerError as exc:
        status, _code, message = refusal(exc)
        return _table_page(table, status, message)

    def work(session: Session, supervisor: User | None) -> str:
        found = service.down_at(session, table_id, session_id)
        witness = session.get_one(User, witness_id)
        counts.record_count(
            session,
            found,
            who().user,
            body.tray_chips,
            body.drop_box_cents,
            witness,
            supervisor,
            body.reason,
        )
        return url_for("screens.table", table_id=table_id, done="counted")

    fields = {"count_session": session_id, "tray": body.tray_chips}
    return record_at_table(table, form, body, fields, work)
