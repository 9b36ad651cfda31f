"""Find a seat in a hand the way a player remembers it (`dealer.disputes.asking` reads the
words): the seats of the shift's hands whose player, seat, table and time fit, and, when an
amount is given, whose chips in that hand show it: paid or received in all, or in one payment.

The hands are read newest first, a page of them at a time, and only the entries of those
hands (of the seats asked about, when a player or a seat narrows them) are summed, so a search
stops as soon as it has a page of seats, whatever the size of the shift.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from dealer.disputes.asking import SeatQuery, folded
from dealer.errors import Invalid
from dealer.ledger.accounts import seating_account
from dealer.models import Event, Hand, LedgerEntry, Seating, Table
from dealer.words.catalogue import say

__all__ = ["FoundSeat", "MatchedPayment", "SeatsFound", "find_seats"]

#: Seats a search answers at most.
LIMIT = 50
#: Hands read at a time, newest first.
BATCH = 300


@dataclass(slots=True)
class MatchedPayment:
    """A payment of the seat that is the amount asked about."""

    entry: int
    event_id: int
    event_seq: int
    #: Its number within its event (the dispute view's address).
    number: int
    chips: int
    paid: bool


@dataclass(slots=True)
class FoundSeat:
    """A seat of a hand that fits what was asked: the seat's chips in that hand."""

    hand_id: int
    hand_number: int
    table_id: int
    table_name: str
    started_at: datetime
    seat: int
    player: str
    seating: int
    paid: int = 0
    received: int = 0
    #: How the amount asked about shows: "paid", "received" (in all), or "payment".
    matched: str = ""
    payments: list[MatchedPayment] = field(default_factory=list)

    @property
    def net(self) -> int:
        return self.received - self.paid


@dataclass(frozen=True, slots=True)
class SeatsFound:
    query: SeatQuery
    seats: list[FoundSeat]
    #: More seats fit than the page holds: say more.
    more: bool
    #: The hands looked through (of the window), for the sentence that says so.
    tables: list[str]


def find_seats(session: Session, query: SeatQuery, limit: int = LIMIT) -> SeatsFound:
    """The seats of the window's hands that fit ``query``, the newest hand first."""
    tables = _tables(session, query.table)
    names = dict(session.execute(select(Table.id, Table.name)).all())
    seatings = _seatings(session, query, tables)
    found: list[FoundSeat] = []
    for hands in _hands(session, query, tables):
        found += _fitting(session, query, hands, seatings, names)
        if len(found) > limit:
            break
    page = found[:limit]
    _numbered(session, [p for s in page for p in s.payments])
    return SeatsFound(query, page, len(found) > limit, [names[t] for t in tables or []])


def _tables(session: Session, named: str | None) -> list[int] | None:
    """The table ``named`` ("Table 4", "table 4" or "4"), as a list of one id; None: any."""
    if named is None:
        return None
    rows = session.execute(select(Table.id, Table.name).order_by(Table.id)).all()
    want = folded(named)
    for candidates in (
        [t for t, name in rows if folded(name) == want],
        [t for t, name in rows if folded(name) in (f"table {want}", f"table #{want}")],
        [t for t, name in rows if want.isdigit() and folded(name).split()[-1:] == [want]],
    ):
        if len(candidates) == 1:
            return candidates
    raise Invalid(
        say(
            'No table is called "{named}": the tables are {tables}.',
            named=named[:40],
            tables=", ".join(name for _, name in rows) or say("none yet"),
        ),
        "unknown_table",
    )


def _seatings(
    session: Session, query: SeatQuery, tables: list[int] | None
) -> dict[int, tuple[int, str]] | None:
    """The seatings a player or seat stands for in the window (seat and player, by id);
    None: any seat. A name is compared folded (any case, accents dropped), so in Python."""
    if query.player is None and query.seat is None:
        return None
    wanted = select(Seating.id, Seating.seat, Seating.player).where(
        Seating.seated_at < query.end,
        or_(Seating.left_at.is_(None), Seating.left_at >= query.start),
    )
    if tables is not None:
        wanted = wanted.where(Seating.table_id.in_(tables))
    if query.seat is not None:
        wanted = wanted.where(Seating.seat == query.seat)
    name = folded(query.player) if query.player is not None else None
    return {
        ident: (seat, player)
        for ident, seat, player in session.execute(wanted)
        if name is None or name in folded(player)
    }


_HAND_COLUMNS = (Hand.id, Hand.number, Hand.table_id, Hand.seats, Hand.started_at)


