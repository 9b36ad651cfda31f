"""The floor (supervisors): every table at a glance and opening one; the dealer's pick list."""

from __future__ import annotations

from flask import current_app, flash, render_template, url_for
from sqlalchemy.orm import Session
from werkzeug.wrappers import Response

from dealer import rules
from dealer.bounds import COLLECTION_FIELDS
from dealer.clock import this_shift_start
from dealer.disputes.record import open_disputes_by_table
from dealer.extensions import current_session
from dealer.floor import tables as service
from dealer.floor.authority import tables_held
from dealer.floor.figures import dealing_now
from dealer.floor.limits import Limits
from dealer.floor.tables import all_tables
from dealer.live import FLOOR
from dealer.models import utcnow
from dealer.screens.auth.guard import kept_form, page, who
from dealer.screens.blueprint import bp
from dealer.screens.forms import OpenDownForm, OpenTableForm
from dealer.screens.knob_fields import CHOICE_KNOBS, NUMBER_KNOBS
from dealer.screens.live import live_context, live_page
from dealer.screens.sent import record_or_redraw
from dealer.views.floor_lines import table_lines
from dealer.views.shift_hands import shift_hands
from dealer.words.rules import collection_words, knob_value_words
from dealer.words.tables import california_warning

#: What the open-table form shows beside its fields: the knobs and each profile's settings,
#: the collections the California warning is about (as the engine judges them), the limits'
#: defaults, and their words.
OPEN_TABLE_FORM = {
    "number_knobs": NUMBER_KNOBS,
    "choice_knobs": CHOICE_KNOBS,
    "profiles": rules.PROFILES,
    "warned_kinds": frozenset(
        kind
        for kind, fields in COLLECTION_FIELDS.items()
        if rules.make_collection(
            {"kind": kind, **{f: low for f, (low, _) in fields.items()}}
        ).banned_in_california
    ),
    "collection_words": collection_words,
    "knob_value_words": knob_value_words,
    "limits": Limits(),
}


def _floor_page(
    form: OpenTableForm, status: int = 200, error: str | None = None
) -> tuple[str | Response, int]:
    session = current_session()
    now = utcnow()
    since = this_shift_start(current_app.config, now)
    lines = table_lines(session, all_tables(session), since)
    form.stamp(url_for("screens.floor"))
    return live_page(
        "screens/floor.html",
        **live_context(FLOOR),
        lines=lines,
        since=since,
        until=now,
        form=form,
        error=error,
        **OPEN_TABLE_FORM,
        california=california_warning(),
        open_disputes=open_disputes_by_table(session),
        shift=shift_hands(session, since, limit=10),
    ), status


@bp.get("/floor")
@page("supervisor")
def floor() -> tuple[str | Response, int]:
    return _floor_page(kept_form(OpenTableForm, url_for("screens.open_table")))


@bp.post("/floor/tables")
@page("supervisor")
def open_table() -> Response | tuple[str | Response, int]:
    form = OpenTableForm()
    body = form.judged()
    if body is None:
        return _floor_page(form, 422)
    fields = {
        **body.model_dump(),
        "rules": body.rules or {},
        "collection": body.collection or {"kind": "none"},
        "chip_value_cents": 100 if body.chip_value_cents is None else body.chip_value_cents,
    }
    limits = {name: fields[name] for name in ("min_buy_in", "max_buy_in", "approval_above")}

    def work(session: Session) -> str:
        settings = fields["rules"], fields["collection"], fields["chip_value_cents"]
        table = service.create_table(
            session, body.name, body.profile, *settings, who().user, limits
        )
        return url_for("screens.table", table_id=table.id, opened=1)

    response = record_or_redraw(
        form.key.data, fields, work, lambda status, message: _floor_page(form, status, message)
    )
    if isinstance(response, Response) and fields["collection"].get("kind") == "rake_percent":
        flash(california_warning(), "warning")
    return response


@bp.get("/tables")
@page()
def pick() -> str:
    """The dealer's start: every table, to pick the one they deal at.

    A dealer sees the figures (seats, the hand in play) of their own tables only: of the
    others, the name, the game and whose they are, with a button to open their session at
    a free one (`dealer.floor.authority`). A supervisor sees every table's.
    """
    session = current_session()
    user = who().user
    lines = table_lines(session, all_tables(session), None)
    held = (
        {line.table.id for line in lines}
        if user.can("supervisor")
        else tables_held(session, user.id)
    )
    dealing = dealing_now(session)
    return render_template(
        "screens/pick.html",
        lines=lines,
        held=held,
        dealing=dealing,
        open_form=OpenDownForm(formdata=None).stamp(url_for("screens.pick")),
    )
