"""The head of a chain (the ledger's entries, the keyed links) as this write left it.

Both chains are appended to only under the writers' lock, in the writer's transaction: once
read in a transaction, their head moves only by what that transaction appends. An event
appends to each chain once or twice (its event link, its entries, their links); reading the
head once per transaction instead of once per append spares those round trips. The head is
kept with the transaction it belongs to, so a commit or a rollback (a new transaction)
forgets it; inside a savepoint (none is used today) it is always read afresh.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy.orm import Session


def head(session: Session, chain: str, read: Callable[[], tuple[int, str]]) -> tuple[int, str]:
    """``chain``'s head ``(seq, hash)``: as this transaction last moved it, else ``read()``."""
    if kept(session, chain):
        found = session.info[chain]
        return found[1], found[2]
    return read()


def kept(session: Session, chain: str) -> bool:
    """Whether this transaction holds ``chain``'s head already (see `head`)."""
    found = session.info.get(chain)
    return (
        found is not None
        and found[0] is session.get_transaction()
        and not session.in_nested_transaction()
    )


def moved(session: Session, chain: str, seq: int, last: str) -> None:
    """Note the head this transaction just appended."""
    session.info[chain] = (session.get_transaction(), seq, last)
