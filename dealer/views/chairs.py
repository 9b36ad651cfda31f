"""The eight chairs round a table, as its screens draw them: who sits in each (or nobody),
their stack, whether it is short of the cheapest hand, and whether they are dealt in."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session

from dealer.bounds import SEATS as SEAT_BOUNDS
from dealer.floor import tables as service
from dealer.floor.figures import cheapest_hand
from dealer.models import Hand, Seating, Table

#: The seats round every table, in order.
SEATS = range(SEAT_BOUNDS[0], SEAT_BOUNDS[1] + 1)


@dataclass(frozen=True, slots=True)
class Chair:
    """One of the eight seats: who sits there (or nobody) and their stack."""

    seat: int
    seating: Seating | None
    stack: int
    short: bool
    in_hand: bool


def chairs(session: Session, table: Table, hand: Hand | None) -> list[Chair]:
    seatings = {s.seat: s for s in service.open_seatings(session, table.id)}
    stack = service.stacks(session, list(seatings.values()))
    least = cheapest_hand(table)
    dealt = set(hand.seats.values()) if hand is not None else set()
    out = []
    for seat in SEATS:
        seating = seatings.get(seat)
        chips = stack[seating.id] if seating else 0
        out.append(
            Chair(
                seat,
                seating,
                chips,
                seating is not None and (chips < 0 or chips < least),
                seating is not None and seating.id in dealt,
            )
        )
    return out
