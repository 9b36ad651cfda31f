"""What a hand records: events, fits, and the plans and undo notes behind them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from .actions import Action
from .cards import Card
from .payments import Payment
from .table import TableMeld

__all__ = ["KEEP", "EventRecord", "Fit", "Plan", "SeatStatus", "Undo", "seats_text"]

SeatStatus = Literal["in", "dropped", "fouled"]
#: "This plan leaves the field as it is."
KEEP: object = object()


@dataclass(frozen=True, slots=True)
class EventRecord:
    """One event of a hand, as it happened: the action and the payments it made."""

    seq: int
    type: str
    seat: int | None
    action: Action | None
    payments: tuple[Payment, ...]
    #: Melds this event created or changed, in the order they were collected for (a split:
    #: the part that kept the meld first).
    melds: tuple[int, ...]
    text: str

    @property
    def claimed(self) -> bool:
        """False for a meld, add, borrow or split recorded unclaimed: nothing was paid."""
        return getattr(self.action, "claimed", True) is not False


@dataclass(frozen=True, slots=True)
class Fit:
    """A meld a card could be added to, and whether that would take its seat out."""

    seat: int
    meld: int
    goes_out: bool


@dataclass(slots=True)
class Plan:
    """What an action would change, worked out before anything changes."""

    seat: int | None = None
    changes: dict[int, TableMeld | None] = field(default_factory=dict)
    added: tuple[Card, ...] = ()
    removed: tuple[Card, ...] = ()
    statuses: dict[int, SeatStatus] = field(default_factory=dict)
    payments: list[Payment] = field(default_factory=list)
    hand_status: object = KEEP
    winner: object = KEEP
    penalty_taken: object = KEEP
    voids: int | None = None
    next_meld: int = 0


@dataclass(slots=True)
class Undo:
    """How to put the hand back as it was before an event (for a void)."""

    before: dict[int, TableMeld | None]
    added: tuple[Card, ...]
    removed: tuple[Card, ...]
    statuses: dict[int, SeatStatus]
    hand_status: object
    winner: object
    penalty_taken: object


def seats_text(n: int) -> str:
    return "1 seat" if n == 1 else f"{n} seats"
