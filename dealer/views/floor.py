"""The floor as a client reads it: its tables, a table with its seats, a seat, the balances,
the dealers assigned, and a table's hands.

Built here from the services' reads (`dealer.floor`, `dealer.ledger`); the API dumps them
(API.md's table, seat and balances) and its document is made from these same models. Seats
are an object keyed by seat number ("1" to "8"), each value a typed seat.
"""

from __future__ import annotations

from collections.abc import Collection as Ids
from collections.abc import Sequence
from typing import Literal

from pydantic import Field
from sqlalchemy import select
from sqlalchemy.orm import Session

from dealer import rules
from dealer.floor import assignments
from dealer.floor.downs import open_down_at
from dealer.floor.in_play import hands_in_play
from dealer.floor.limits import limits_of
from dealer.floor.tables import collection_warnings, open_seatings, stacks
from dealer.floor.time_collection import time_due
from dealer.inputs import Collection, Knobs, KnobsGiven
from dealer.ledger import balance, house_account, pot_account
from dealer.ledger.replay import table_collection, table_rules
from dealer.models import Down, Hand, LedgerEntry, Seating, Table
from dealer.views.base import SEAT_KEY, SeatNumber, Time, View, given
from dealer.views.events import Posted, payment_view, posted


class SeatView(View):
    """A seat: who sits there and their stack."""

    seat: SeatNumber
    player: str
    stack: int = Field(description="Below zero when the player is short.")
    short: bool
    paused: bool
    seating: int = Field(description="This stay in the seat (its ledger account).")
    player_id: int | None = Field(
        description="The player record the seat belongs to; null for a name only."
    )


class LeftSeatView(SeatView):
    """A seat as it left: its stack cashed out to the cage."""

    cashed_out: int = Field(description="The chips cashed out as the player left.")
    left: Literal[True]


class DueTimeView(View):
    """At a time table: when the time collection was last taken and when it is next due."""

    last: Time | None
    due: Time | None = Field(description="null: due now.")


class LimitsView(View):
    """A table's money limits, in chips."""

    min_buy_in: int = Field(description="The least one buy-in may be.")
    max_buy_in: int = Field(description="The most one buy-in may be.")
    approval_above: int = Field(
        description="A buy-in or cash-out above this needs a supervisor's name and PIN."
    )


class CountSettingsView(View):
    """How a table's count at a session's close is held."""

    tolerance: int = Field(description="The variance (chips) allowed without a supervisor.")
    sells_for_cash: bool = Field(description="Chips are sold for cash: the drop box is counted.")


class TableView(View):
    """A table: its rule profile, every knob effective, its collection and limits."""

    id: int
    name: str
    profile: Literal["classic", "cardroom"]
    rules: Knobs
    overrides: KnobsGiven
    collection: Collection
    chip_value_cents: int
    warnings: list[str]
    limits: LimitsView
    count: CountSettingsView = Field(
        default_factory=lambda: CountSettingsView(tolerance=0, sells_for_cash=False),
        description="How the count at a session's close is held (PUT /tables/{id}/count).",
    )
    acting_seat: Literal["stays", "moves_on"] = Field(
        "stays",
        description="Where the hand screen's acting seat goes after a drop or a foul: stays "
        "with the seat that acted, or moves_on to the next seat in play (PATCH /tables/{id}).",
    )


class TableNow(TableView):
    """A table now: with its seats, the hand in play and the time collection."""

    seats: dict[str, SeatView] = Field(json_schema_extra=SEAT_KEY)
    hand: int | None = Field(description="The hand in play, if any.")
    time_collection: DueTimeView | None = given(
        description="At a time table: when it was last taken and is next due."
    )


class SeatBalanceView(View):
    player: str
    stack: int
    short: bool


class BalancesView(View):
    seats: dict[str, SeatBalanceView] = Field(json_schema_extra=SEAT_KEY)
    house: int
    pot: int = Field(description="The pot of the hand in play (0 when none).")


class CollectedView(View):
    """The time collection taken: its payments (with their ledger seqs) and the balances."""

    payments: list[Posted]
    balances: BalancesView


class AssignmentView(View):
    dealer: str
    dealer_id: int


class AssignmentsView(View):
    """The dealers a supervisor assigned to a table, and who holds its open session."""

    table: int
    assigned: list[AssignmentView]
    session_dealer: str | None = Field(description="Whose session is open at the table.")


class OpenDownBrief(View, title="OpenSessionBrief"):
    """The session (a dealer's down) open at a table."""

    id: int
    dealer: str


class FloorTable(View):
    """A table on the floor: enough to start from (its seats only where the caller reads)."""

    id: int
    name: str
    profile: Literal["classic", "cardroom"]
    session: OpenDownBrief | None = Field(description="The session open there, if any.")
    mine: bool = Field(
        description="The caller may read and act here (a supervisor: every table; a dealer: "
        "where their session is open or a supervisor assigned them)."
    )
    seats: dict[str, SeatView] | None = Field(
        json_schema_extra=SEAT_KEY, description="The seats; null where the caller may not read."
    )
    hand: int | None = Field(description="The hand in play; null if none or not the caller's.")


