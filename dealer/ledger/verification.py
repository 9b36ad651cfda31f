"""Run every ledger check against the database: what `ledger verify` and the API report."""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.orm import Session

from dealer.models import Hand, LedgerEntry

from .chain import GENESIS
from .checks import (
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

__all__ = ["Report", "verify"]


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


def verify(session: Session) -> Report:
    """Check the whole ledger, and every hand's replay against its entries and its row."""
    entries = list(session.scalars(select(LedgerEntry).order_by(LedgerEntry.seq)))
    report = Report(len(entries), entries[-1].hash if entries else GENESIS)
    problems = report.problems
    problems += check_sequence(entries)
    problems += check_chain(entries)
    problems += check_accounts(entries)
    problems += check_reversals(entries)
    statuses: dict[int, str] = {}
    figures: list[Figure] = []
    hands = session.scalars(select(Hand).order_by(Hand.id))
    for hand, replayed in replay_all(session, hands):
        statuses[hand.id] = hand.status
        if isinstance(replayed, str):
            problems.append(Problem("replay", replayed, hand=hand.id))
            continue
        engine = replayed.engine
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
