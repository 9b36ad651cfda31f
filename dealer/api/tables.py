"""Tables, seats, balances and the time collection."""

from __future__ import annotations

from typing import Any

from flask import Response
from sqlalchemy.orm import Session

from dealer.bounds import CHIP_VALUE_CENTS, MAX_CHIPS, PLAYER_NAME, SEATS, TABLE_NAME
from dealer.errors import Invalid
from dealer.extensions import current_session
from dealer.ledger import tables as service
from dealer.web.refusals import json_response
from dealer.web.signin import principal, recorder, signed_in

from . import bp
from .body import json_body, optional, text, whole_number
from .shapes import balances_shape, payments_shape, seat_shape, table_shape
from .writes import write

TABLE = "/tables/<int(max=2147483647):table_id>"
SEAT = TABLE + "/seats/<int(min=1, max=8):seat>"


@bp.post("/tables")
@signed_in("supervisor")
def create_table() -> Response:
    body = json_body("name", "profile", "rules", "chip_value_cents", "collection")
    name = text(body, "name", TABLE_NAME, "table's name")
    profile = body.get("profile")
    if not isinstance(profile, str):
        raise Invalid("Choose the table's rule profile: classic or cardroom (profile).")
    overrides = optional(body, "rules", dict, "rule overrides") or {}
    collection = optional(body, "collection", dict, "collection")
    cents = 100
    if body.get("chip_value_cents") is not None:
        cents = whole_number(body, "chip_value_cents", *CHIP_VALUE_CENTS, "chip value in cents")

    def work(session: Session) -> tuple[Any, int]:
        table = service.create_table(
            session, name, profile, overrides, collection, cents, principal().user
        )
        return table_shape(session, table, seats=False), 201

    return write(work)


@bp.get(TABLE)
@signed_in()
def get_table(table_id: int) -> Response:
    table = service.get_table(current_session(), table_id)
    return json_response(table_shape(current_session(), table, seats=True), 200)


@bp.post(TABLE + "/seats")
@signed_in()
def seat_player(table_id: int) -> Response:
    body = json_body("seat", "player", "buy_in")
    seat = whole_number(body, "seat", *SEATS, "seat")
    player = text(body, "player", PLAYER_NAME, "player's name")
    buy_in = whole_number(body, "buy_in", 0, MAX_CHIPS, "buy-in")

    def work(session: Session) -> tuple[Any, int]:
        table = service.get_table(session, table_id)
        seating = service.seat_player(session, table, seat, player, buy_in, recorder())
        return seat_shape(seating, buy_in), 201

    return write(work)


@bp.post(SEAT + "/chips")
@signed_in()
def move_chips(table_id: int, seat: int) -> Response:
    body = json_body("kind", "amount")
    kind = body.get("kind")
    if kind not in ("buy_in", "cash_out"):
        raise Invalid("Say whether chips are bought in or cashed out (kind: buy_in or cash_out).")
    amount = whole_number(body, "amount", 1, MAX_CHIPS, "number of chips")

    def work(session: Session) -> tuple[Any, int]:
        table = service.get_table(session, table_id)
        seating = service.open_seat(session, table, seat)
        service.move_chips(session, table, seating, kind, amount, recorder())
        return seat_shape(seating, service.stacks(session, [seating])[seating.id]), 201

    return write(work)


@bp.delete(SEAT)
@signed_in()
def leave_seat(table_id: int, seat: int) -> Response:
    def work(session: Session) -> tuple[Any, int]:
        table = service.get_table(session, table_id)
        seating = service.open_seat(session, table, seat)
        stack = service.leave_seat(session, table, seating, recorder())
        return {**seat_shape(seating, stack), "cashed_out": stack, "left": True}, 200

    return write(work)


@bp.post(SEAT + "/pause")
@signed_in()
def pause_seat(table_id: int, seat: int) -> Response:
    """Sit a player out (not dealt in, no time collection) or back in."""
    body = json_body("paused")
    paused = body.get("paused")

    def work(session: Session) -> tuple[Any, int]:
        table = service.get_table(session, table_id)
        seating = service.open_seat(session, table, seat)
        service.pause_seat(session, seating, paused)
        return seat_shape(seating, service.stacks(session, [seating])[seating.id]), 200

    return write(work)


@bp.get(TABLE + "/balances")
@signed_in()
def balances(table_id: int) -> Response:
    table = service.get_table(current_session(), table_id)
    return json_response(balances_shape(current_session(), table), 200)


@bp.post(TABLE + "/collections")
@signed_in()
def time_collection(table_id: int) -> Response:
    json_body()  # no fields: refuses a body with any

    def work(session: Session) -> tuple[Any, int]:
        table = service.get_table(session, table_id)
        payments, entries = service.take_time_collection(session, table, recorder())
        return {
            "payments": payments_shape(payments, entries),
            "balances": balances_shape(session, table),
        }, 201

    return write(work)
