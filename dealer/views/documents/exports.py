"""The exports' rows: every entry of a window (as the API reads an entry), and each player's
session (seating) in it.

Either end of the window may be open (None): from the first entry, up to now.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, and_, func, or_, select, true
from sqlalchemy.orm import Session

from dealer.ledger import CAGE, seating_account
from dealer.models import LedgerEntry, Seating, Table, User
from dealer.views.ledger import EntryView, entry_view

#: Rows fetched from the database at a time while an export streams.
BATCH = 2000


@dataclass(frozen=True, slots=True)
class PlayerSessionRow:
    """One player's session at a table, in chips, as PokerNow's ledger lays it out."""

    player_nickname: str
    player_id: int | None  # the player record's id; None for a seating of no player record
    session_start_at: datetime
    session_end_at: datetime | None  # None while still seated
    buy_in: int
    buy_out: int
    stack: int  # chips still in front of the player at the end of the window
    seating: int  # the seating's own id (its ledger account is seating:<id>)

    @property
    def net(self) -> int:
        """What the player is up (+) or down (-): out and on the table, less what went in."""
        return self.buy_out + self.stack - self.buy_in


def _window(column: Any, start: datetime | None, end: datetime | None) -> ColumnElement[bool]:
    where: ColumnElement[bool] = true()
    if start is not None:
        where = and_(where, column >= start)
    if end is not None:
        where = and_(where, column < end)
    return where


def ledger_rows(
    session: Session, start: datetime | None, end: datetime | None
) -> Iterator[EntryView]:
    """Every entry made in the window, in seq order, read from the database in batches."""
    seat_of = {i: seat for i, seat in session.execute(select(Seating.id, Seating.seat))}
    users = {i: name for i, name in session.execute(select(User.id, User.name))}
    tables = {i: name for i, name in session.execute(select(Table.id, Table.name))}
    query = (
        select(LedgerEntry)
        .where(_window(LedgerEntry.at, start, end))
        .order_by(LedgerEntry.seq)
        .execution_options(yield_per=BATCH)
    )
    for entry in session.scalars(query):
        table_name, user = tables.get(entry.table_id, ""), users.get(entry.user_id, "")
        yield entry_view(entry, seat_of, table_name, user)
        session.expunge(entry)  # keep the identity map from growing with the export


def player_session_rows(
    session: Session, start: datetime | None, end: datetime | None
) -> list[PlayerSessionRow]:
    """One row per seating that overlaps the window, PokerNow's ledger layout.

    A seating that began before the window is counted from its start, so that its
    ``net = buy_out + stack - buy_in`` always holds; the stack is what it held at the end of
    the window. ``player_id`` is the player's id when the seating belongs to a player record
    (None for a seating of none); ``seating`` is the seating's own id.
    """
    overlaps = and_(
        _window(Seating.seated_at, None, end),
        or_(Seating.left_at.is_(None), _window(Seating.left_at, start, None)),
    )
    seatings = list(
        session.scalars(select(Seating).where(overlaps).order_by(Seating.seated_at, Seating.id))
    )
    accounts = {seating_account(s.id) for s in seatings}
    buy_in: dict[str, int] = defaultdict(int)
    buy_out: dict[str, int] = defaultdict(int)
    stack: dict[str, int] = defaultdict(int)
    up_to_end = _window(LedgerEntry.at, None, end)
    for column, sign in ((LedgerEntry.to_account, 1), (LedgerEntry.from_account, -1)):
        other = LedgerEntry.from_account if sign > 0 else LedgerEntry.to_account
        with_cage = (other == CAGE).label("with_cage")
        rows = session.execute(
            select(column, with_cage, func.sum(LedgerEntry.chips))
            .where(up_to_end, column.like("seating:%"))
            .group_by(column, with_cage)
        )
        for account, cage, chips in rows:
            if account not in accounts:
                continue
            stack[account] += sign * int(chips)
            if cage:
                (buy_in if sign > 0 else buy_out)[account] += int(chips)
    return [
        PlayerSessionRow(
            player_nickname=s.player,
            player_id=s.player_id,
            session_start_at=s.seated_at,
            session_end_at=s.left_at,
            buy_in=buy_in[seating_account(s.id)],
            buy_out=buy_out[seating_account(s.id)],
            stack=stack[seating_account(s.id)],
            seating=s.id,
        )
        for s in seatings
    ]
