"""Tables, seats, balances, the time collection, a table's limits and its assigned dealers.

Every view that touches a table asks `dealer.floor.authority` first: a dealer acts only at the
table they hold (their open session, or a supervisor's assignment).
"""

from __future__ import annotations

from typing import Any

from flask import Response
from sqlalchemy.orm import Session

from dealer.api.at_table import read_at_table, write_at_table
from dealer.api.blueprint import bp, door
from dealer.api.writes import write
from dealer.extensions import current_session
from dealer.floor import assignments, counts
from dealer.floor import tables as service
from dealer.floor.acting_seat import change_acting_seat
from dealer.floor.approvals import approving_user
from dealer.floor.authority import readable_tables
from dealer.floor.limits import change_limits
from dealer.floor.time_collection import take_time_collection
from dealer.inputs import (
    ChipMove,
    CountSettings,
    NewAssignment,
    NewSeat,
    NewTable,
    SeatPause,
    StayAsked,
    TableSettings,
    TakeCollection,
)
from dealer.models import Table
from dealer.views.floor import (
    AssignmentsView,
    BalancesView,
    CollectedView,
    FloorView,
    LeftSeatView,
    SeatView,
    TableNow,
    TableView,
    assignments_view,
    balances_view,
    collected_view,
    floor_view,
    left_seat_view,
    seat_view,
    table_now,
    table_view,
)
from dealer.web.contract import ID, SEAT, asked, given
from dealer.web.refusals import json_response
from dealer.web.signin import approving, principal, recorder

TABLE = f"/tables/<{ID}:table_id>"
SEAT_AT = TABLE + f"/seats/<{SEAT}:seat>"


@bp.post("/tables")
@door(
    {201: (TableView, "The table, every knob effective.")},
    json=NewTable,
    write=True,
    role="supervisor",
)
def create_table() -> Response:
    """Create a table with a rule profile, overrides, a collection and money limits.

    A name that reads as another table's (`dealer.bounds.skeleton`: case, a run of spaces,
    full-width or look-alike letters) is refused, 409 ``table_exists``.
    """
    body = given(NewTable)
    cents = 100 if body.chip_value_cents is None else body.chip_value_cents
    limits = body.model_dump(include={"min_buy_in", "max_buy_in", "approval_above"})

    def work(session: Session) -> tuple[Any, int]:
        table = service.create_table(
            session,
            body.name,
            body.profile,
            body.rules or {},
            body.collection,
            cents,
            principal().user,
            limits,
        )
        return table_view(table).answer(), 201

    return write(work)


@bp.get("/tables")
@door({200: (FloorView, "Every table, by id.")}, open_to_all=True)
def list_tables() -> Response:
    """The floor's tables, to start from: each one's name, profile and open session, and the
    seats and hand in play of those the caller may read (a dealer: where they deal)."""
    session = current_session()
    readable = readable_tables(session, principal().user)
    return json_response(floor_view(session, readable).answer(), 200)


@bp.get(TABLE)
# 405: werkzeug answers an id beyond 32 bits so when the address also has a PATCH.
@door({200: (TableNow, "The table.")}, [403, 404, 405])
def read_table(table_id: int) -> Response:
    """A table, its seats and the hand in play (a dealer: their own table)."""
    return read_at_table(table_id, table_now)


@bp.patch(TABLE)
@door(
    {200: (TableView, "The table with its new settings.")},
    [404, 405],
    json=TableSettings,
    write=True,
    role="supervisor",
)
def change_table(table_id: int) -> Response:
    """Change a table's money limits and where its acting seat goes after a drop; those left
    out stay.
    """
    given_settings = given(TableSettings).model_dump()
    acting_seat = given_settings.pop("acting_seat")

    def work(session: Session) -> tuple[Any, int]:
        table = service.get_table(session, table_id)
        change_limits(session, table, given_settings, principal().user)
        change_acting_seat(session, table, acting_seat, principal().user)
        return table_view(table).answer(), 200

    return write(work)


@bp.put(TABLE + "/count")
@door({200: (TableView, "The table.")}, [404], json=CountSettings, write=True, role="supervisor")
def set_count_settings(table_id: int) -> Response:
    """How the table's count at a session's close is held: the variance allowed without a
    supervisor, and whether chips are sold for cash (the drop box counted too).
    """
    body = given(CountSettings)

    def work(session: Session) -> tuple[Any, int]:
        table = service.get_table(session, table_id)
        counts.change_count_settings(
            session, table, body.tolerance, body.sells_for_cash, principal().user
        )
        return table_view(table).answer(), 200

    return write(work)


@bp.post(TABLE + "/seats")
@door({201: (SeatView, "The seat.")}, [403, 404, 409, 429], json=NewSeat, write=True)
def seat_player(table_id: int) -> Response:
    """Seat a player with a buy-in from the cage.

    A buy-in below the table's least or above its largest is a 422 (``below_min_buy_in``,
    ``above_max_buy_in``); above its approval threshold without a supervisor (their
    ``supervisor`` name and PIN, or a supervisor calling) a 403 ``needs_supervisor``.
    """
    body = given(NewSeat)
    approver = approving(body.supervisor)

    def work(session: Session, table: Table) -> tuple[Any, int]:
        user = principal().user
        seating = service.seat_player(
            session,
            table,
            body.seat,
            body.player,
            body.buy_in,
            recorder(),
            user,
            approving_user(session, approver),
            player_id=body.player_id,
        )
        return seat_view(seating, body.buy_in).answer(), 201

    return write_at_table(table_id, "record", work)


