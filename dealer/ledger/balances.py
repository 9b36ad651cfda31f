"""Balances: always sums of ledger entries, never stored totals."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from dealer.ledger.reading import chunks
from dealer.models import LedgerEntry


def balances(session: Session, accounts: Iterable[str]) -> dict[str, int]:
    """Each of ``accounts``' balance: chips in minus chips out, over the whole ledger."""
    names = sorted(set(accounts))
    out = dict.fromkeys(names, 0)
    if not names:
        return out
    for account, sign in ((LedgerEntry.to_account, 1), (LedgerEntry.from_account, -1)):
        summed = select(account, func.sum(LedgerEntry.chips)).where(account.in_(names))
        for name, chips in session.execute(summed.group_by(account)):
            out[name] += sign * int(chips)
    return out


def balance(session: Session, account: str) -> int:
    return balances(session, [account])[account]


def hand_net(session: Session, hand_id: int) -> dict[str, int]:
    """Each account's change over the entries of one hand."""
    return hands_nets(session, [hand_id]).get(hand_id, {})


def hands_nets(session: Session, hand_ids: Iterable[int]) -> dict[int, dict[str, int]]:
    """Each of these hands' entries summed (by the database) into each account's change."""
    out: dict[int, dict[str, int]] = {}
    for chunk in chunks(hand_ids):
        rows = session.execute(
            select(
                LedgerEntry.hand_id,
                LedgerEntry.from_account,
                LedgerEntry.to_account,
                func.sum(LedgerEntry.chips),
            )
            .where(LedgerEntry.hand_id.in_(chunk))
            .group_by(LedgerEntry.hand_id, LedgerEntry.from_account, LedgerEntry.to_account)
        )
        for hand_id, source, target, chips in rows:
            assert hand_id is not None  # asked for by id
            net = out.setdefault(hand_id, {})
            net[source] = net.get(source, 0) - int(chips)
            net[target] = net.get(target, 0) + int(chips)
    return out
