"""The hand screen's content: each seat's melds and status, the history, what may be done.

Everything here is read from the replayed engine (`dealer.hands.reading.load`):
what is allowed comes from ``Hand.allowed`` and ``Hand.voidable``, where a card
fits from ``Hand.fits``; nothing is decided here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from dealer import rules
from dealer.floor.figures import cheapest_hand
from dealer.floor.tables import stacks
from dealer.hands.narration import event_texts
from dealer.hands.reading import Replayed, load
from dealer.models import Hand, Seating, Table
from dealer.people.users import names_of
from dealer.screens.faces import Face, faces
from dealer.screens.spoken import PaymentGroup, group_payments, party_label

__all__ = [
    "ACTIONS",
    "Board",
    "EventView",
    "MeldView",
    "PaymentView",
    "SeatView",
    "build_board",
]

STATUS_WORDS = {"in": "in", "dropped": "dropped", "fouled": "fouled", "out": "went out"}


@dataclass(frozen=True, slots=True)
class ActionButton:
    """One action button of the hand screen."""

    type: str
    label: str
    #: The button's word where space is short; ``label`` is read out.
    short: str
    #: Needs one of the seat's melds chosen first (tap the meld).
    needs_meld: bool = False
    #: Needs cards entered on the pad or typed.
    needs_cards: bool = False
    #: Its key on a hardware keyboard (static/dealer.js reads ``aria-keyshortcuts``).
    key: str = ""


ACTIONS = (
    ActionButton("meld", "Meld", "Meld", needs_cards=True, key="M"),
    ActionButton("add", "Add to the meld", "Add", needs_meld=True, needs_cards=True, key="A"),
    ActionButton(
        "borrow", "Borrow from the meld", "Borrow", needs_meld=True, needs_cards=True, key="B"
    ),
    ActionButton("split", "Split the meld", "Split", needs_meld=True, key="S"),
    ActionButton("go_out", "Go out: show the settlement", "Go out", key="G"),
    ActionButton("drop", "Drop", "Drop", key="D"),
    ActionButton("foul", "Foul", "Foul", key="F"),
    ActionButton("penalty", "Discard penalty", "Penalty", key="P"),
)


@dataclass(slots=True)
class MeldView:
    id: int
    seat: int
    faces: list[Face]
    kind: str
    condition: str | None
    value: int
    paid: int
    #: Set when the discard being checked fits this meld.
    fits: rules.Fit | None = None

    @property
    def codes(self) -> str:
        return " ".join(f.code for f in self.faces)


@dataclass(slots=True)
class SeatView:
    seat: int
    player: str
    status: str
    cards_down: int
    limit: int
    melds: list[MeldView]
    allowed: frozenset[str]
    stack: int
    net: int
    short: bool

    @property
    def status_words(self) -> str:
        return STATUS_WORDS[self.status]


@dataclass(slots=True)
class PaymentView:
    index: int
    payer: str
    payee: str
    chips: int
    reason: str
    rule: str
    reversal: bool


@dataclass(slots=True)
class EventView:
    id: int
    seq: int
    type: str
    text: str
    seat: int | None
    voided_by: int | None
    voidable: bool
    payments: list[PaymentView]
    user: str
    supervisor: str | None
    at: datetime
    #: Where it was recorded from, as recorded (`dealer.people.devices.read_device` reads it).
    device: str
    #: The payments grouped as the banner reads them: one line per rule, chips and payee.
    groups: list[PaymentGroup] = field(default_factory=list)

    @property
    def voided(self) -> bool:
        return self.voided_by is not None

    @property
    def correction(self) -> bool:
        return self.type in ("void", "void_hand")


@dataclass(slots=True)
class Board:
    """A hand as the dealer sees it."""

    replayed: Replayed
    table: Table
    seats: list[SeatView]
    events: list[EventView]
    names: dict[int, str]
    least_hand: int
    fits: list[rules.Fit] = field(default_factory=list)

    @property
    def hand(self) -> Hand:
        return self.replayed.row

    @property
    def engine(self) -> rules.Hand:
        return self.replayed.engine

    @property
    def status(self) -> str:
        return self.engine.status

    @property
    def pot(self) -> int:
        return self.engine.net[rules.POT]

    def seat(self, number: int) -> SeatView | None:
        return next((s for s in self.seats if s.seat == number), None)

    def meld(self, meld_id: int) -> MeldView | None:
        return next((m for s in self.seats for m in s.melds if m.id == meld_id), None)

    def event_by_id(self, event_id: int) -> EventView | None:
        return next((e for e in self.events if e.id == event_id), None)

    def label(self, party: rules.Party | str) -> str:
        return party_label(party, self.names)


def build_board(session: Session, hand: Hand, fits: rules.Card | None = None) -> Board:
    """Replay ``hand`` and gather what its screen shows; ``fits`` is a discard to check."""
    replayed = load(session, hand)
    engine = replayed.engine
    table = session.get(Table, hand.table_id)
    assert table is not None
    ids = list(hand.seats.values())
    seatings = {s.id: s for s in session.scalars(select(Seating).where(Seating.id.in_(ids)))}
    stack_of = stacks(session, list(seatings.values()))
    least = cheapest_hand(table)
    found = engine.fits(fits) if fits is not None else []
    fit_of = {f.meld: f for f in found}
    names: dict[int, str] = {}
    seats = []
    for number in engine.seats:
        seating = seatings[hand.seats[str(number)]]
        names[number] = seating.player
        status = "out" if engine.winner == number and engine.status == "settled" else None
        melds = [
            MeldView(
                m.id,
                m.seat,
                faces(m.cards),
                m.kind,
                m.condition.name if m.condition else None,
                m.value,
                m.paid,
                fit_of.get(m.id),
            )
            for m in engine.melds_of(number)
        ]
        stack = stack_of[seating.id]
        seats.append(
            SeatView(
                seat=number,
                player=seating.player,
                status=status or engine.seat_status[number],
                cards_down=engine.cards_down[number],
                limit=engine.limit,
                melds=melds,
                allowed=engine.allowed(number),
                stack=stack,
                net=engine.net[number],
                short=stack < 0 or (seating.left_at is None and stack < least),
            )
        )
    rows = replayed.events
    users = names_of(session, {i for r in rows for i in (r.user_id, r.supervisor_id) if i})
    events = []
    texts = event_texts(replayed)
    for row, record, text in zip(rows, engine.events, texts, strict=True):
        voided_by = engine.voided.get(row.seq)
        payments = [
            PaymentView(
                i + 1,
                party_label(p.payer, names),
                party_label(p.payee, names),
                p.chips,
                p.reason,
                p.rule,
                p.reverses is not None,
            )
            for i, p in enumerate(record.payments)
        ]
        events.append(
            EventView(
                id=row.id,
                seq=row.seq,
                type=row.type,
                text=text,
                seat=row.seat,
                voided_by=voided_by,
                voidable=row.seq > 1 and engine.voidable(row.seq),
                payments=payments,
                user=users.get(row.user_id, "?"),
                supervisor=users.get(row.supervisor_id) if row.supervisor_id else None,
                at=row.created_at,
                device=row.device,
                groups=group_payments(record.payments, names),
            )
        )
    return Board(replayed, table, seats, events, names, least, found)


def hand_voidable(board: Board) -> bool:
    """Whether the whole hand may still be voided (a supervisor's call)."""
    return board.engine.can(rules.VoidHand("check"))
