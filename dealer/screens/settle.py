"""Settlement: going out, shown in full (a dry run through the engine) before it is recorded."""

from __future__ import annotations

from flask import render_template, request, url_for
from sqlalchemy.orm import Session
from werkzeug.wrappers import Response

from dealer import rules
from dealer.bounds import SEATS
from dealer.errors import Invalid
from dealer.extensions import current_session
from dealer.floor.in_play import get_hand
from dealer.hands.record import record_event
from dealer.screens.auth.guard import page, who
from dealer.screens.blueprint import HAND, bp
from dealer.screens.forms import SettleForm
from dealer.screens.sent import record_or_redraw
from dealer.views.settlement import Settlement, going_out_preview
from dealer.web.refusals import refusal
from dealer.web.signin import recorder
from dealer.words.catalogue import say


def _preview(hand_id: int, seat: int, form: SettleForm, status: int = 200) -> tuple[str, int]:
    board, found = going_out_preview(current_session(), hand_id, seat)
    result: Settlement | None = None
    error: str | None = None
    if isinstance(found, rules.RulesError):
        status, _code, error = refusal(found)
    else:
        result = found
    form.seat.data = seat
    form.stamp(url_for("screens.settle", hand_id=hand_id, seat=seat))
    return render_template(
        "screens/settle.html", board=board, seat=seat, result=result, error=error, form=form
    ), status


def _seat_arg() -> int:
    raw = request.args.get("seat", "")
    if not (raw.isascii() and raw.isdigit()) or not SEATS[0] <= int(raw) <= SEATS[1]:
        raise Invalid(say("Choose the seat that goes out."), "invalid_seat")
    return int(raw)


@bp.get(HAND + "/settle")
@page(at="read")
def settle(hand_id: int) -> tuple[str, int]:
    return _preview(hand_id, _seat_arg(), SettleForm())


@bp.post(HAND + "/settle")
@page(at="record")
def confirm_settle(hand_id: int) -> Response | tuple[str, int]:
    form = SettleForm()
    if not form.validate_on_submit():
        raise Invalid(say("Choose the seat that goes out."), "invalid_seat")
    seat = form.seat.data
    body = {"type": "go_out", "seat": seat}

    def work(session: Session) -> str:
        hand = get_hand(session, hand_id)
        _replayed, event, _entries = record_event(session, hand, body, recorder(), who().user, None)
        return url_for("screens.hand", hand_id=hand_id, done=event.id)

    return record_or_redraw(
        form.key.data,
        body,
        work,
        lambda status, _: _preview(hand_id, seat, form, status),
        hand=hand_id,
    )
