"""What every gatherer reads the same way: entries' nets, the checkpoint filed, what the checks
covered and found.

The entries themselves are read by `dealer.ledger.reading.load_entries`, as the checks
read them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, fields
from datetime import datetime

from dealer.ledger.checkpoints import Checkpoint
from dealer.ledger.keys import fingerprint
from dealer.ledger.reading import StoredEntry
from dealer.ledger.verdict import Report
from dealer.words.checks import check_words
from dealer.words.ledger import engine_change_words, problem_words

__all__ = [
    "ChainCheck",
    "FiledCheckpoint",
    "chain_check",
    "change_lines",
    "filed",
    "nets",
    "problem_lines",
]


@dataclass(frozen=True, slots=True)
class FiledCheckpoint:
    """The ledger's head as filed, signed, outside the database when the document was made.

    Kept on paper, it lets anyone later see that the ledger up to it was never rewritten.
    """

    seq: int  # the keyed chain's link
    hash: str
    at: datetime
    entries: int  # the ledger's last entry then
    checked: bool  # the checks ran over everything since the last checked checkpoint: clean
    signature: str  # Ed25519, hex
    key: str  # the signing key's fingerprint


@dataclass(frozen=True, slots=True)
class ChainCheck:
    """The ledger checks' verdict, as ``GET /api/v1/ledger/verify`` gives it: what a shift ledger
    or a session report checked before it was made."""

    ok: bool
    entries: int
    head: str
    #: How many links of the keyed chain these checks recomputed under the key.
    links: int = 0
    #: The signed checkpoint they started from, trusting the links up to it (None: from the
    #: ledger's first link): its time and its link.
    since: datetime | None = None
    since_link: int = 0


def nets(entries: Iterable[StoredEntry]) -> dict[str, int]:
    """Each account's change over ``entries``: chips in less chips out."""
    out: dict[str, int] = defaultdict(int)
    for e in entries:
        out[e.from_account] -= e.chips
        out[e.to_account] += e.chips
    return dict(out)


def filed(checkpoint: Checkpoint | None) -> FiledCheckpoint | None:
    """A checkpoint as a document prints it."""
    if checkpoint is None:
        return None
    # Every field is the checkpoint's own, by the same name, but the key: its fingerprint.
    same = {f.name: getattr(checkpoint, f.name) for f in fields(FiledCheckpoint) if f.name != "key"}
    return FiledCheckpoint(**same, key=fingerprint(checkpoint.key))


def chain_check(checks: Report) -> ChainCheck:
    """What the ledger checks run before a document covered, as the document says it."""
    return ChainCheck(
        ok=checks.ok,
        entries=checks.entries,
        head=checks.head,
        links=checks.links,
        since=checks.checkpoint.at if checks.checkpoint is not None else None,
        since_link=checks.checked_from,
    )


def problem_lines(checks: Report) -> tuple[str, ...]:
    """What the checks found, each named by its check, as the red banner lists them."""
    return tuple(f"{check_words(p.check)}: {problem_words(p)}" for p in checks.problems)


def change_lines(checks: Report) -> tuple[str, ...]:
    """The hands the checks found played under another engine, each noted."""
    return tuple(engine_change_words(c) for c in checks.engine_changed)
