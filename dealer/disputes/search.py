"""The dispute desk's one search, under the API (``GET /api/v1/payments``, ``GET
/api/v1/search``) and the floor's screens alike: a `Question` (`dealer.disputes.asking`: a
search's filters, or a player's words) answered as the payments that fit (`find_payments`) or
as the seats of hands whose chips fit (`find_seats`).

Both look in one scope: the hands, tables and seatings the question names. A seat or a player
is found through the seatings that match (a seating is one player's stay in one seat, and its
stack is the ledger account ``seating:<id>``), a name compared one way (`named`: any case,
accents dropped, whole words first); a player record is one more condition on them.

- **Payments**: the database's search (indexed: ``at``, ``hand_id``, the two accounts, the rule
  and the chips with the time, migration ``0012_devices``), newest first; only the page found
  is read further (`dealer.disputes.found.described`).
- **Seats**, two ways through, whichever reads less: an amount without a time (a player, a
  seat or a table named) has the seats' chips of every hand of the window summed and matched
  by the database in one question (`dealer.disputes.sums.window_sums`: bench/disputes.py, a
  busy shift's 9,600 hands); otherwise the hands are read newest first, a batch at a time, and
  only those hands' entries are summed, so the search stops as soon as it has a page of seats.
  Only an amount alone (every seat of every table) reads a bounded number of hands, the
  newest, and says how far back it looked.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, Select, func, or_, select
from sqlalchemy.orm import Session

from dealer.disputes.asking import Question, folded, named
from dealer.disputes.found import (
    Found,
    FoundSeat,
    SeatsFound,
    add_payments,
    described,
    matches,
    number_payments,
)
from dealer.disputes.sums import Seatings, hand_sums, window_sums
from dealer.errors import Invalid
from dealer.floor.downs import get_down
from dealer.ledger.accounts import seating_account
from dealer.models import Down, Hand, LedgerEntry, Seating, Table, as_utc
from dealer.words.catalogue import say

#: Who may search every payment: the floor (a dealer reads their own hands' statements).
SEARCH_ROLE = "supervisor"
#: Up to this many seatings, a seat or player filter reads the accounts' own indexes.
FEW_SEATINGS = 2
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


def seatings(session: Session, asked: Question, tables: list[int] | None = None) -> Seatings:
    """The seatings within the question's scope (its hand, table session, ``tables`` and
    window) that fit its seat, player record and player's name (`named`)."""
    wanted = select(Seating.id, Seating.seat, Seating.player, Seating.table_id)
    if asked.player_id is not None:
        wanted = wanted.where(Seating.player_id == asked.player_id)
    if asked.seat is not None:
        wanted = wanted.where(Seating.seat == asked.seat)
    if asked.hand is not None:
        seats = session.scalar(select(Hand.seats).where(Hand.id == asked.hand)) or {}
        wanted = wanted.where(Seating.id.in_([int(i) for i in seats.values()]))
    elif asked.session is not None:
        table = session.scalar(select(Down.table_id).where(Down.id == asked.session))
        wanted = wanted.where(Seating.table_id == table)
    if tables is not None:
        wanted = wanted.where(Seating.table_id.in_(tables))
    if asked.end is not None:
        wanted = wanted.where(Seating.seated_at < asked.end)
    if asked.start is not None:
        wanted = wanted.where(or_(Seating.left_at.is_(None), Seating.left_at >= asked.start))
    rows = list(session.execute(wanted))
    fits = named(asked.player, {row[2] for row in rows}) if asked.player is not None else None
    return {i: (s, player, t) for i, s, player, t in rows if fits is None or player in fits}


def find_payments(session: Session, asked: Question) -> Found:
    """The payments that fit ``asked``, the newest first."""
    if asked.session is not None:
        get_down(session, asked.session)  # 404 for a session that never was
    every = select(LedgerEntry, Hand.number, Hand.table_id).join(
        Hand, Hand.id == LedgerEntry.hand_id
    )
    wanted = _filtered(session, every, asked)
    if wanted is None:
        return Found([], False)
    rows = list(
        session.execute(
            wanted.order_by(LedgerEntry.at.desc(), LedgerEntry.seq.desc()).limit(asked.limit + 1)
        ).all()
    )
    return Found(described(session, rows[: asked.limit]), len(rows) > asked.limit)


#: A search of payments: each entry found, with its hand's number and table.
Wanted = Select[LedgerEntry, int, int]


def _filtered(session: Session, wanted: Wanted, asked: Question) -> Wanted | None:
    """``wanted`` narrowed by every filter given; None when nothing can match."""
    if asked.hand is not None:
        wanted = wanted.where(LedgerEntry.hand_id == asked.hand)
    if asked.session is not None:
        wanted = wanted.where(Hand.down_id == asked.session)
    if asked.start is not None:
        wanted = wanted.where(LedgerEntry.at >= asked.start)
    if asked.end is not None:
        wanted = wanted.where(LedgerEntry.at < asked.end)
    if asked.amount is not None:
        wanted = wanted.where(LedgerEntry.chips == asked.amount)
    if asked.rule is not None:
        wanted = wanted.where(LedgerEntry.reason_code == asked.rule)
    if asked.seat is not None or asked.player is not None or asked.player_id is not None:
        accounts = [seating_account(i) for i in seatings(session, asked)]
        if not accounts:
            return None
        source: ColumnElement[str] = LedgerEntry.from_account.expression
        target: ColumnElement[str] = LedgerEntry.to_account.expression
        if len(accounts) > FEW_SEATINGS and asked.hand is None:
            # A seat across a shift is many seatings, in a good share of the entries: walking
            # the window newest first finds a page at once, where the accounts' indexes would
            # read and sort every entry of every one of them (bench/disputes.py: 250 ms, 15).
            # `|| ''` keeps the planner off those indexes, on SQLite and PostgreSQL alike.
            source, target = source.concat(""), target.concat("")
        wanted = wanted.where(or_(source.in_(accounts), target.in_(accounts)))
    return wanted


