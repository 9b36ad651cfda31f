"""What every gatherer reads the same way: entries' nets, checkpoints, what the checks found.

The entries themselves are read by `dealer.ledger.reading.load_entries`, as the checks
read them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import fields

from dealer.ledger.checkpoints import Checkpoint
from dealer.ledger.keys import fingerprint
from dealer.ledger.reading import StoredEntry
from dealer.ledger.verdict import Report
from dealer.views.documents.model import ChainCheck, FiledCheckpoint
from dealer.words.checks import check_words

__all__ = ["chain_check", "filed", "nets", "problem_lines"]


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
    return tuple(f"{check_words(p.check)}: {p.message}" for p in checks.problems)
