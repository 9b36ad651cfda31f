"""Figures the floor reads: the shift's start and drop, hands dealt, seats filled, who deals
where, and the least a hand costs a seat.

Reads only. The chips come from the ledger (sums of entries); what a hand costs
comes from the rules engine itself, by dealing a hand nobody plays.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from dealer import rules
from dealer.floor.tables import stacks
from dealer.floor.time_collection import times_due
from dealer.ledger.accounts import house_account
from dealer.ledger.replay import table_collection, table_rules
from dealer.models import Down, Hand, LedgerEntry, Seating, Table


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


def dealing_now(session: Session) -> dict[int, str]:
    """Who deals at each table with an open session: table id -> the dealer's name."""
    open_downs = session.scalars(select(Down).where(Down.closed_at.is_(None)))
    return {s.table_id: s.dealer.name for s in open_downs}


def recent_hands(session: Session, table_id: int, count: int = 6) -> list[Hand]:
    """The table's last ``count`` hands, newest first."""
    query = select(Hand).where(Hand.table_id == table_id).order_by(Hand.number.desc())
    return list(session.scalars(query.limit(count)))


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
class FloorFlags:
    """What the floor must see to at one table now."""

    #: Seats whose stack cannot cover the cheapest hand (`cheapest_hand`), or that owe chips.
    short_stacks: int = 0
    #: The table collects by time and the collection is due.
    time_due: bool = False
    #: A dealer's down ended and waits for a supervisor to confirm its close.
    awaiting_supervisor: bool = False

    def __bool__(self) -> bool:
        return bool(self.short_stacks or self.time_due or self.awaiting_supervisor)


def floor_flags(session: Session, tables: Sequence[Table]) -> dict[int, FloorFlags]:
    """Each table's flags for the floor: short stacks, time collection due, a close waiting.

    The short-stack bound is the table screen's: below what one hand costs a seat that
    drops at once (`cheapest_hand`), so the seat cannot even sit a hand out.
    """
    ids = [t.id for t in tables]
    if not ids:
        return {}
    seated = list(
        session.scalars(select(Seating).where(Seating.table_id.in_(ids), Seating.left_at.is_(None)))
    )
    stack = stacks(session, seated)
    least = {t.id: cheapest_hand(t) for t in tables}
    short = dict.fromkeys(ids, 0)
    for seating in seated:
        chips = stack[seating.id]
        if chips < 0 or chips < least[seating.table_id]:
            short[seating.table_id] += 1
    waiting = set(
        session.scalars(
            select(Down.table_id).where(
                Down.table_id.in_(ids),
                Down.closed_at.is_not(None),
                Down.close_confirmed_by.is_(None),
            )
        )
    )
    dues = times_due(session, tables)
    flags = {}
    for table in tables:
        due = dues[table.id]
        flags[table.id] = FloorFlags(
            short_stacks=short[table.id],
            time_due=due is not None and due.due,
            awaiting_supervisor=table.id in waiting,
        )
    return flags
