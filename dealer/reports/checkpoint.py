"""The ledger's checkpoint as a document prints it: what a later check holds the ledger to."""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape
from zoneinfo import ZoneInfo

from reportlab.platypus import Flowable, Spacer

from dealer.reports.figures import local_time
from dealer.reports.layout import banner, note, pairs, section
from dealer.views.documents.ledger import FiledCheckpoint
from dealer.views.ledger import VerificationView
from dealer.words.catalogue import say
from dealer.words.checks import checked_words, clean_words, failed_line, failed_words


def checks_banner(problems: Sequence[str], width: float) -> list[Flowable]:
    """The red banner at the top of a document whose checks found ``problems`` (none: nothing)."""
    if not problems:
        return []
    return [banner(failed_words(len(problems)), problems, width), Spacer(1, 8)]


def checked_text(chain: VerificationView, tz: ZoneInfo) -> str:
    """What the checks recomputed: from which signed checkpoint, how many links."""
    since = local_time(chain.checkpoint.at, tz) if chain.checkpoint is not None else None
    return checked_words(chain.links_checked, since, chain.checked_from)


def verdict_text(chain: VerificationView, checkpoint: FiledCheckpoint | None) -> str:
    """The checks' verdict: clean up to the checkpoint filed, or failed (the banner says why)."""
    if not chain.ok:
        return failed_line()
    return clean_words(checkpoint.seq if checkpoint is not None else 0)


def checkpoint_section(
    checkpoint: FiledCheckpoint | None, tz: ZoneInfo, width: float
) -> list[Flowable]:
    """The checkpoint filed when the document was made: its link, hash, key and signature.

    Kept on paper, it cannot be rewritten with the database: a ledger changed behind it no
    longer gives this hash at this link.
    """
    title = section(say("Ledger checkpoint"))
    if checkpoint is None:
        return [*title, note(escape(say("Nothing is recorded yet: no checkpoint was filed.")))]
    at = local_time(checkpoint.at, tz)
    if checkpoint.checked:
        filed = say("{at} - checked", at=at)
    else:
        filed = say("{at} - filed unchecked", at=at)
    link = say("{seq} (ledger entry {entry})", seq=checkpoint.seq, entry=checkpoint.entries)
    items = [
        (say("link"), link),
        (say("filed"), filed),
        (say("hash"), checkpoint.hash),
        (say("signing key"), checkpoint.key),
        (say("signature"), checkpoint.signature),
    ]
    return [*title, pairs(items, width, columns=1, label_share=0.16)]
