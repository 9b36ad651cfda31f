"""Tables, seats, balances and the time collection."""

from __future__ import annotations

from typing import Any

from flask import Response
from sqlalchemy.orm import Session

from dealer.extensions import current_session
from dealer.inputs import ChipMove, NewSeat, NewTable, Nothing, SeatPause
from dealer.ledger import tables as service
from dealer.web.contract import ID, SEAT, declare, given
from dealer.web.refusals import json_response
from dealer.web.signin import principal, recorder, signed_in

from . import answers, bp
from .shapes import balances_shape, payments_shape, seat_shape, table_shape
from .writes import write

TABLE = f"/tables/<{ID}:table_id>"
SEAT_AT = TABLE + f"/seats/<{SEAT}:seat>"


@bp.post("/tables")
@signed_in("supervisor")
@declare({201: (answers.Table, "The table, every knob effective.")}, json=NewTable, write=True)
def create_table() -> Response:
    """Create a table with a rule profile, overrides and a collection.

    Role: supervisor or above.
    """
    body = given(NewTable)
    cents = 100 if body.chip_value_cents is None else body.chip_value_cents

    def work(session: Session) -> tuple[Any, int]:
        table = service.create_table(
            session,
            body.name,
            body.profile,
            body.rules or {},
            body.collection,
            cents,
            principal().user,
        )
        return table_shape(session, table, seats=False), 201

    return write(work)


@bp.get(TABLE)
@signed_in()
@declare({200: (answers.Table, "The table.")}, [404])
def get_table(table_id: int) -> Response:
    """A table, its seats and the hand in play."""
    table = service.get_table(current_session(), table_id)
    return json_response(table_shape(current_session(), table, seats=True), 200)


@bp.post(TABLE + "/seats")
@signed_in()
@declare({201: (answers.Seat, "The seat.")}, [404, 409], json=NewSeat, write=True)
def seat_player(table_id: int) -> Response:
    """Seat a player with a buy-in from the cage."""
    body = given(NewSeat)

    def work(session: Session) -> tuple[Any, int]:
        table = service.get_table(session, table_id)
        seating = service.seat_player(
            session, table, body.seat, body.player, body.buy_in, recorder(), body.player_id
        )
        return seat_shape(seating, body.buy_in), 201

    return write(work)


@bp.post(SEAT_AT + "/chips")
@signed_in()
@declare({201: (answers.Seat, "The seat.")}, [404, 409], json=ChipMove, write=True)
def move_chips(table_id: int, seat: int) -> Response:
    """Buy in more chips, or cash some out."""
    body = given(ChipMove)

    def work(session: Session) -> tuple[Any, int]:
        table = service.get_table(session, table_id)
        seating = service.open_seat(session, table, seat)
        service.move_chips(session, table, seating, body.kind, body.amount, recorder())
        return seat_shape(seating, service.stacks(session, [seating])[seating.id]), 201

    return write(work)


@bp.delete(SEAT_AT)
@signed_in()
@declare({200: (answers.Seat, "The seat as it left.")}, [404, 409, 422], write=True)
def leave_seat(table_id: int, seat: int) -> Response:
    """The player leaves: the stack is cashed out to the cage."""

    def work(session: Session) -> tuple[Any, int]:
        table = service.get_table(session, table_id)
        seating = service.open_seat(session, table, seat)
        stack = service.leave_seat(session, table, seating, recorder())
        return {**seat_shape(seating, stack), "cashed_out": stack, "left": True}, 200

    return write(work)


@bp.post(SEAT_AT + "/pause")
@signed_in()
@declare({200: (answers.Seat, "The seat.")}, [404], json=SeatPause, write=True)
def pause_seat(table_id: int, seat: int) -> Response:
    """Sit a player out (not dealt in, no time collection), or back in."""
    body = given(SeatPause)

    def work(session: Session) -> tuple[Any, int]:
        table = service.get_table(session, table_id)
        seating = service.open_seat(session, table, seat)
        service.pause_seat(session, seating, body.paused)
        return seat_shape(seating, service.stacks(session, [seating])[seating.id]), 200

    return write(work)


@bp.get(TABLE + "/balances")
@signed_in()
@declare({200: (answers.Balances, "The balances.")}, [404])
def balances(table_id: int) -> Response:
    """Each seat's stack and the house's take, as sums of the ledger."""
    table = service.get_table(current_session(), table_id)
    return json_response(balances_shape(current_session(), table), 200)


@bp.post(TABLE + "/collections")
@signed_in()
@declare({201: (answers.Collected, "What was collected.")}, [404, 409], json=Nothing, write=True)
def time_collection(table_id: int) -> Response:
    """Take the time collection from every seated, unpaused player."""

    def work(session: Session) -> tuple[Any, int]:
        table = service.get_table(session, table_id)
        payments, entries = service.take_time_collection(session, table, recorder())
        return {
            "payments": payments_shape(payments, entries),
            "balances": balances_shape(session, table),
        }, 201

    return write(work)
