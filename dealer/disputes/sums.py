"""A seat's chips in a hand, summed by the database for the dispute desk's search
(`dealer.disputes.search.find_seats`): paid and received in all, its payments of the amount
asked about, and its events whose chips total that amount (16 = 4 x 4).

Two ways, whichever reads less: `hand_sums`, the seats of a batch of hands (the search reads
the hands newest first), and `window_sums`, every hand of the window's seatings at once,
matched by the database, so only the seats that fit come back.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import timedelta
from typing import Any

from sqlalchemy import Integer, case, func, literal_column, or_, select, union_all
from sqlalchemy.orm import Session

from dealer.disputes.asking import Question
from dealer.disputes.found import FoundSeat, matches
from dealer.ledger.accounts import seating_account
from dealer.models import Hand, LedgerEntry, as_utc

#: Seatings by id: each one's seat, player and table.
Seatings = dict[int, tuple[int, str, int]]
#: Hand by hand, entries are looked for from a batch's first deal to this long after its last
#: hand ended (a void recorded later than that is left out of those sums; the statement has
#: it, and so do `window_sums`', which read every entry of the seatings).
LATE = timedelta(minutes=10)


def _chunked(values: Sequence[Any], size: int = 900) -> Iterable[Sequence[Any]]:
    for start in range(0, len(values), size):
        yield values[start : start + size]


def hand_sums(
    session: Session, asked: Question, hands: Sequence[Any], seats: list[FoundSeat], narrowed: bool
) -> None:
    """Each seat's chips paid and received in its hand, and its payments of the amount asked
    about, summed by the database. A player's or a seat's entries are read through their
    accounts' indexes (account, time), within the batch's time: a few rows a hand."""
    by_key = {(s.hand, seating_account(s.seating)): s for s in seats}
    assert asked.end is not None, "a question in words is asked of a window: the shift"
    low = min(as_utc(h[4]) for h in hands)
    high = max(as_utc(h[5]) if h[5] is not None else asked.end for h in hands) + LATE
    accounts = sorted({account for _, account in by_key})
    same = func.sum(case((LedgerEntry.chips == (asked.amount or 0), 1), else_=0))
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
            asked_of = wanted.where(column.in_(chunk)) if chunk is not None else wanted
            for hand_id, account, chips, count in session.execute(asked_of):
                seat = by_key.get((hand_id or 0, account))
                if seat is None:
                    continue
                if paid:
                    seat.paid += int(chips)
                else:
                    seat.received += int(chips)
                seat.same += int(count or 0)
                seat.events += int(chips) == asked.amount


def _side(account: Any, paid: bool, accounts: list[str], amount: int) -> Any:
    """One side of the seatings' entries (paid: they paid), summed by account, hand and event."""
    zero = literal_column("0", Integer)
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


def _fitting_totals(accounts: list[str], amount: int) -> Any:
    """The seatings' chips by hand, only where ``amount`` shows in them."""
    sides = union_all(
        _side(LedgerEntry.from_account, True, accounts, amount),
        _side(LedgerEntry.to_account, False, accounts, amount),
    ).subquery("sides")
    paid, received, same, events = (func.sum(c) for c in list(sides.c)[2:])
    return (
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


def window_sums(
    session: Session,
    asked: Question,
    seatings: Seatings,
    tables: list[int],
    names: dict[int, str],
    limit: int,
) -> list[FoundSeat]:
    """The seats of the window's hands whose chips show the amount asked about, the newest hand
    first (``limit`` and one more). Each seating's chips are summed hand by hand and matched by
    the database, in one question: the accounts' indexes read those seatings' entries only
    (a seating sits within the window, so its entries do), and only the seats that fit come
    back, with their hands."""
    amount = asked.amount or 0
    seating_of = {seating_account(ident): ident for ident in seatings}
    if not seating_of:
        return []
    totals = _fitting_totals(sorted(seating_of), amount)
    in_seat_order = case(
        {seating_account(i): seat for i, (seat, _, _) in seatings.items()},
        value=totals.c.account,
        else_=0,
    )
    rows = session.execute(
        select(totals, Hand.number, Hand.table_id, Hand.started_at)
        .join(Hand, Hand.id == totals.c.hand_id)
        .where(
            Hand.started_at >= asked.start,
            Hand.started_at < asked.end,
            Hand.table_id.in_(tables),
        )
        .order_by(totals.c.hand_id.desc(), in_seat_order)
        .limit(limit + 1)
    )
    found = []
    for hand_id, account, paid, received, same, events, number, table_id, started in rows:
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
            paid=int(paid),
            received=int(received),
            same=int(same),
            amount=amount,
            events=int(events),
        )
        matches(s, amount)
        found.append(s)
    return found