class FloorView(View):
    tables: list[FloorTable]


class HandBrief(View):
    """A hand in a table's list: read the whole hand at /hands/{id}."""

    id: int
    number: int
    status: Literal["playing", "settled", "void"]
    winner: SeatNumber | None
    session: int | None = Field(
        validation_alias="down_id", description="The table session it was dealt in."
    )
    started_at: Time
    ended_at: Time | None


class HandList(View):
    hands: list[HandBrief] = Field(description="The newest first.")
    next: int | None = Field(
        description="More hands are older than these: ask again with before=next; null: none."
    )


def seat_view(seating: Seating, stack: int) -> SeatView:
    return SeatView(
        seat=seating.seat,
        player=seating.player,
        stack=stack,
        short=stack < 0,
        paused=seating.paused,
        seating=seating.id,
        player_id=seating.player_id,
    )


def left_seat_view(seating: Seating, stack: int) -> LeftSeatView:
    return LeftSeatView(**dict(seat_view(seating, stack)), cashed_out=stack, left=True)


def seat_views(session: Session, table: Table) -> dict[str, SeatView]:
    seatings = open_seatings(session, table.id)
    stack = stacks(session, seatings)
    return {str(s.seat): seat_view(s, stack[s.id]) for s in seatings}


def table_view(table: Table) -> TableView:
    collection = table_collection(table)
    return TableView(
        id=table.id,
        name=table.name,
        profile=table.profile,  # type: ignore[arg-type]
        rules=table_rules(table).knobs(),
        overrides=table.rules,
        collection=collection.as_dict(),
        chip_value_cents=table.chip_value_cents,
        warnings=collection_warnings(collection),
        limits=LimitsView(**limits_of(table).as_dict()),
        count=CountSettingsView(
            tolerance=table.count_tolerance, sells_for_cash=table.sells_for_cash
        ),
        acting_seat=table.acting_seat,  # type: ignore[arg-type]
    )


def table_now(session: Session, table: Table) -> TableNow:
    hand = hands_in_play(session, [table.id]).get(table.id)
    due = time_due(session, table)
    return TableNow(
        **dict(table_view(table)),
        seats=seat_views(session, table),
        hand=hand.id if hand is not None else None,
        time_collection=DueTimeView(last=due.last, due=due.due_at) if due is not None else None,
    )


def balances_view(session: Session, table: Table) -> BalancesView:
    hand = hands_in_play(session, [table.id]).get(table.id)
    return BalancesView(
        seats={
            key: SeatBalanceView(player=seat.player, stack=seat.stack, short=seat.short)
            for key, seat in seat_views(session, table).items()
        },
        house=balance(session, house_account(table.id)),
        pot=balance(session, pot_account(hand.id)) if hand is not None else 0,
    )


def assignments_view(session: Session, table_id: int) -> AssignmentsView:
    held = open_down_at(session, table_id)
    return AssignmentsView(
        table=table_id,
        assigned=[
            AssignmentView(dealer=d.name, dealer_id=d.id)
            for d in assignments.assigned_dealers(session, table_id)
        ],
        session_dealer=held.dealer.name if held is not None else None,
    )


def floor_view(session: Session, readable: Ids[int] | None) -> FloorView:
    """Every table, by id; seats and the hand in play only of those in ``readable`` (None:
    every table)."""
    tables = list(session.scalars(select(Table).order_by(Table.id)))
    open_downs = {
        s.table_id: s for s in session.scalars(select(Down).where(Down.closed_at.is_(None)))
    }
    playing = hands_in_play(session)
    out = []
    for table in tables:
        mine = readable is None or table.id in readable
        held = open_downs.get(table.id)
        out.append(
            FloorTable(
                id=table.id,
                name=table.name,
                profile=table.profile,  # type: ignore[arg-type]
                session=OpenDownBrief(id=held.id, dealer=held.dealer.name)
                if held is not None
                else None,
                mine=mine,
                seats=seat_views(session, table) if mine else None,
                hand=playing[table.id].id if mine and table.id in playing else None,
            )
        )
    return FloorView(tables=out)


def hands_page(session: Session, table_id: int, before: int | None, limit: int) -> HandList:
    """A table's hands, the newest first: ``limit`` of them with ids below ``before``."""
    query = select(Hand).where(Hand.table_id == table_id).order_by(Hand.id.desc())
    if before is not None:
        query = query.where(Hand.id < before)
    found: Sequence[Hand] = session.scalars(query.limit(limit + 1)).all()
    shown = found[:limit]
    return HandList(
        hands=[HandBrief.model_validate(h, from_attributes=True) for h in shown],
        next=shown[-1].id if len(found) > limit else None,
    )


def collected_view(
    session: Session,
    table: Table,
    payments: Sequence[rules.Payment],
    entries: Sequence[LedgerEntry],
) -> CollectedView:
    """The time collection just taken at ``table``: its payments, each with its ledger seq,
    and the table's balances after it."""
    paid = [payment_view(n, p, {}, None) for n, p in enumerate(payments, start=1)]
    return CollectedView(payments=posted(paid, entries), balances=balances_view(session, table))
