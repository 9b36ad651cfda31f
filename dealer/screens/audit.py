"""The audit trail on a supervisor's screen: who did what, when, from which device, filtered."""

from __future__ import annotations

from datetime import datetime, time, timedelta

from flask import current_app, render_template, request
from wtforms import DateField, SelectChoice, SelectField
from wtforms.validators import Optional

from dealer.clock import floor_clock
from dealer.extensions import current_session
from dealer.floor.tables import all_tables
from dealer.people.audit import AUDIT_KINDS, AUDIT_PAGE, audit_trail
from dealer.people.users import list_users
from dealer.screens.auth.guard import page
from dealer.screens.blueprint import bp
from dealer.screens.said_form import SaidForm
from dealer.words.catalogue import say, say_later


class AuditFilter(SaidForm):
    """The audit screen's filters: a GET form, so it carries no CSRF token."""

    class Meta:
        csrf = False

    kind = SelectField(
        say_later("What"),
        choices=[SelectChoice("", say_later("Everything"))]
        + [SelectChoice(kind, words) for kind, words in AUDIT_KINDS.items()],
        default="",
    )
    user = SelectField(
        say_later("Who"), choices=[SelectChoice("", say_later("Anyone"))], default=""
    )
    table = SelectField(
        say_later("Table"), choices=[SelectChoice("", say_later("Every table"))], default=""
    )
    since = DateField(say_later("From (day)"), validators=[Optional()])
    until = DateField(say_later("To (day, included)"), validators=[Optional()])


def _day_start(day: datetime | None, days: int = 0) -> datetime | None:
    """Midnight on the floor's clock at the start of ``day`` (+ ``days``), or None."""
    if day is None:
        return None
    tz = floor_clock(current_app.config).zone
    return datetime.combine(day, time(0), tz) + timedelta(days=days)


@bp.get("/floor/audit")
@page("supervisor")
def audit() -> tuple[str, int]:
    session = current_session()
    form = AuditFilter(request.args)
    users = [SelectChoice(str(u.id), u.name) for u in list_users(session)]
    tables = [SelectChoice(str(t.id), t.name) for t in all_tables(session)]
    # The form said its own choices as it was made; these lists are the floor's.
    form.user.choices = [SelectChoice("", say("Anyone")), *users]
    form.table.choices = [SelectChoice("", say("Every table")), *tables]
    if request.args and not form.validate():
        return render_template("screens/audit.html", form=form, lines=None, page=AUDIT_PAGE), 422
    since, until = form.since.data, form.until.data
    if since is not None and until is not None and until < since:
        form.until.errors = [say("The last day comes before the first.")]
        return render_template("screens/audit.html", form=form, lines=None, page=AUDIT_PAGE), 422
    lines = audit_trail(
        session,
        kinds=[form.kind.data] if form.kind.data else (),
        user_id=int(form.user.data) if form.user.data else None,
        table_id=int(form.table.data) if form.table.data else None,
        since=_day_start(since),
        until=_day_start(until, 1),
    )
    return render_template("screens/audit.html", form=form, lines=lines, page=AUDIT_PAGE), 200
