"""Figures the floor and table screens show: the shift's drop, when time is due, stacks.

Reads only. The chips come from the ledger (sums of entries); what a hand costs
comes from the rules engine itself, by dealing a hand nobody plays.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from dealer import rules
from dealer.ledger import house_account
from dealer.ledger.hands import table_collection, table_rules
from dealer.models import Hand, LedgerEntry, Seating, Table, as_utc, utcnow

__all__ = [
    "TimeDue",
    "cheapest_hand",
    "house_drop",
    "last_hand_numbers",
    "playing_hands",
    "seats_filled",
    "shift_start",
    "time_due",
]


def shift_start(now: datetime, zone: ZoneInfo, starts: str) -> datetime:
    """When the shift running at ``now`` began: the latest of ``starts`` ("06:00,14:00") passed."""
    here = as_utc(now).astimezone(zone)
    marks = sorted(time.fromisoformat(part.strip()) for part in starts.split(",") if part.strip())
    if not marks:
        marks = [time(0, 0)]
    for day in (here.date(), here.date() - timedelta(days=1)):
        for mark in reversed(marks):
            start = datetime.combine(day, mark, tzinfo=zone)
            if start <= here:
                return start.astimezone(as_utc(now).tzinfo)
    return here  # unreachable: yesterday's last mark is always before now


def house_drop(session: Session, tables: Iterable[int], since: datetime) -> dict[int, int]:
    """Each table's house take since ``since``: chips into the house minus chips out (voids)."""
    ids = list(tables)
    out = dict.fromkeys(ids, 0)
    if not ids:
        return out
    names = {house_account(t): t for t in ids}
    rows = session.execute(
        select(LedgerEntry.from_account, LedgerEntry.to_account, LedgerEntry.chips).where(
            LedgerEntry.table_id.in_(ids),
            LedgerEntry.at >= since,
            (LedgerEntry.to_account.in_(names)) | (LedgerEntry.from_account.in_(names)),
        )
    )
    for source, target, chips in rows:
        if target in names:
            out[names[target]] += chips
        if source in names:
            out[names[source]] -= chips
    return out


def playing_hands(session: Session, tables: Iterable[int]) -> dict[int, Hand]:
    """The hand in play at each table that has one."""
    ids = list(tables)
    if not ids:
        return {}
    hands = session.scalars(select(Hand).where(Hand.table_id.in_(ids), Hand.status == "playing"))
    return {h.table_id: h for h in hands}


def last_hand_numbers(session: Session, tables: Iterable[int]) -> dict[int, int]:
    ids = list(tables)
    if not ids:
        return {}
    rows = session.execute(
        select(Hand.table_id, func.max(Hand.number))
        .where(Hand.table_id.in_(ids))
        .group_by(Hand.table_id)
    )
    return {table_id: number for table_id, number in rows}


def seats_filled(session: Session, tables: Iterable[int]) -> dict[int, int]:
    ids = list(tables)
    out = dict.fromkeys(ids, 0)
    if not ids:
        return out
    rows = session.execute(
        select(Seating.table_id, func.count())
        .where(Seating.table_id.in_(ids), Seating.left_at.is_(None))
        .group_by(Seating.table_id)
    )
    for table_id, count in rows:
        out[table_id] = count
    return out


def cheapest_hand(table: Table) -> int:
    """The least one hand costs a seat at ``table``: its fees before the deal, ante and drop.

    Asked of the engine: deal a hand nobody plays and see what dropping at once
    cost. A stack below this cannot cover even a hand sat out.
    """
    hand = rules.Hand(table_rules(table), [1, 2, 3], table_collection(table))
    hand.apply(rules.Drop(1))
    return -hand.net[1]


@dataclass(frozen=True, slots=True)
class TimeDue:
    """The time collection at a table: when it was last taken and when it is next due."""

    chips: int
    minutes: int
    last: datetime | None
    #: None: due now (never taken at this table).
    due_at: datetime | None

    @property
    def due(self) -> bool:
        return self.due_at is None or utcnow() >= self.due_at

    @property
    def minutes_left(self) -> int:
        if self.due_at is None:
            return 0
        return max(0, int((self.due_at - utcnow()).total_seconds() // 60) + 1)


def time_due(session: Session, table: Table) -> TimeDue | None:
    """When the time collection is next due (None unless the table collects by time).

    Due ``minutes`` after it was last taken, and at once if it never was: the same
    answer as the API's ``time_collection`` of the table.
    """
    collection = table_collection(table)
    if collection.kind != "time":
        return None
    last = session.scalar(
        select(func.max(LedgerEntry.at)).where(
            LedgerEntry.table_id == table.id,
            LedgerEntry.to_account == house_account(table.id),
            LedgerEntry.reason_code == "collection",
            LedgerEntry.hand_id.is_(None),
        )
    )
    if last is None:
        return TimeDue(collection.chips, collection.minutes, None, None)
    taken = as_utc(last)
    return TimeDue(
        collection.chips, collection.minutes, taken, taken + timedelta(minutes=collection.minutes)
    )
