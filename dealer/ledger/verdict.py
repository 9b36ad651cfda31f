"""What the ledger checks found: the report `verify` returns (the API's answer and the
documents say it: `dealer.views.ledger`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from dealer.ledger.chain import GENESIS
from dealer.ledger.checkpoints import Checkpoint, Head
from dealer.ledger.checks import Problem

#: The checks that find a rewritten history (not a hand the engine no longer agrees with).
CHAIN_CHECKS = frozenset(
    {
        "sequence",
        "chain",
        "events",
        "prints",
        "disputes",
        "audit",
        "unkeyed",
        "checkpoint",
        "identity",
    }
)


@dataclass(frozen=True, slots=True)
class EngineChange:
    """A hand that no longer replays as recorded under the engine ``installed``, played under
    another: not tampering. ``found``: the first thing that no longer adds up."""

    hand: int
    played_under: str | None
    installed: str
    found: Problem


@dataclass(slots=True)
class Report:
    """The outcome of the checks: ``ok`` when there is no problem (engine changes are not)."""

    entries: int
    head: str
    problems: list[Problem] = field(default_factory=list)
    #: The keyed chain's head the checks reached.
    chain: Head = field(default_factory=lambda: Head(0, GENESIS, None))
    full: bool = False
    #: Links after this one were checked; the checkpoint that was started from, if any.
    checked_from: int = 0
    checkpoint: Checkpoint | None = None
    checkpoints: int = 0
    links: int = 0
    #: Hands held to their entries and events, and those of them replayed through the engine.
    hands_checked: int = 0
    hands: int = 0
    engine: str = ""
    engine_changed: list[EngineChange] = field(default_factory=list)
    #: Each replayed hand's entries, summed by the database (a report reuses them).
    nets: dict[int, dict[str, int]] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.problems
