"""Voiding an event or the whole hand, with a supervisor's PIN on the spot when the rules ask.

Whether a void is possible is the engine's (``Hand.voidable``, ``Hand.check``);
whether it needs the floor is the engine's too (``Hand.needs_supervisor``). The
event records both people: the dealer who entered it and the supervisor who
approved it.
"""

from __future__ import annotations

from typing import Any

from flask import render_template, request, url_for
from sqlalchemy.orm import Session
from werkzeug.wrappers import Response

from dealer import rules
from dealer.errors import DealerError
from dealer.extensions import current_session
from dealer.floor.approvals import approving_user
from dealer.floor.in_play import get_hand
from dealer.hands.record import record_event
from dealer.screens.auth.guard import kept_form, page, who
from dealer.screens.blueprint import HAND, SCREEN_ID, bp
from dealer.screens.forms import VoidForm
from dealer.screens.sent import record_once
from dealer.views.void import void_asked
from dealer.web.refusals import refusal
from dealer.web.signin import approving, recorder
from dealer.words.catalogue import say

EVENT = HAND + f"/events/<{SCREEN_ID}:event_id>"


def _void_page(
    hand_id: int,
    event_id: int | None = None,
    form: VoidForm | None = None,
    status: int = 200,
    error: str | None = None,
) -> tuple[str, int]:
    asked = void_asked(current_session(), hand_id, event_id)
    address = (
        url_for("screens.void_event", hand_id=hand_id, event_id=event_id)
        if event_id is not None
        else url_for("screens.void_hand", hand_id=hand_id)
    )
    if form is None:
        # "Undo" on the banner: the reason is ready, one more tap voids it.
        undo = event_id is not None and request.args.get("undo")
        reason = say("Undone: entered by mistake.") if undo else None
        form = kept_form(VoidForm, address, reason=reason)
    form.supervisor_pin.data = ""
    return render_template(
        "screens/void.html",
        board=asked.hand,
        event=asked.event,
        why_not=asked.why_not,
        needs_pin=asked.needs_supervisor and not who().user.can("supervisor"),
        form=form.stamp(address),
        address=address,
        error=error,
    ), status


def _record_void(hand_id: int, event_id: int | None, form: VoidForm) -> Response | tuple[str, int]:
    form.event = event_id
    judged = form.judged()
    if judged is None:
        return _void_page(hand_id, event_id, form, 422)
    body: dict[str, Any] = judged.action()
    try:
        approved = approving(judged.root.supervisor)

        def work(session: Session) -> str:
            hand = get_hand(session, hand_id)
            _replayed, event, _entries = record_event(
                session,
                hand,
                body,
                recorder(),
                who().user,
                approving_user(session, approved),
            )
            return url_for("screens.hand", hand_id=hand_id, done=event.id)

        fields = {**body, "supervisor": judged.root.supervisor and judged.root.supervisor.name}
        return record_once(form.key.data, fields, work, hand=hand_id)
    except (rules.RulesError, DealerError) as exc:
        status, _code, message = refusal(exc)
        form.renew_if_reused(exc)
        return _void_page(hand_id, event_id, form, status, message)


bp.add_url_rule(EVENT + "/void", "void_event", page(at="read")(_void_page))
bp.add_url_rule(HAND + "/void", "void_hand", page(at="read")(_void_page))


@bp.post(EVENT + "/void")
@page(at="record")
def confirm_void_event(hand_id: int, event_id: int) -> Response | tuple[str, int]:
    return _record_void(hand_id, event_id, VoidForm())


@bp.post(HAND + "/void")
@page(at="record")
def confirm_void_hand(hand_id: int) -> Response | tuple[str, int]:
    return _record_void(hand_id, None, VoidForm())
