"""The ledger checks every report runs before it prints (STYLE.md: checks as functions)."""

from __future__ import annotations

from sqlalchemy.orm import Session

from dealer.ledger import Report, verify

__all__ = ["run_checks"]


def run_checks(session: Session) -> Report:
    """Every ledger check over the whole ledger: sequence, chain, accounts, reversals, hands."""
    return verify(session)
