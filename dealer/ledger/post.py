"""`post`: the one place chip movements are written."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, select
from sqlalchemy.orm import Session

from dealer import write_behind
from dealer.ledger.accounts import parse_account
from dealer.ledger.chain import ENTRY_COLUMNS, GENESIS, entry_hash
from dealer.ledger.heads import head, moved
from dealer.ledger.links import link_entries
from dealer.models import LedgerEntry, utcnow
from dealer.transactions import require_writing

DEVICE_LENGTH = 200
#: Where a transaction keeps the entries it posted (its session's ``info``): they go in on
#: the connection, unseen by the unit of work, and this is what happened for whoever marks
#: the screens that show them (`dealer.live`, at commit).
POSTED = "ledger_posted"


@dataclass(frozen=True, slots=True)
class Posting:
    """A movement to record: ``chips`` (> 0) from one account to another, and why."""

    from_account: str
    to_account: str
    chips: int
    reason_code: str
    reason: str
    hand_id: int | None = None
    event_id: int | None = None
    #: The seq of the entry this one corrects.
    reverses: int | None = None

    def columns(self) -> dict[str, Any]:
        """The entry's columns this posting gives, each named as the entry names it."""
        return {name: getattr(self, name) for name in _POSTING_FIELDS}


_POSTING_FIELDS = tuple(f.name for f in fields(Posting))


@dataclass(frozen=True, slots=True)
class Recorder:
    """Who recorded a movement, and on which device."""

    user_id: int
    device: str


def post(
    session: Session,
    table_id: int,
    postings: Iterable[Posting],
    recorder: Recorder,
    *,
    link: bool = True,
) -> list[LedgerEntry]:
    """Append ``postings`` to the ledger inside the caller's write transaction.

    Each gets the next gapless ``seq``, the same UTC time, a hash chained to the entry
    before it, and a link in the keyed chain. Nothing is committed here: the caller's transaction
    commits the entries with the event that caused them, or neither. ``link=False``: the
    caller links them itself before the transaction ends (`links.link_event` links an event
    and its entries in one statement).
    """
    entries = unchained(table_id, postings, recorder)
    chain(session, entries)
    if link:
        link_entries(session, entries)
    return entries


def unchained(table_id: int, postings: Iterable[Posting], recorder: Recorder) -> list[LedgerEntry]:
    """The entries of ``postings``, all but their place in the chain (their seq, time and
    hashes, which `chain` gives them under the writers' lock): made before it is taken."""
    # What every entry of this post shares: its table and who recorded it.
    shared = {
        "table_id": table_id,
        "user_id": recorder.user_id,
        "device": recorder.device[:DEVICE_LENGTH],
    }
    entries = []
    for posting in postings:
        _check(posting)
        entries.append(LedgerEntry(**shared, **posting.columns()))
    return entries


def chain(session: Session, entries: Sequence[LedgerEntry], at: datetime | None = None) -> None:
    """Append ``entries`` (`unchained`) to the ledger at ``at`` (now, under the writers' lock,
    unless given), each with the next gapless seq and a hash chained to the entry before it,
    written in one statement."""
    require_writing(session, "ledger.post")
    if not entries:
        return
    at = at or utcnow()
    seq, prev_hash = head(session, "ledger_head", lambda: _read_head(session))
    for entry in entries:
        seq += 1
        entry.seq, entry.at, entry.prev_hash = seq, at, prev_hash
        entry.hash = prev_hash = entry_hash(entry)
    # Rows still pending (a seating, a hand) go first: the entries may name them.
    session.flush()
    # The entries go in on the connection, one statement for them all, not through the
    # unit of work, whose flush cost more than the statement (bench/api.py's profile).
    # The objects returned are not in the session: a later query in this transaction
    # reads the rows; they are kept as posted (`POSTED`) for the screens' live marks.
    # PostgreSQL: queued, sent with the rest of the write's rows in one round trip.
    write_behind.add_rows(
        session, _ENTRIES, [{name: getattr(e, name) for name in ENTRY_COLUMNS} for e in entries]
    )
    session.info.setdefault(POSTED, []).extend(entries)
    moved(session, "ledger_head", seq, prev_hash)


def keep_heads(session: Session, rows: Iterable[Any]) -> None:
    """Keep for the transaction both chains' heads, read with the write's first row (an
    event's, `dealer.hands.record`): ``rows`` of (name, seq, hash), none for an empty chain."""
    found = {name: (seq, last) for name, seq, last in rows}
    for name in ("ledger_head", "links_head"):
        moved(session, name, *found.get(name, (0, GENESIS)))


_ENTRIES = cast(Table, LedgerEntry.__table__)


def _read_head(session: Session) -> tuple[int, str]:
    last = session.execute(
        select(LedgerEntry.seq, LedgerEntry.hash).order_by(LedgerEntry.seq.desc()).limit(1)
    ).first()
    return (last.seq, last.hash) if last else (0, GENESIS)


def _check(posting: Posting) -> None:
    """Refuse a movement no rule could have made; these are programming errors, not input."""
    chips = posting.chips
    if isinstance(chips, bool) or not isinstance(chips, int) or chips <= 0:
        raise ValueError(f"A ledger entry moves a whole number of chips above 0, not {chips!r}.")
    for name in (posting.from_account, posting.to_account):
        if parse_account(name) is None:
            raise ValueError(f"{name!r} is not a ledger account.")
    if posting.from_account == posting.to_account:
        raise ValueError("A ledger entry moves chips between two different accounts.")
