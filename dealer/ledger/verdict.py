"""What the ledger checks found: the report `verify` returns, as the API and the documents
read it."""

from __future__ import annotations

from dataclasses import dataclass, field

from dealer.ledger.chain import GENESIS
from dealer.ledger.checkpoints import Checkpoint, Head
from dealer.ledger.checks import Problem

__all__ = ["CHAIN_CHECKS", "EngineChange", "Report"]

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
    """A hand that no longer replays as recorded under the engine installed: not tampering."""

    hand: int
    played_under: str | None
    message: str

    def as_dict(self) -> dict[str, object]:
        return {"hand": self.hand, "played_under": self.played_under, "message": self.message}


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

    def as_dict(self) -> dict[str, object]:
        start = self.checkpoint
        return {
            "ok": self.ok,
            "entries": self.entries,
            "head": self.head,
            "problems": [p.as_dict() for p in self.problems],
            "full": self.full,
            "chain": {"seq": self.chain.seq, "hash": self.chain.hash},
            "checked_from": self.checked_from,
            "checkpoint": None
            if start is None
            else {"seq": start.seq, "hash": start.hash, "at": start.at.isoformat()},
            "checkpoints": self.checkpoints,
            "links_checked": self.links,
            "hands_checked": self.hands_checked,
            "hands_replayed": self.hands,
            "engine": self.engine,
            "engine_changed": [c.as_dict() for c in self.engine_changed],
        }
