"""Find a seat in a hand the way a player remembers it (`dealer.disputes.asking` reads the
words): the seats of the shift's hands whose player, seat, table and time fit and whose chips
show the amount: in all (paid, received), in one payment, or for one event (16 = 4 x 4).

Two ways through, whichever reads less:

- **An amount without a time** (a player, a seat or a table named): the seats' chips of every
  hand of the shift, summed and matched by the database in one question, through the accounts'
  indexes, reading the entries of those seats only; the page of seats that fit, newest hand
  first, is all that comes back (bench/disputes.py: a busy shift's 9,600 hands).
- **Otherwise** (a time, or no amount): the hands are read newest first, a batch at a time,
  and only the entries of those hands (of the seats asked about) are summed, so the search
  stops as soon as it has a page of seats; a time reads a half hour of hands at most.

Only an amount alone (no player, seat, table or time: every seat of every table) reads a
bounded number of hands, the newest, and says how far back it looked.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Integer, case, func, literal_column, or_, select, union_all
from sqlalchemy.orm import Session

from dealer.disputes.asking import SeatQuery, folded, named
from dealer.disputes.found_seats import (
    FoundSeat,
    SeatsFound,
    add_payments,
    matches,
    number_payments,
)
from dealer.errors import Invalid
from dealer.ledger.accounts import seating_account
from dealer.models import Hand, LedgerEntry, Seating, Table, as_utc
from dealer.words.catalogue import say

__all__ = ["find_seats"]

#: Seats a search answers at most.
LIMIT = 20
#: Hands read at a time, newest first: the first batch, and the most at once.
BATCH = 300
MOST = 2400
#: An amount alone (every seat of every table) reads at most this many hands, newest first (two
#: batches), then answers with what it has and says how far back it looked: summing every seat
#: of a busy shift's 9,600 hands takes the database half a second. A player, a seat, a table
#: or a time is read in full.
READ_AT_MOST = 900


def find_seats(session: Session, query: SeatQuery, limit: int = LIMIT) -> SeatsFound:
    """The seats of the window's hands that fit ``query``, the newest hand first."""
    tables = _tables(session, query.table)
    names = dict(session.execute(select(Table.id, Table.name)).all())
    seatings = _seatings(session, query, tables)
    said = [names[t] for t in tables or []]
    if seatings is not None and not seatings:
        return SeatsFound(query, [], False, said)
    if seatings is not None and tables is None:
        # A player or a seat sits at some tables only: their hands are read, not the floor's.
        tables = sorted({table for _, _, table in seatings.values()})
    if query.amount is not None and query.near is None and tables is not None:
        if seatings is None:
            seatings = _seatings(session, query, tables, every=True) or {}
        found = _summed(session, query, seatings, tables, names, limit)
        page, stopped = found[:limit], None
    else:
        found, stopped = _hand_by_hand(session, query, seatings, tables, names, limit)
        page = found[:limit]
    add_payments(session, page)
    number_payments(session, [p for s in page for p in s.payments])
    return SeatsFound(query, page, len(found) > limit or stopped is not None, said, stopped)


def _hand_by_hand(
    session: Session,
    query: SeatQuery,
    seatings: dict[int, tuple[int, str, int]] | None,
    tables: list[int] | None,
    names: dict[int, str],
    limit: int,
) -> tuple[list[FoundSeat], datetime | None]:
    """The seats that fit, the window's hands read newest first until a page is found; and,
    for an amount alone, when it stopped (READ_AT_MOST read)."""
    bounded = seatings is None and tables is None and query.near is None
    found: list[FoundSeat] = []
    read, oldest = 0, None
    for batch in _hands(session, query, tables):
        if bounded and read >= READ_AT_MOST:  # there are older hands still: say how far back
            return found, oldest
        found += _fitting(session, query, batch, seatings, names)
        read += len(batch)
        oldest = min(as_utc(row[4]) for row in batch)
        if len(found) > limit:
            break
    return found, None


def _chunked(values: Sequence[Any], size: int = 900) -> Iterable[Sequence[Any]]:
    for start in range(0, len(values), size):
        yield values[start : start + size]


