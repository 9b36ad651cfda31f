"""The shift ledger's window of entries, summed by the database: per account, with the cage or
not, per seating, and per bar of the drop chart (`dealer.views.documents.shift`)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import ColumnElement, case, func, literal, select
from sqlalchemy.orm import Session

from dealer.ledger import CAGE, parse_account
from dealer.models import LedgerEntry, as_utc

__all__ = ["MAX_BUCKETS", "AccountFigures", "SeatFigures", "Tally", "drop_buckets", "window_tally"]

#: The most bars the drop chart has: a longer window is charted by day, not by hour.
MAX_BUCKETS = 48


def drop_buckets(window_from: datetime, window_to: datetime) -> list[datetime]:
    """The starts of the chart's bars: each hour of the window (each day, for a long one)."""
    step = timedelta(hours=1)
    start = as_utc(window_from).replace(minute=0, second=0, microsecond=0)
    end = as_utc(window_to)
    if (end - start) / step > MAX_BUCKETS:
        step = timedelta(days=1)
        start = start.replace(hour=0)
    out = []
    while start < end:
        out.append(start)
        start += step
    return out


@dataclass(slots=True)
class SeatFigures:
    """One seating's figures over the window."""

    buy_ins: int = 0
    cash_outs: int = 0
    net: int = 0
    hands: int = 0


@dataclass(slots=True)
class AccountFigures:
    debits: int = 0
    credits: int = 0


@dataclass(slots=True)
class Tally:
    """The window's entries, summed as the report needs them."""

    seats: dict[int, SeatFigures] = field(default_factory=lambda: defaultdict(SeatFigures))
    house: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    accounts: dict[str, AccountFigures] = field(default_factory=lambda: defaultdict(AccountFigures))
    by_hour: dict[tuple[int, int], int] = field(default_factory=lambda: defaultdict(int))


def window_tally(session: Session, window_from: datetime, window_to: datetime) -> Tally:
    """The entries made in the window, summed by the database: per account, with the cage or
    not, per bar of the drop chart."""
    tally = Tally()
    buckets = drop_buckets(window_from, window_to)
    bucket: ColumnElement[int] = (
        case(
            *((LedgerEntry.at < start, n) for n, start in enumerate(buckets[1:])),
            else_=len(buckets) - 1,
        )
        if len(buckets) > 1
        else literal(0)
    )
    in_window = (LedgerEntry.at >= window_from, LedgerEntry.at < window_to)
    parsed: dict[str, tuple[str, int | None]] = {}
    sides = (
        (LedgerEntry.to_account, LedgerEntry.from_account, 1),
        (LedgerEntry.from_account, LedgerEntry.to_account, -1),
    )
    for column, other, sign in sides:
        with_cage = (other == CAGE).label("with_cage")
        bar = bucket.label("bar")
        rows = session.execute(
            select(column, with_cage, bar, func.sum(LedgerEntry.chips))
            .where(*in_window)
            .group_by(column, with_cage, bar)
        )
        for account, cage, at_bar, summed in rows:
            chips = int(summed)
            if sign > 0:
                tally.accounts[account].debits += chips
            else:
                tally.accounts[account].credits += chips
            kind_id = parsed.get(account)
            if kind_id is None:
                p = parse_account(account)
                kind_id = parsed[account] = (p.kind, p.id) if p is not None else ("?", None)
            kind, number = kind_id
            if kind == "house" and number is not None:
                tally.house[number] += sign * chips
                tally.by_hour[number, int(at_bar)] += sign * chips
            elif kind == "seating" and number is not None:
                seat = tally.seats[number]
                if cage and sign > 0:
                    seat.buy_ins += chips
                elif cage:
                    seat.cash_outs += chips
                else:
                    seat.net += sign * chips
    return tally
