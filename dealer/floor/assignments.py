"""A supervisor sending a dealer to a table, and taking them off it.

An assignment gives the dealer the table as if they held its session (`dealer.floor.authority`):
a relief dealer, or one sent to a table before pushing in. Rows are never changed
(migration ``0011_limits``): ending an assignment is a new row, so the floor's history of
who was sent where stays as it happened, under the same triggers as the ledger's.

Each row is linked into the keyed chain as it is written (`dealer.ledger.identity`), and who is
assigned where is read from those linked versions only: a row added or changed outside the app
(which `verify` names) assigns no one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from dealer.bounds import USER_NAME, check_text
from dealer.errors import Conflict, Invalid, NotFound
from dealer.ledger.identity import held
from dealer.models import Table, TableAssignment, User
from dealer.people.audit import record_by
from dealer.words.catalogue import say, say_later

_AT_TABLE = TableAssignment.table_id == bindparam("table")
_OF_DEALER = TableAssignment.dealer_id == bindparam("dealer")
#: The rows asked for, by whether a table and a dealer are given: built once (a dealer's are
#: read on every request of theirs, `dealer.floor.authority`).
_ROWS = {
    (False, False): select(TableAssignment.id),
    (True, False): select(TableAssignment.id).where(_AT_TABLE),
    (False, True): select(TableAssignment.id).where(_OF_DEALER),
    (True, True): select(TableAssignment.id).where(_AT_TABLE, _OF_DEALER),
}


def _pair(fields: Mapping[str, Any]) -> tuple[object, object]:
    return fields.get("table_id"), fields.get("dealer_id")


def _latest(
    session: Session, table_id: int | None, dealer_id: int | None
) -> dict[tuple[int, int], bool]:
    """Whether each (table, dealer) pair is assigned now: its latest row says, as the keyed
    chain holds it (`held`: one statement)."""
    rows = _ROWS[table_id is not None, dealer_id is not None]
    params = {"table": table_id, "dealer": dealer_id}
    latest: dict[tuple[int, int], bool] = {}
    for fields in held(session, "assignment", rows, params, _pair).values():
        table, dealer = fields["table_id"], fields["dealer_id"]
        if table_id in (None, table) and dealer_id in (None, dealer):
            latest[table, dealer] = fields["assigned"]
    return latest


def assigned_tables(session: Session, dealer_id: int) -> set[int]:
    """The tables ``dealer_id`` is assigned to now."""
    return {t for (t, _d), on in _latest(session, None, dealer_id).items() if on}


def assigned_dealers(session: Session, table_id: int) -> list[User]:
    """The dealers assigned to a table now, by name."""
    ids = [d for (_t, d), on in _latest(session, table_id, None).items() if on]
    if not ids:
        return []
    return list(session.scalars(select(User).where(User.id.in_(ids)).order_by(User.name)))


def _dealer(session: Session, name: object) -> User:
    name = check_text(name, USER_NAME, say_later("dealer's name"), "dealer")
    found = session.scalars(select(User).where(User.name == name)).first()
    if found is None or not found.active:
        raise NotFound(say("There is no dealer named {name}.", name=name), "unknown_user")
    if found.role != "dealer":
        raise Invalid(
            say(
                "{name} is not a dealer: a supervisor or admin may act at every table already.",
                name=found.name,
            ),
            "not_a_dealer",
        )
    return found


def assign(session: Session, table: Table, dealer_name: object, by: User) -> User:
    """Send the dealer named ``dealer_name`` to ``table`` (a supervisor's call)."""
    dealer = _dealer(session, dealer_name)
    if _latest(session, table.id, dealer.id).get((table.id, dealer.id)):
        raise Conflict(
            say("{name} is assigned to {name2} already.", name=dealer.name, name2=table.name),
            "assigned_already",
        )
    words = say(
        "{by} assigned {dealer} to {table}.", by=by.name, dealer=dealer.name, table=table.name
    )
    return _record(session, table, dealer, by, True, words)


def unassign(session: Session, table: Table, dealer_id: int, by: User) -> User:
    """Take dealer ``dealer_id`` off ``table`` (their open session, if any, stays theirs)."""
    dealer = session.get(User, dealer_id)
    if dealer is None or not _latest(session, table.id, dealer_id).get((table.id, dealer_id)):
        raise NotFound(
            say(
                "No dealer {dealer_id} is assigned to {name}.", dealer_id=dealer_id, name=table.name
            ),
            "not_assigned",
        )
    words = say("{by} took {dealer} off {table}.", by=by.name, dealer=dealer.name, table=table.name)
    return _record(session, table, dealer, by, False, words)


def _record(
    session: Session, table: Table, dealer: User, by: User, assigned: bool, words: str
) -> User:
    """The assignment (or its end) on the record, and on the audit trail in ``words``."""
    session.add(
        TableAssignment(table_id=table.id, dealer_id=dealer.id, assigned=assigned, by_id=by.id)
    )
    session.flush()
    record_by(session, "assignment", by, words, table, dealer=dealer.id, assigned=assigned)
    return dealer