@bp.post(SEAT_AT + "/chips")
@door({201: (SeatView, "The seat.")}, [403, 404, 409, 429], json=ChipMove, write=True)
def move_chips(table_id: int, seat: int) -> Response:
    """Buy in more chips, or cash some out, within the table's limits.

    Above the approval threshold without a supervisor: 403 ``needs_supervisor``. With
    ``seating``, only for that stay in the seat: 409 ``seating_ended`` once it has ended.
    """
    body = given(ChipMove)
    approver = approving(body.supervisor)

    def work(session: Session, table: Table) -> tuple[Any, int]:
        user = principal().user
        seating = service.open_seat(session, table, seat, body.seating)
        approved = approving_user(session, approver)
        service.move_chips(
            session, table, seating, body.kind, body.amount, recorder(), user, approved
        )
        return seat_view(seating, service.stacks(session, [seating])[seating.id]).answer(), 201

    return write_at_table(table_id, "record", work)


@bp.delete(SEAT_AT)
@door(
    {200: (LeftSeatView, "The seat as it left.")},
    [403, 404, 409, 422],
    query=StayAsked,
    write=True,
)
def leave_seat(table_id: int, seat: int) -> Response:
    """The player leaves: the stack is cashed out to the cage.

    A stack above the approval threshold needs a supervisor: 403 ``needs_supervisor``
    (cash out with one first, or a supervisor calls). With ``?seating=``, only that stay in
    the seat leaves: 409 ``seating_ended`` once it has ended.
    """
    stay = asked(StayAsked).get("seating")

    def work(session: Session, table: Table) -> tuple[Any, int]:
        user = principal().user
        seating = service.open_seat(session, table, seat, stay)
        stack = service.leave_seat(session, table, seating, recorder(), user)
        return left_seat_view(seating, stack).answer(), 200

    return write_at_table(table_id, "record", work)


@bp.post(SEAT_AT + "/pause")
@door({200: (SeatView, "The seat.")}, [403, 404, 409], json=SeatPause, write=True)
def pause_seat(table_id: int, seat: int) -> Response:
    """Sit a player out (not dealt in, no time collection), or back in.

    With ``seating``, only that stay in the seat: 409 ``seating_ended`` once it has ended.
    """
    body = given(SeatPause)

    def work(session: Session, table: Table) -> tuple[Any, int]:
        seating = service.open_seat(session, table, seat, body.seating)
        service.pause_seat(session, seating, body.paused)
        return seat_view(seating, service.stacks(session, [seating])[seating.id]).answer(), 200

    return write_at_table(table_id, "record", work)


@bp.get(TABLE + "/balances")
@door({200: (BalancesView, "The balances.")}, [403, 404])
def read_balances(table_id: int) -> Response:
    """Each seat's stack and the house's take, as sums of the ledger."""
    return read_at_table(table_id, balances_view)


@bp.post(TABLE + "/collections")
@door(
    {201: (CollectedView, "What was collected.")},
    [403, 404, 409, 429],
    json=TakeCollection,
    write=True,
    name="take_time_collection",
)
def time_collection(table_id: int) -> Response:
    """Take the time collection from every seated, unpaused player.

    Before it is due: 409 ``not_due`` (saying when it will be), unless a supervisor
    overrides (``supervisor`` name and PIN, or a supervisor calling); the override is
    written on each entry.
    """
    approver = approving(given(TakeCollection).supervisor)

    def work(session: Session, table: Table) -> tuple[Any, int]:
        user = principal().user
        approved = approving_user(session, approver)
        payments, entries = take_time_collection(session, table, recorder(), user, approved)
        return collected_view(session, table, payments, entries).answer(), 201

    return write_at_table(table_id, "record", work)


@bp.get(TABLE + "/assignments")
# 405: werkzeug answers an id beyond 32 bits so when the address also has a POST.
@door({200: (AssignmentsView, "Who deals the table.")}, [403, 404, 405])
def read_assignments(table_id: int) -> Response:
    """The dealers assigned to a table, and whose session is open there."""
    return read_at_table(table_id, lambda session, table: assignments_view(session, table.id))


@bp.post(TABLE + "/assignments")
@door(
    {201: (AssignmentsView, "Who deals the table now.")},
    [404, 405, 409],
    json=NewAssignment,
    write=True,
    role="supervisor",
)
def assign_dealer(table_id: int) -> Response:
    """Assign a dealer (by name) to a table: they may record and read there."""
    name = given(NewAssignment).dealer

    def work(session: Session) -> tuple[Any, int]:
        table = service.get_table(session, table_id)
        assignments.assign(session, table, name, principal().user)
        return assignments_view(session, table.id).answer(), 201

    return write(work)


@bp.delete(TABLE + f"/assignments/<{ID}:dealer_id>")
@door({200: (AssignmentsView, "Who deals the table now.")}, [404], write=True, role="supervisor")
def unassign_dealer(table_id: int, dealer_id: int) -> Response:
    """End a dealer's assignment to a table (their open session, if any, stays theirs)."""

    def work(session: Session) -> tuple[Any, int]:
        table = service.get_table(session, table_id)
        assignments.unassign(session, table, dealer_id, principal().user)
        return assignments_view(session, table.id).answer(), 200

    return write(work)
