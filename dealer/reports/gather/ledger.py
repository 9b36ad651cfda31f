"""What every gatherer reads the same way: entries' figures, accounts as parties, people's names.

Every chip figure on a document is a sum of `LedgerEntry` rows read here; nothing is taken
from the rules engine but the words of an event.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import ColumnElement, select
from sqlalchemy.orm import Session

from dealer.ledger import parse_account
from dealer.models import LedgerEntry, User

__all__ = ["Movement", "movements", "names", "nets", "party"]


@dataclass(frozen=True, slots=True)
class Movement:
    """A ledger entry as the reports sum it."""

    seq: int
    at: datetime
    from_account: str
    to_account: str
    chips: int
    reason_code: str
    reason: str
    table_id: int
    hand_id: int | None
    event_id: int | None
    reverses: int | None


_COLUMNS = (
    LedgerEntry.seq,
    LedgerEntry.at,
    LedgerEntry.from_account,
    LedgerEntry.to_account,
    LedgerEntry.chips,
    LedgerEntry.reason_code,
    LedgerEntry.reason,
    LedgerEntry.table_id,
    LedgerEntry.hand_id,
    LedgerEntry.event_id,
    LedgerEntry.reverses,
)


def movements(session: Session, *where: ColumnElement[bool]) -> list[Movement]:
    """The entries that match ``where``, in seq order, as `Movement`\\ s."""
    rows = session.execute(select(*_COLUMNS).where(*where).order_by(LedgerEntry.seq))
    return [Movement(*row) for row in rows]


def nets(entries: Iterable[Movement]) -> dict[str, int]:
    """Each account's change over ``entries``: chips in less chips out."""
    out: dict[str, int] = defaultdict(int)
    for e in entries:
        out[e.from_account] -= e.chips
        out[e.to_account] += e.chips
    return dict(out)


def party(account: str, seat_of: Mapping[int, int]) -> str:
    """An account as the documents name a party: ``"3"`` for a seat, else pot, house, cage."""
    parsed = parse_account(account)
    if parsed is None:
        return account
    if parsed.kind == "seating" and parsed.id is not None and parsed.id in seat_of:
        return str(seat_of[parsed.id])
    return parsed.kind


def names(session: Session, ids: Iterable[int | None]) -> dict[int, str]:
    """The names of the users with these ids."""
    wanted = {i for i in ids if i is not None}
    if not wanted:
        return {}
    rows = session.execute(select(User.id, User.name).where(User.id.in_(wanted)))
    return {user_id: name for user_id, name in rows}
