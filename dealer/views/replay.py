"""A hand replayed event by event: the table as it stood after one event.

Nothing is stored twice: the seats' melds, paid levels and status come from the engine
replaying the hand's stored events up to that one (`dealer.ledger.replay`); the stacks and the
pot from the ledger, each seat's stack before the hand plus the hand's own entries up to that
event. The event's sentence and payments are the hand view's own (`dealer.views.hand`), so the
replay says each event as every other screen says it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pydantic import Field
from sqlalchemy import and_, func, or_, select
from sqlalchemy.orm import Session

from dealer.errors import Invalid
from dealer.hands.reading import Replayed, load_hand, replay
from dealer.ledger.accounts import pot_account, seating_account
from dealer.ledger.replay import hand_rules
from dealer.models import Event, Hand, LedgerEntry
from dealer.views.base import SEAT_KEY, View
from dealer.views.events import EventView
from dealer.views.hand import (
    HandStatus,
    HandView,
    MeldView,
    OneHand,
    SeatStatus,
    _meld,
    hand_view,
    one_hand,
)
from dealer.words.catalogue import say
from dealer.words.status import status_words


class ReplaySeat(View):
    """One seat as it stood after the event."""

    seat: int
    player: str
    status: SeatStatus = Field(description="in, dropped or fouled, after the event.")
    status_words: str
    cards_down: int
    melds: list[MeldView] = Field(description="Its melds on the table, with their paid levels.")
    stack: int = Field(description="The seat's stack after the event, from the ledger.")
    net: int = Field(description="What the seat has won (or lost) in the hand so far.")
    #: The event changed one of its melds, or moved its chips.
    touched: bool = False


class ReplayEvent(View):
    """One event of the hand in the replay's list of steps."""

    seq: int
    text: str
    voided: bool = Field(description="A later void stands against it (shown struck through).")
    correction: bool


class ReplayView(OneHand):
    """The hand as it stood after event ``at`` (1 is the deal)."""

    at: int = Field(description="The event shown: the table as it stood after it.")
    last: int = Field(description="The number of events in the hand (the last step).")
    event: EventView = Field(description="The event, its sentence and its payments.")
    seats: dict[str, ReplaySeat] = Field(json_schema_extra=SEAT_KEY)
    pot: int = Field(description="The pot after the event, from the ledger.")
    status: HandStatus = Field(description="The hand's status after the event.")
    winner: int | None
    steps: list[ReplayEvent]
    #: The melds the event touched (highlighted on the screen).
    touched_melds: list[int] = Field(description="The melds the event changed.")

    @property
    def seat_list(self) -> list[ReplaySeat]:
        return list(self.seats.values())


def replay_view(
    session: Session, hand_id: int, at: int | None = None, entry: int | None = None
) -> ReplayView:
    """Hand ``hand_id`` as it stood after event ``at``, or after the event that made ledger
    entry ``entry`` (the last event when neither is given; both are refused)."""
    if at is not None and entry is not None:
        raise Invalid(
            say("Show the hand after an event or after a ledger entry, not both."),
            "invalid_query",
        )
    replayed = load_hand(session, hand_id)
    view = hand_view(session, replayed)
    last = len(replayed.events)
    if entry is not None:
        at = _event_of(session, replayed, view.number, entry)
    at = last if at is None else at
    if not 1 <= at <= last:
        raise Invalid(
            say(
                "Hand {number} has events 1 to {last}; there is no event {at}.",
                number=view.number,
                last=last,
                at=at,
            ),
            "unknown_event",
        )
    return _at(session, replayed, view, at)


def _event_of(session: Session, replayed: Replayed, number: int, entry: int) -> int:
    event_id = session.scalar(
        select(LedgerEntry.event_id).where(
            LedgerEntry.seq == entry, LedgerEntry.hand_id == replayed.row.id
        )
    )
    seq = next((e.seq for e in replayed.events if e.id == event_id), None)
    if seq is None:
        raise Invalid(
            say(
                "Ledger entry {entry} is not a payment of hand {number}.",
                entry=entry,
                number=number,
            ),
            "unknown_entry",
        )
    return seq


def _at(session: Session, replayed: Replayed, view: HandView, at: int) -> ReplayView:
    row = replayed.row
    engine = replay(row, replayed.events[:at]).engine
    played = hand_rules(row)
    record = engine.events[at - 1]
    moved = _chips_after(session, row, replayed.events, at)
    paying = {p for pay in record.payments for p in (pay.payer, pay.payee)}
    touched_melds = set(record.melds)
    seats = {}
    for seat in engine.seats:
        melds = [_meld(m, played, None) for m in engine.melds_of(seat)]
        status = engine.seat_status[seat]
        seats[str(seat)] = ReplaySeat(
            seat=seat,
            player=view.names.get(seat, ""),
            status=status,
            status_words=say("went out")
            if engine.winner == seat and engine.status == "settled"
            else status_words(status),
            cards_down=engine.cards_down[seat],
            melds=melds,
            stack=moved.stacks[row.seats[str(seat)]],
            net=engine.net[seat],
            touched=seat in paying or any(m.id in touched_melds for m in melds),
        )
    return ReplayView(
        **one_hand(session, row),
        at=at,
        last=len(replayed.events),
        event=view.events[at - 1],
        seats=seats,
        pot=moved.pot,
        status=engine.status,
        winner=engine.winner,
        steps=[
            ReplayEvent(seq=e.seq, text=e.text, voided=e.voided, correction=e.correction)
            for e in view.events
        ],
        touched_melds=sorted(touched_melds),
    )


class _Moved:
    """The stacks (by seating id) and the pot after an event, read from the ledger."""

    def __init__(self, stacks: Mapping[int, int], pot: int) -> None:
        self.stacks = stacks
        self.pot = pot


def _chips_after(session: Session, hand: Hand, events: Sequence[Event], at: int) -> _Moved:
    """Each seat's stack and the pot after event ``at``: a seat's entries before the hand's
    first entry, plus the hand's own entries of events 1 to ``at`` (one query)."""
    seatings = [int(s) for s in hand.seats.values()]
    accounts = {seating_account(s): s for s in seatings}
    pot = pot_account(hand.id)
    upto = [e.id for e in events[:at]]
    first = (
        select(func.min(LedgerEntry.seq)).where(LedgerEntry.hand_id == hand.id).scalar_subquery()
    )
    before = or_(
        LedgerEntry.seq < first,
        and_(first.is_(None), LedgerEntry.at <= hand.started_at),
    )
    other = or_(LedgerEntry.hand_id.is_(None), LedgerEntry.hand_id != hand.id)
    counted = or_(
        and_(other, before),
        and_(LedgerEntry.hand_id == hand.id, LedgerEntry.event_id.in_(upto)),
    )
    names = [*accounts, pot]
    chips = func.sum(LedgerEntry.chips)
    out: dict[str, int] = dict.fromkeys(names, 0)
    for account in ("to", "from"):
        column = LedgerEntry.to_account if account == "to" else LedgerEntry.from_account
        rows = session.execute(
            select(column, chips).where(column.in_(names), counted).group_by(column)
        )
        for name, total in rows:
            out[name] += int(total) if account == "to" else -int(total)
    return _Moved({s: out[a] for a, s in accounts.items()}, out[pot])