def _tables(session: Session, named: str | None) -> list[int] | None:
    """The table ``named`` ("Table 4", "table 4" or "4"), as a list of one id; None: any."""
    if named is None:
        return None
    rows = session.execute(select(Table.id, Table.name).order_by(Table.id)).all()
    want = folded(named)
    for candidates in (
        [t for t, name in rows if folded(name) == want],
        [t for t, name in rows if folded(name) in (f"table {want}", f"table #{want}")],
        [t for t, name in rows if want.isdigit() and _number_of(name) == int(want)],
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


def _number_of(name: str) -> int | None:
    """The number a table's name ends with ("Table 04": 4), if it ends with one."""
    last = name.split()[-1:] if name.strip() else []
    return int(last[0]) if last and last[0].isdigit() else None


def _seatings(
    session: Session, query: SeatQuery, tables: list[int] | None, every: bool = False
) -> dict[int, tuple[int, str, int]] | None:
    """The seatings a player or seat stands for in the window (seat, player and table, by id);
    None: any seat (``every``: all of the tables' seatings). A name is compared folded (any
    case, accents dropped), so in Python."""
    if query.player is None and query.seat is None and not every:
        return None
    wanted = select(Seating.id, Seating.seat, Seating.player, Seating.table_id).where(
        Seating.seated_at < query.end,
        or_(Seating.left_at.is_(None), Seating.left_at >= query.start),
    )
    if tables is not None:
        wanted = wanted.where(Seating.table_id.in_(tables))
    if query.seat is not None:
        wanted = wanted.where(Seating.seat == query.seat)
    rows = list(session.execute(wanted))
    fits = named(query.player, {row[2] for row in rows}) if query.player is not None else None
    return {i: (s, player, t) for i, s, player, t in rows if fits is None or player in fits}


_HAND_COLUMNS = (Hand.id, Hand.number, Hand.table_id, Hand.seats, Hand.started_at, Hand.ended_at)


def _in_window(wanted: Any, query: SeatQuery, tables: list[int] | None) -> Any:
    """``wanted`` (hands) narrowed to the window, the tables and the time asked about."""
    wanted = wanted.where(Hand.started_at >= query.start, Hand.started_at < query.end)
    if tables is not None:
        wanted = wanted.where(Hand.table_id.in_(tables))
    if query.near is not None:
        low, high = query.near
        ended = func.coalesce(Hand.ended_at, query.end)
        wanted = wanted.where(Hand.started_at <= high, ended >= low)
    return wanted


def _hands(session: Session, query: SeatQuery, tables: list[int] | None) -> Iterable[list[Any]]:
    """The window's hands that fit the table and the time, newest first, a batch at a time."""
    wanted = _in_window(select(*_HAND_COLUMNS), query, tables)
    before: int | None = None
    size = BATCH
    while True:
        batch = wanted if before is None else wanted.where(Hand.id < before)
        rows = list(session.execute(batch.order_by(Hand.id.desc()).limit(size)))
        if not rows:
            return
        yield rows
        if len(rows) < size:
            return
        before = rows[-1][0]
        # Nothing yet in the newest hands: read further back in bigger steps.
        size = min(size * 2, MOST)


def _fitting(
    session: Session,
    query: SeatQuery,
    hands: Sequence[Any],
    seatings: dict[int, tuple[int, str, int]] | None,
    tables: dict[int, str],
) -> list[FoundSeat]:
    """The seats of ``hands`` that fit, with their chips when an amount was asked about."""
    seats: list[FoundSeat] = []
    for hand_id, number, table_id, dealt, started_at, _ended in hands:
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
    _sums(session, query, hands, seats, narrowed=seatings is not None)
    if query.amount is None:
        return seats
    for s in seats:
        s.amount = query.amount
    return [s for s in seats if matches(s, query.amount)]


def _players(
    session: Session, seats: list[FoundSeat], seatings: dict[int, tuple[int, str, int]] | None
) -> None:
    known = {ident: (seat, player) for ident, (seat, player, _) in (seatings or {}).items()}
    missing = {s.seating for s in seats} - set(known)
    if missing:
        rows = session.execute(
            select(Seating.id, Seating.seat, Seating.player).where(Seating.id.in_(missing))
        )
        known.update({ident: (seat, player) for ident, seat, player in rows})
    for s in seats:
        s.player = known.get(s.seating, (0, ""))[1]


#: Hand by hand, entries are looked for from a batch's first deal to this long after its last
#: hand ended (a void recorded later than that is left out of those sums; the statement has
#: it, and so do `_summed`'s, which read every entry of the seatings).
LATE = timedelta(minutes=10)


def _sums(
    session: Session,
    query: SeatQuery,
    hands: Sequence[Any],
    seats: list[FoundSeat],
    narrowed: bool,
) -> None:
    """Each seat's chips paid and received in its hand, and its payments of the amount asked
    about, summed by the database. A player's or a seat's entries are read through their
    accounts' indexes (account, time), within the batch's time: a few rows a hand."""
    by_key = {(s.hand, seating_account(s.seating)): s for s in seats}
    low = min(as_utc(h[4]) for h in hands)
    high = max(as_utc(h[5]) if h[5] is not None else query.end for h in hands) + LATE
    accounts = sorted({account for _, account in by_key})
    same = func.sum(case((LedgerEntry.chips == (query.amount or 0), 1), else_=0))
    for column, paid in ((LedgerEntry.from_account, True), (LedgerEntry.to_account, False)):
        wanted = (
            select(LedgerEntry.hand_id, column, func.sum(LedgerEntry.chips), same)
            .where(
                LedgerEntry.hand_id.in_({h[0] for h in hands}),
                LedgerEntry.at >= low,
                LedgerEntry.at <= high,
            )
            .group_by(LedgerEntry.hand_id, column, LedgerEntry.event_id)  # an event's total too
        )
        chunks = _chunked(accounts) if narrowed else [None]
        for chunk in chunks:
            asked = wanted.where(column.in_(chunk)) if chunk is not None else wanted
            for hand_id, account, chips, count in session.execute(asked):
                seat = by_key.get((hand_id or 0, account))
                if seat is None:
                    continue
                if paid:
                    seat.paid += int(chips)
                else:
                    seat.received += int(chips)
                seat.same += int(count or 0)
                seat.events += int(chips) == query.amount


def _summed(
    session: Session,
    query: SeatQuery,
    seatings: dict[int, tuple[int, str, int]],
    tables: list[int],
    names: dict[int, str],
    limit: int,
) -> list[FoundSeat]:
    """The seats of the window's hands whose chips show the amount asked about, the newest hand
    first (``limit`` and one more). Each seating's chips are summed hand by hand and matched by
    the database, in one question: the accounts' indexes read those seatings' entries only
    (a seating sits within the window, so its entries do), and only the seats that fit come
    back, with their hands."""
    amount = query.amount or 0
    seating_of = {seating_account(ident): ident for ident in seatings}
    if not seating_of:
        return []
    accounts = sorted(seating_of)
    zero = literal_column("0", Integer)

    def side(account: Any, paid: bool) -> Any:
        """One side of the seatings' entries (paid: they paid), summed by account and hand."""
        chips = func.sum(LedgerEntry.chips)
        return (
            select(
                account.label("account"),
                LedgerEntry.hand_id.label("hand_id"),
                (chips if paid else zero).label("paid"),
                (zero if paid else chips).label("received"),
                func.sum(case((LedgerEntry.chips == amount, 1), else_=0)).label("same"),
                case((chips == amount, 1), else_=0).label("events"),
            )
            .where(account.in_(accounts), LedgerEntry.hand_id.is_not(None))
            .group_by(account, LedgerEntry.hand_id, LedgerEntry.event_id)  # and by event
        )

    sides = union_all(
        side(LedgerEntry.from_account, True), side(LedgerEntry.to_account, False)
    ).subquery("sides")
    paid, received, same, events = (func.sum(c) for c in list(sides.c)[2:])
    totals = (
        select(
            sides.c.hand_id,
            sides.c.account,
            paid.label("paid"),
            received.label("received"),
            same.label("same"),
            events.label("events"),
        )
        .group_by(sides.c.hand_id, sides.c.account)
        # As `matches` reads them: paid or received in all, the net either way, one payment.
        .having(
            or_(
                paid == amount,
                received == amount,
                received - paid == amount,
                paid - received == amount,
                same > 0,
                events > 0,
            )
        )
        .subquery("totals")
    )
    in_seat_order = case(
        {seating_account(i): seat for i, (seat, _, _) in seatings.items()},
        value=totals.c.account,
        else_=0,
    )
    rows = session.execute(
        select(
            totals.c.hand_id,
            totals.c.account,
            totals.c.paid,
            totals.c.received,
            totals.c.same,
            totals.c.events,
            Hand.number,
            Hand.table_id,
            Hand.started_at,
        )
        .join(Hand, Hand.id == totals.c.hand_id)
        .where(
            Hand.started_at >= query.start,
            Hand.started_at < query.end,
            Hand.table_id.in_(tables),
        )
        .order_by(totals.c.hand_id.desc(), in_seat_order)
        .limit(limit + 1)
    )
    found = []
    for hand_id, account, paid_in, got, count, hits, number, table_id, started in rows:
        seating = seating_of[account]
        seat, player, _ = seatings[seating]
        s = FoundSeat(
            hand_id,
            number,
            table_id,
            names.get(table_id, ""),
            started,
            seat,
            player,
            seating,
            paid=int(paid_in),
            received=int(got),
            same=int(count),
            amount=amount,
            events=int(hits),
        )
        matches(s, amount)
        found.append(s)
    return found
