"""The shift ledger's window of entries, summed by the database: per account, with the cage or
not, per seating, and per bar of the drop chart (`dealer.views.documents.shift`); and from
those sums the drop by hour and the trial balance."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import ColumnElement, case, func, literal, select
from sqlalchemy.orm import Session

from dealer.ledger import CAGE, parse_account
from dealer.models import LedgerEntry, Seating, Table, as_utc
from dealer.words.catalogue import say

#: The most bars the drop chart has: a longer window is charted by day, not by hour.
MAX_BUCKETS = 48


@dataclass(frozen=True, slots=True)
class Amount:
    """Chips and what they are worth, summed table by table (chip values may differ): a
    figure over several tables. A figure of one table is chips, times its chip value."""

    chips: int = 0
    cents: int = 0

    @classmethod
    def of(cls, chips: int, chip_value_cents: int) -> Amount:
        return cls(chips, chips * chip_value_cents)

    def __add__(self, other: Amount) -> Amount:
        return Amount(self.chips + other.chips, self.cents + other.cents)


@dataclass(frozen=True, slots=True)
class HourDrop:
    """The house's drop in the hour that starts at ``start`` (UTC), all tables together."""

    start: datetime
    drop: Amount


@dataclass(frozen=True, slots=True)
class TrialLine:
    """One account of the trial balance, in chips."""

    account: str  # "T1 seat 3", "T1 house", "T1 pot", "cage"
    debits: int
    credits: int

    @property
    def balance(self) -> int:
        return self.debits - self.credits


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


def drop_by_hour(
    window: tuple[datetime, datetime], tally: Tally, tables: Mapping[int, Table]
) -> tuple[HourDrop, ...]:
    """The house's drop in each bar of the chart, all tables together."""
    buckets = drop_buckets(*window)
    by_hour = [Amount() for _ in buckets]
    for (table_id, bucket), chips in tally.by_hour.items():
        if 0 <= bucket < len(by_hour):
            by_hour[bucket] += Amount.of(chips, tables[table_id].chip_value_cents)
    return tuple(HourDrop(b, d) for b, d in zip(buckets, by_hour, strict=True))


def trial_balance(
    tally: Tally,
    seatings: dict[int, Seating],
    pot_tables: dict[int, int],
    labels: dict[int, str],
    rank: dict[int, int],
) -> tuple[TrialLine, ...]:
    """Each account's debits (chips in) and credits (chips out) in the window.

    Pots are added up per table: a shift holds thousands of hands, each with its pot.
    """
    lines: dict[tuple[int, int, int, str], AccountFigures] = defaultdict(AccountFigures)
    for account, figures in tally.accounts.items():
        p = parse_account(account)
        if p is None or p.id is None:
            name = say("cage") if account == CAGE else account
            key = (len(rank), 9, 0, name)  # the cage (or a malformed name) last
        elif p.kind == "seating":
            s = seatings[p.id]
            name = say(
                "{table} seat {seat} {player}",
                table=labels[s.table_id],
                seat=s.seat,
                player=s.player,
            )
            key = (rank[s.table_id], 0, s.seat, name)
        elif p.kind == "pot":
            table = pot_tables[p.id]
            key = (rank[table], 1, 0, say("{table} pots", table=labels[table]))
        else:
            key = (rank[p.id], 2, 0, say("{table} house", table=labels[p.id]))
        line = lines[key]
        line.debits += figures.debits
        line.credits += figures.credits
    return tuple(
        TrialLine(key[3], line.debits, line.credits) for key, line in sorted(lines.items())
    )
