"""Hands: start one, read it, record its events, and ask where a card fits."""

from __future__ import annotations

from typing import Any

from flask import Response, request
from sqlalchemy.orm import Session

from dealer import people, rules
from dealer.errors import Invalid
from dealer.extensions import current_session
from dealer.ledger import hands as service
from dealer.ledger.tables import get_table
from dealer.models import User
from dealer.web.refusals import json_response
from dealer.web.signin import principal, recorder, signed_in

from . import bp
from .body import json_body, only, optional
from .shapes import hand_shape, payments_shape
from .tables import TABLE
from .writes import KEY_HEADER, write

HAND = "/hands/<int(max=2147483647):hand_id>"

#: The fields each event type takes (API.md), besides a supervisor's approval.
EVENT_FIELDS: dict[str, tuple[str, ...]] = {
    "drop": ("seat",),
    "meld": ("seat", "cards"),
    "add": ("seat", "meld", "cards"),
    "borrow": ("seat", "meld", "take", "cards"),
    "split": ("seat", "meld", "cards", "into"),
    "go_out": ("seat",),
    "foul": ("seat",),
    "penalty": ("seat",),
    "void": ("event", "reason"),
    "void_hand": ("reason",),
}
EVENT_FIELDS = {k: ("type", "supervisor", *v) for k, v in EVENT_FIELDS.items()}
EVENT_FIELDS["any"] = tuple(sorted({f for fields in EVENT_FIELDS.values() for f in fields}))


@bp.post(TABLE + "/hands")
@signed_in()
def start_hand(table_id: int) -> Response:
    body = json_body("dropped")
    dropped = optional(body, "dropped", list, "list of seats that drop") or []
    if any(isinstance(s, bool) or not isinstance(s, int) for s in dropped):
        raise Invalid("The seats that drop must be seat numbers (dropped).")
    if len(set(dropped)) != len(dropped):
        raise Invalid("Each seat can drop only once (dropped).")

    def work(session: Session) -> tuple[Any, int]:
        table = get_table(session, table_id)
        replayed = service.start_hand(session, table, dropped, recorder())
        return hand_shape(session, replayed), 201

    return write(work)


@bp.get(HAND)
@signed_in()
def get_hand(hand_id: int) -> Response:
    replayed = service.load_hand(current_session(), hand_id)
    return json_response(hand_shape(current_session(), replayed), 200)


@bp.post(HAND + "/events")
@signed_in()
def record_event(hand_id: int) -> Response:
    body = json_body(*EVENT_FIELDS["any"])
    kind = body.get("type")
    if isinstance(kind, str) and kind in EVENT_FIELDS:
        only(body, EVENT_FIELDS[kind])
    approver = approval(body.get("supervisor"))
    action_body = {k: v for k, v in body.items() if k != "supervisor"}

    def work(session: Session) -> tuple[Any, int]:
        supervisor = session.get(User, approver) if approver is not None else None
        replayed, _event, entries = service.record_event(
            session,
            service.load_hand(session, hand_id),
            action_body,
            recorder(),
            principal().user,
            supervisor,
        )
        shaped = hand_shape(session, replayed)
        return {
            "event": shaped["events"][-1],
            "payments": payments_shape(replayed.engine.events[-1].payments, entries),
            "hand": shaped,
        }, 201

    return write(work)


def approval(given: object) -> int | None:
    """The id of the supervisor whose name and PIN came with the call, if any."""
    if given is None:
        return None
    if not isinstance(given, dict):
        raise Invalid("The supervisor must be given as their name and PIN (supervisor).")
    only(given, ("name", "pin"))
    return people.approve_supervisor(current_session(), given.get("name"), given.get("pin"))


@bp.post(HAND + "/fits")
@signed_in()
def fits(hand_id: int) -> Response:
    body = json_body("card")
    card = body.get("card")
    if not isinstance(card, str):
        raise Invalid("Give the card to check, such as 5S (card).", "invalid_card")
    parsed = rules.parse_card(card)

    def work(session: Session) -> tuple[Any, int]:
        replayed = service.load_hand(session, hand_id)
        found = replayed.engine.fits(parsed)
        shapes = [{"seat": f.seat, "meld": f.meld, "goes_out": f.goes_out} for f in found]
        return {"fits": shapes}, 200

    # Asking records nothing, so it needs the writers' lock only to keep a key's answer.
    if KEY_HEADER in request.headers:
        return write(work)
    return json_response(*work(current_session()))