def find_seats(session: Session, asked: Question, limit: int = LIMIT) -> SeatsFound:
    """The seats of the window's hands that fit ``asked``, the newest hand first."""
    every_table = session.execute(select(Table.id, Table.name).order_by(Table.id)).all()
    names: dict[int, str] = dict(every_table)
    tables = _tables(every_table, asked.table)
    narrowed = asked.player is not None or asked.seat is not None
    seats_of = seatings(session, asked, tables) if narrowed else None
    said = [names[t] for t in tables or []]
    if seats_of is not None and not seats_of:
        return SeatsFound(asked, [], False, said)
    if seats_of is not None and tables is None:
        # A player or a seat sits at some tables only: their hands are read, not the floor's.
        tables = sorted({table for _, _, table in seats_of.values()})
    if asked.amount is not None and asked.near is None and tables is not None:
        every = seats_of if seats_of is not None else seatings(session, asked, tables)
        found = window_sums(session, asked, every, tables, names, limit)
        page, stopped = found[:limit], None
    else:
        found, stopped = _hand_by_hand(session, asked, seats_of, tables, names, limit)
        page = found[:limit]
    add_payments(session, page)
    number_payments(session, [p for s in page for p in s.payments])
    return SeatsFound(asked, page, len(found) > limit or stopped is not None, said, stopped)


def _hand_by_hand(
    session: Session,
    asked: Question,
    seats_of: Seatings | None,
    tables: list[int] | None,
    names: dict[int, str],
    limit: int,
) -> tuple[list[FoundSeat], datetime | None]:
    """The seats that fit, the window's hands read newest first until a page is found; and,
    for an amount alone, when it stopped (READ_AT_MOST read)."""
    bounded = seats_of is None and tables is None and asked.near is None
    found: list[FoundSeat] = []
    read, oldest = 0, None
    for batch in _hands(session, asked, tables):
        if bounded and read >= READ_AT_MOST:  # there are older hands still: say how far back
            return found, oldest
        found += _fitting(session, asked, batch, seats_of, names)
        read += len(batch)
        oldest = min(as_utc(row[4]) for row in batch)
        if len(found) > limit:
            break
    return found, None


def _tables(rows: Sequence[Any], called: str | None) -> list[int] | None:
    """The table ``called`` ("Table 4", "table 4" or "4") of ``rows`` (each table's id and
    name), as a list of one id; None: any."""
    if called is None:
        return None
    want = folded(called)
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
            named=called[:40],
            tables=", ".join(name for _, name in rows) or say("none yet"),
        ),
        "unknown_table",
    )


def _number_of(name: str) -> int | None:
    """The number a table's name ends with ("Table 04": 4), if it ends with one."""
    last = name.split()[-1:] if name.strip() else []
    return int(last[0]) if last and last[0].isdigit() else None


_HAND_COLUMNS = (Hand.id, Hand.number, Hand.table_id, Hand.seats, Hand.started_at, Hand.ended_at)


def _hands(session: Session, asked: Question, tables: list[int] | None) -> Iterable[list[Any]]:
    """The window's hands that fit the table and the time, newest first, a batch at a time."""
    wanted = select(*_HAND_COLUMNS).where(
        Hand.started_at >= asked.start, Hand.started_at < asked.end
    )
    if tables is not None:
        wanted = wanted.where(Hand.table_id.in_(tables))
    if asked.near is not None:
        low, high = asked.near
        wanted = wanted.where(
            Hand.started_at <= high, func.coalesce(Hand.ended_at, asked.end) >= low
        )
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
    asked: Question,
    hands: Sequence[Any],
    seats_of: Seatings | None,
    tables: dict[int, str],
) -> list[FoundSeat]:
    """The seats of ``hands`` that fit, with their chips when an amount was asked about."""
    seats = [
        FoundSeat(hand_id, number, table_id, tables.get(table_id, ""), at, int(seat), "", seating)
        for hand_id, number, table_id, dealt, at, _ended in hands
        for seat, seating in sorted(dealt.items(), key=lambda kv: int(kv[0]))
        if seats_of is None or seating in seats_of
    ]
    if not seats:
        return []
    _players(session, seats, seats_of)
    hand_sums(session, asked, hands, seats, narrowed=seats_of is not None)
    if asked.amount is None:
        return seats
    for s in seats:
        s.amount = asked.amount
    return [s for s in seats if matches(s, asked.amount)]


def _players(session: Session, seats: list[FoundSeat], seats_of: Seatings | None) -> None:
    known = {ident: (seat, player) for ident, (seat, player, _) in (seats_of or {}).items()}
    missing = {s.seating for s in seats} - set(known)
    if missing:
        rows = session.execute(
            select(Seating.id, Seating.seat, Seating.player).where(Seating.id.in_(missing))
        )
        known.update({ident: (seat, player) for ident, seat, player in rows})
    for s in seats:
        s.player = known.get(s.seating, (0, ""))[1]
