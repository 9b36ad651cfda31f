"""What every gatherer reads the same way: entries' nets, the checkpoint filed, what the checks
found (what they covered is the API's own verification view, `dealer.views.ledger`).

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


def problem_lines(checks: Report) -> tuple[str, ...]:
    """What the checks found, each named by its check, as the red banner lists them."""
    return tuple(f"{check_words(p.check)}: {problem_words(p)}" for p in checks.problems)


def change_lines(checks: Report) -> tuple[str, ...]:
    """The hands the checks found played under another engine, each noted."""
    return tuple(engine_change_words(c) for c in checks.engine_changed)