def _hands(session: Session, query: SeatQuery, tables: list[int] | None) -> Iterable[list[Any]]:
    """The window's hands that fit the table and the time, newest first, a batch at a time."""
    wanted = select(*_HAND_COLUMNS).where(
        Hand.started_at >= query.start, Hand.started_at < query.end
    )
    if tables is not None:
        wanted = wanted.where(Hand.table_id.in_(tables))
    if query.near is not None:
        low, high = query.near
        ended = func.coalesce(Hand.ended_at, query.end)
        wanted = wanted.where(Hand.started_at <= high, ended >= low)
    before: int | None = None
    while True:
        batch = wanted if before is None else wanted.where(Hand.id < before)
        rows = list(session.execute(batch.order_by(Hand.id.desc()).limit(BATCH)))
        if not rows:
            return
        yield rows
        if len(rows) < BATCH:
            return
        before = rows[-1][0]


def _fitting(
    session: Session,
    query: SeatQuery,
    hands: Sequence[Any],
    seatings: dict[int, tuple[int, str]] | None,
    tables: dict[int, str],
) -> list[FoundSeat]:
    """The seats of ``hands`` that fit, with their chips when an amount was asked about."""
    seats: list[FoundSeat] = []
    for hand_id, number, table_id, dealt, started_at in hands:
        for seat, seating in sorted(dealt.items(), key=lambda kv: int(kv[0])):
            if seatings is not None and seating not in seatings:
                continue
            seats.append(
                FoundSeat(
                    hand_id,
                    number,
                    table_id,
                    tables.get(table_id, ""),
                    started_at,
                    int(seat),
                    "",
                    seating,
                )
            )
    if not seats:
        return []
    _players(session, seats, seatings)
    _chips(session, seats, narrowed=seatings is not None)
    if query.amount is None:
        return seats
    return [s for s in seats if _matches(s, query.amount)]


def _players(
    session: Session, seats: list[FoundSeat], seatings: dict[int, tuple[int, str]] | None
) -> None:
    known = dict(seatings or {})
    missing = {s.seating for s in seats} - set(known)
    if missing:
        rows = session.execute(
            select(Seating.id, Seating.seat, Seating.player).where(Seating.id.in_(missing))
        )
        known.update({ident: (seat, player) for ident, seat, player in rows})
    for s in seats:
        s.player = known.get(s.seating, (0, ""))[1]


def _chips(session: Session, seats: list[FoundSeat], narrowed: bool) -> None:
    """Each seat's chips paid and received in its hand, and its payments (one query)."""
    by_key = {(s.hand_id, seating_account(s.seating)): s for s in seats}
    wanted = select(
        LedgerEntry.seq,
        LedgerEntry.hand_id,
        LedgerEntry.event_id,
        LedgerEntry.from_account,
        LedgerEntry.to_account,
        LedgerEntry.chips,
    ).where(LedgerEntry.hand_id.in_({s.hand_id for s in seats}))
    if narrowed:
        accounts = sorted({seating_account(s.seating) for s in seats})
        wanted = wanted.where(
            or_(LedgerEntry.from_account.in_(accounts), LedgerEntry.to_account.in_(accounts))
        )
    for seq, hand_id, event_id, source, target, chips in session.execute(
        wanted.order_by(LedgerEntry.seq)
    ):
        for account, paid in ((source, True), (target, False)):
            seat = by_key.get((hand_id or 0, account))
            if seat is None:
                continue
            if paid:
                seat.paid += chips
            else:
                seat.received += chips
            seat.payments.append(MatchedPayment(seq, event_id or 0, 0, 0, chips, paid))


def _matches(seat: FoundSeat, amount: int) -> bool:
    """Whether ``amount`` shows in the seat's chips: in all, or as one payment (kept)."""
    single = [p for p in seat.payments if p.chips == amount]
    if seat.paid == amount or -seat.net == amount:
        seat.matched = "paid"
    elif seat.received == amount or seat.net == amount:
        seat.matched = "received"
    elif single:
        seat.matched = "payment"
        seat.payments = single
        return True
    else:
        return False
    seat.payments = [p for p in seat.payments if p.paid == (seat.matched == "paid")]
    return True


def _numbered(session: Session, payments: list[MatchedPayment]) -> None:
    """Each payment's event seq and its number within its event (the dispute view's address)."""
    events = {p.event_id for p in payments if p.event_id}
    if not events:
        return
    seqs = dict(session.execute(select(Event.id, Event.seq).where(Event.id.in_(events))).all())
    place: dict[int, int] = {}
    numbers: dict[int, int] = {}
    rows = session.execute(
        select(LedgerEntry.seq, LedgerEntry.event_id)
        .where(LedgerEntry.event_id.in_(events))
        .order_by(LedgerEntry.event_id, LedgerEntry.seq)
    )
    for seq, event_id in rows:
        if event_id is None:
            continue
        place[event_id] = place.get(event_id, 0) + 1
        numbers[seq] = place[event_id]
    for p in payments:
        p.event_seq = seqs.get(p.event_id, 0)
        p.number = numbers.get(p.entry, 1)
