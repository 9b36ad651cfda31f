"""The ledger's checkpoint as a document prints it: what a later check holds the ledger to."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from reportlab.platypus import Flowable

from dealer.reports.figures import local_time
from dealer.reports.layout import note, pairs, section
from dealer.views.documents.model import FiledCheckpoint

__all__ = ["checkpoint_section"]


def checkpoint_section(
    checkpoint: FiledCheckpoint | None, tz: ZoneInfo, width: float
) -> list[Flowable]:
    """The checkpoint filed when the document was made: its link, hash, key and signature.

    Kept on paper, it cannot be rewritten with the database: a ledger changed behind it no
    longer gives this hash at this link.
    """
    title = section("Ledger checkpoint")
    if checkpoint is None:
        return [*title, note("Nothing is recorded yet: no checkpoint was filed.")]
    state = "checked" if checkpoint.checked else "filed unchecked"
    items = [
        ("link", f"{checkpoint.seq} (ledger entry {checkpoint.entries})"),
        ("filed", f"{local_time(checkpoint.at, tz)} - {state}"),
        ("hash", checkpoint.hash),
        ("signing key", checkpoint.key),
        ("signature", checkpoint.signature),
    ]
    return [*title, pairs(items, width, columns=1, label_share=0.16)]
