"""A supervisor's settings of a table: its money limits, where its acting seat goes after a
drop, and the dealers assigned to it."""

from __future__ import annotations

from collections.abc import Callable

from flask import render_template, url_for
from sqlalchemy.orm import Session
from werkzeug.wrappers import Response

from dealer.extensions import current_session
from dealer.floor import assignments
from dealer.floor import tables as service
from dealer.floor.acting_seat import change_acting_seat
from dealer.floor.limits import change_limits
from dealer.models import Table
from dealer.screens.auth.guard import kept_form, page, who
from dealer.screens.blueprint import TABLE, bp
from dealer.screens.forms import AssignForm, TableSettingsForm, UnassignForm
from dealer.screens.screen import posted_at_table
from dealer.screens.seats import _table_page, dealer_choices
from dealer.screens.sent import record_or_redraw
from dealer.words.catalogue import say


def _settings_page(
    table: Table, form: TableSettingsForm | None = None, status: int = 200, error: str | None = None
) -> tuple[str, int]:
    if form is None:
        form = kept_form(
            TableSettingsForm,
            url_for("screens.change_settings", table_id=table.id),
            min_buy_in=table.min_buy_in,
            max_buy_in=table.max_buy_in,
            approval_above=table.approval_above,
            acting_seat=table.acting_seat,
        )
    form.stamp(url_for("screens.settings", table_id=table.id))
    return render_template("screens/settings.html", table=table, form=form, error=error), status


@bp.get(TABLE + "/settings")
@page("supervisor")
def settings(table_id: int) -> tuple[str, int]:
    return _settings_page(service.get_table(current_session(), table_id))


@bp.post(TABLE + "/settings")
@page("supervisor")
def change_settings(table_id: int) -> Response | tuple[str | Response, int]:
    table, form, body = posted_at_table(table_id, TableSettingsForm())
    if body is None:
        return _settings_page(table, form, 422)
    settings = body.model_dump()
    limits = {name: value for name, value in settings.items() if name != "acting_seat"}

    def work(session: Session) -> str:
        at = service.get_table(session, table_id)
        change_limits(session, at, limits, who().user)
        change_acting_seat(session, at, settings["acting_seat"], who().user)
        return url_for("screens.table", table_id=table_id)

    return record_or_redraw(
        form.key.data,
        {"settings": table_id, **settings},
        work,
        lambda status, message: _settings_page(table, form, status, message),
    )


@bp.post(TABLE + "/assignments")
@page("supervisor")
def assign(table_id: int) -> Response | tuple[str | Response, int]:
    table = service.get_table(current_session(), table_id)
    form = AssignForm()
    form.dealer.choices = dealer_choices(current_session())
    body = form.judged()
    if body is None:
        return _table_page(table, 422, form.first_refusal())
    name = body.dealer
    return _change_assignments(
        table,
        form.key.data,
        {"assign": table_id, "dealer": name},
        lambda session, at: assignments.assign(session, at, name, who().user),
    )


@bp.post(TABLE + "/assignments/end")
@page("supervisor")
def unassign(table_id: int) -> Response | tuple[str | Response, int]:
    table = service.get_table(current_session(), table_id)
    form = UnassignForm()
    if not form.validate_on_submit():
        return _table_page(table, 422, say("Choose the dealer to take off the table."))
    dealer_id = form.dealer_id.data
    return _change_assignments(
        table,
        form.key.data,
        {"unassign": table_id, "dealer": dealer_id},
        lambda session, at: assignments.unassign(session, at, dealer_id, who().user),
    )


def _change_assignments(
    table: Table,
    key: str | None,
    fields: dict[str, object],
    change: Callable[[Session, Table], object],
) -> Response | tuple[str | Response, int]:
    """Record ``change`` to who deals ``table`` once (the form's ``key``), back to the table."""

    def work(session: Session) -> str:
        change(session, service.get_table(session, table.id))
        return url_for("screens.table", table_id=table.id)

    return record_or_redraw(
        key, fields, work, lambda status, message: _table_page(table, status, message)
    )
