"""What every table shares: the kinds of things stored, and the clock's UTC."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, TypeVar

import sqlalchemy as sa
from sqlalchemy.orm import Session

from dealer.bounds import MAX_ID
from dealer.errors import NotFound

if TYPE_CHECKING:
    pass

Row = TypeVar("Row")


def by_id(session: Session, model: type[Row], ident: int, unknown: str, code: str) -> Row:
    """The row of ``model`` with id ``ident``; else refused as `NotFound` with the sentence
    ``unknown`` (naming what was asked for) and ``code``. An id no row can have is refused
    without asking the database."""
    found = session.get(model, ident) if 1 <= ident <= MAX_ID else None
    if found is None:
        raise NotFound(unknown, code)
    return found


#: Roles from least to most trusted; each may do everything the ones before it may.
ROLES = ("dealer", "supervisor", "admin")


HAND_STATUSES = ("playing", "settled", "void")


#: The printed documents whose prints are counted (for the REPRINT stamp).
PRINT_KINDS = ("hand_slip", "session", "shift")


#: What the keyed chain links: ledger entries, hands' events, the print log, disputes opened
#: on hands and the rulings that close them, the audit trail, and the database's own record
#: of each checkpoint filed.
LINK_KINDS = ("entry", "event", "print", "dispute", "ruling", "audit", "checkpoint", "version")


#: The rows that say whose the chips are, under what rules and who may act where, each version of
#: which is kept (`IdentityVersion`) and linked: users, tables (and their settings), seatings,
#: players, dealers' sessions, dealers' assignments to tables.
IDENTITY_KINDS = ("user", "table", "seating", "player", "session", "assignment")


#: Who raised a dispute: a seat (its player) or the dealer.
DISPUTE_RAISERS = ("seat", "dealer")


#: A ruling upholds the claim (a void or a correction followed) or denies it.
DISPUTE_OUTCOMES = ("upheld", "denied")


# Timestamps are stored with a time zone where the database keeps one (PostgreSQL)
# and as UTC wall time where it does not (SQLite); `as_utc` reads both the same way.
Timestamp = sa.DateTime(timezone=True)


def utcnow() -> datetime:
    return datetime.now(UTC)


def as_utc(moment: datetime) -> datetime:
    """A stored time as an aware UTC datetime, whichever database it came from."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def _in(column: str, values: tuple[str, ...]) -> str:
    return f"{column} IN ({', '.join(repr(v) for v in values)})"


def unique_where(name: str, *columns: str, where: str) -> sa.Index:
    """A unique index over ``columns`` among the rows for which ``where`` holds, on both
    databases (a partial index): at most one such row, even when two tablets write at once."""
    return sa.Index(
        name, *columns, unique=True, sqlite_where=sa.text(where), postgresql_where=sa.text(where)
    )
