"""The ledger checks a report runs before it prints (STYLE.md: checks as functions)."""

from __future__ import annotations

from sqlalchemy.orm import Session

from dealer.ledger import Report, verify
from dealer.ledger.verification import StoredEntry, load_entries

__all__ = ["run_checks"]


def run_checks(session: Session) -> tuple[Report, list[StoredEntry]]:
    """Every ledger check over the whole ledger, and the entries it read (for the figures).

    Sequence, chain, accounts, reversals, every hand replayed against its entries: what
    ``GET /api/v1/ledger/verify`` answers. The entries are read once, for both.
    """
    entries = load_entries(session)
    return verify(session, entries), entries
