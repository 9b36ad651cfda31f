"""Run every ledger check against the database: what `ledger verify` and the API report."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from sys import intern

from sqlalchemy import ColumnElement, select
from sqlalchemy.orm import Session

from dealer.models import Hand, LedgerEntry

from .chain import GENESIS
from .checks import (
    Checked,
    Figure,
    Problem,
    check_accounts,
    check_balances,
    check_chain,
    check_hands_net_zero,
    check_reversals,
    check_sequence,
)
from .hands import account_of, replay_all

__all__ = ["Report", "StoredEntry", "load_entries", "verify"]

#: Every column of a ledger entry, in `StoredEntry`'s order.
FIELDS = (
    "seq",
    "at",
    "from_account",
    "to_account",
    "chips",
    "reason_code",
    "reason",
    "table_id",
    "hand_id",
    "event_id",
    "user_id",
    "device",
    "reverses",
    "prev_hash",
    "hash",
)


class StoredEntry:
    """A ledger entry as the checks (and the reports) read it: its columns and nothing else.

    The checks read every entry of the ledger; an ORM object costs several times as much to
    build and to read, and holds several times the memory.
    """

    __slots__ = FIELDS

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
    user_id: int
    device: str
    reverses: int | None
    prev_hash: str
    hash: str

    def __init__(
        self,
        seq: int,
        at: datetime,
        from_account: str,
        to_account: str,
        chips: int,
        reason_code: str,
        reason: str,
        table_id: int,
        hand_id: int | None,
        event_id: int | None,
        user_id: int,
        device: str,
        reverses: int | None,
        prev_hash: str,
        hash: str,
    ) -> None:
        self.seq = seq
        self.at = at
        self.from_account = from_account
        self.to_account = to_account
        self.chips = chips
        self.reason_code = reason_code
        self.reason = reason
        self.table_id = table_id
        self.hand_id = hand_id
        self.event_id = event_id
        self.user_id = user_id
        self.device = device
        self.reverses = reverses
        self.prev_hash = prev_hash
        self.hash = hash


def load_entries(session: Session, *where: ColumnElement[bool]) -> list[StoredEntry]:
    """The entries that match ``where`` (all of them by default), in seq order.

    Read as a stream (not all rows first, then the entries); the texts that repeat from entry
    to entry (accounts, reasons, devices, the hash an entry shares with the next one's
    ``prev_hash``) are kept once: a busy shift is a quarter of a million entries.
    """
    columns = [getattr(LedgerEntry, name) for name in FIELDS]
    query = select(*columns).where(*where).order_by(LedgerEntry.seq)
    out: list[StoredEntry] = []
    last = ""
    for row in session.connection().execute(query):
        (seq, at, source, target, chips, code, reason, table, hand, event, user, device) = row[:12]
        reverses, prev_hash, own_hash = row[12:]
        out.append(
            StoredEntry(
                seq,
                at,
                intern(source),
                intern(target),
                chips,
                intern(code),
                intern(reason),
                table,
                hand,
                event,
                user,
                intern(device),
                reverses,
                last if prev_hash == last else prev_hash,
                own_hash,
            )
        )
        last = own_hash
    return out


@dataclass(slots=True)
class Report:
    """The outcome of all checks: ``ok`` when there is no problem."""

    entries: int
    head: str
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def as_dict(self) -> dict[str, object]:
        return {
            "ok": self.ok,
            "entries": self.entries,
            "head": self.head,
            "problems": [p.as_dict() for p in self.problems],
        }


def verify(session: Session, entries: Sequence[Checked] | None = None) -> Report:
    """Check the whole ledger, and every hand's replay against its entries and its row.

    ``entries`` are the whole ledger in seq order, when the caller has read them already.
    """
    if entries is None:
        entries = load_entries(session)
    report = Report(len(entries), entries[-1].hash if entries else GENESIS)
    problems = report.problems
    problems += check_sequence(entries)
    problems += check_chain(entries)
    problems += check_accounts(entries)
    problems += check_reversals(entries)
    statuses: dict[int, str] = {}
    figures: list[Figure] = []
    hands = session.scalars(select(Hand).order_by(Hand.id))
    for hand, engine in replay_all(session, hands):
        statuses[hand.id] = hand.status
        if isinstance(engine, str):
            problems.append(Problem("replay", engine, hand=hand.id))
            continue
        if (engine.status, engine.winner) != (hand.status, hand.winner):
            problems.append(
                Problem(
                    "replay",
                    f"Hand {hand.id} is stored as {hand.status} (winner {hand.winner}) but "
                    f"replays as {engine.status} (winner {engine.winner}).",
                    hand=hand.id,
                )
            )
        source = f"Hand {hand.id} replayed"
        figures += [
            Figure(account_of(hand, party), chips, source, hand.id)
            for party, chips in engine.net.items()
        ]
    problems += check_hands_net_zero(entries, statuses)
    problems += check_balances(entries, figures)
    return report
