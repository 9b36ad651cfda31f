"""Counting prints: every printed document is one append-only row, linked into the ledger's
keyed chain; the n-th reprint says so.

A print is counted before its document is built, in its own short write transaction, so that
the build (seconds, for a shift) never holds the writers' lock. A build that then fails leaves
a counted print no one received: the next copy says REPRINT when it might have been the
first, which errs the safe way. Two copies that both claim to be the original never happen:
the count and the row are written under the writers' lock, and ``(kind, subject, reprint)`` is
unique.
"""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from dealer.ledger.links import add_linked
from dealer.models import PRINT_KINDS, PrintRecord


def prints_so_far(session: Session, kind: str, subject: str) -> int:
    """How many times ``subject`` has been printed: the next print's reprint number."""
    if kind not in PRINT_KINDS:
        raise ValueError(f"{kind!r} is not a printed document.")
    earlier = session.scalar(
        select(func.count(PrintRecord.id)).where(
            PrintRecord.kind == kind, PrintRecord.subject == subject
        )
    )
    return int(earlier or 0)


def record_print(session: Session, kind: str, subject: str, user_id: int, device: str) -> int:
    """Count one print of ``subject``; return its reprint number (0 for the first print)."""
    reprint = prints_so_far(session, kind, subject)
    record = PrintRecord(
        kind=kind, subject=subject, reprint=reprint, user_id=user_id, device=device[:200]
    )
    add_linked(session, record)
    return reprint
