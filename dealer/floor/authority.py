"""Who may act at which table: the one check, beneath every front door.

A dealer records and reads only at the table where they hold the open table session, or
where a supervisor assigned them (`dealer.floor.assignments`); supervisors and admins act
everywhere. The API, the screens, the reports and the exports call `authorise` (or one of
the helpers that find a hand's or a session's table first) before they read or record
anything of a table, so the answer and its words are the same at every door.

Two ways in for a dealer who holds no table yet, since that is how a dealer comes to hold
one: opening their session at a table (the session service then refuses a table another
dealer holds, or a second session of theirs), and dealing at a table with no session open
(dealing opens one in their name: `dealer.floor.downs`).
"""

from __future__ import annotations

from typing import Literal

from sqlalchemy import select
from sqlalchemy.orm import Session

from dealer.errors import Forbidden, NotFound
from dealer.floor.assignments import assigned_tables
from dealer.floor.downs import get_down, open_down_at
from dealer.floor.in_play import get_hand
from dealer.floor.tables import get_table
from dealer.models import Down, Hand, Seating, Table, User
from dealer.words.catalogue import say
from dealer.words.numbers import capital

#: What a dealer wants to do at a table: read it, record there, open their session, deal.
Action = Literal["read", "record", "open_down", "deal"]


class NotYourTable(Forbidden, code="not_your_table"):
    """A dealer asking about a table that is not theirs (403)."""


def tables_held(session: Session, dealer_id: int) -> set[int]:
    """The tables a dealer may act at: where their session is open, and where assigned."""
    return _downs_held(session, dealer_id) | assigned_tables(session, dealer_id)


def _downs_held(session: Session, dealer_id: int) -> set[int]:
    open_at = session.scalars(
        select(Down.table_id).where(Down.dealer_id == dealer_id, Down.closed_at.is_(None))
    )
    return set(open_at)


def _name(session: Session, table_id: int) -> str:
    table = session.get(Table, table_id)
    return table.name if table is not None else say("table {id}", id=table_id)


def _refusal(session: Session, held: set[int], table_id: int) -> NotYourTable:
    """ "You deal Table 1; Table 2 is Bo's.": whose table it is, and which is theirs."""
    mine = ", ".join(sorted(_name(session, t) for t in held))
    there = open_down_at(session, table_id)
    table = _name(session, table_id)
    whose = (
        say("{table} is {dealer}'s", table=table, dealer=there.dealer.name)
        if there is not None
        else say("{table} is not yours", table=table)
    )
    if mine:
        return NotYourTable(say("You deal {mine}; {whose}.", mine=mine, whose=whose))
    return NotYourTable(
        capital(
            say(
                "{whose}: you hold no table. Open your session at a free table, or ask a "
                "supervisor to assign you.",
                whose=whose,
            )
        )
    )


def authorise(session: Session, user: User, table_id: int, action: Action = "read") -> None:
    """Refuse (403 ``not_your_table``) unless ``user`` may ``action`` at table ``table_id``."""
    if user.can("supervisor"):
        return
    # A dealer's own session's table (the common case) needs no read of their assignments,
    # which are checked against the keyed chain (`dealer.floor.assignments`).
    downs = _downs_held(session, user.id)
    if table_id in downs or action == "open_down":
        return
    held = downs | assigned_tables(session, user.id)
    if table_id in held:
        return
    if action == "deal" and not held and open_down_at(session, table_id) is None:
        return
    raise _refusal(session, held, table_id)


def readable_tables(session: Session, user: User) -> set[int] | None:
    """The tables whose seats and hands ``user`` may read: None for every table (a
    supervisor), else those a dealer holds."""
    if user.can("supervisor"):
        return None
    return tables_held(session, user.id)


def may_read(session: Session, user: User, table_id: int) -> bool:
    """Whether ``user`` may read table ``table_id`` (for a screen choosing what to show)."""
    try:
        authorise(session, user, table_id, "read")
    except NotYourTable:
        return False
    return True


def authorise_table(session: Session, user: User, table_id: int, action: Action = "read") -> Table:
    """The table ``table_id`` (404 if there is none), once ``user`` may ``action`` there."""
    table = get_table(session, table_id)
    authorise(session, user, table.id, action)
    return table


def authorise_hand(session: Session, user: User, hand_id: int, action: Action = "read") -> Hand:
    """The hand ``hand_id``, once ``user`` may ``action`` at its table."""
    hand = get_hand(session, hand_id)
    authorise(session, user, hand.table_id, action)
    return hand


def authorise_down(session: Session, user: User, down_id: int, action: Action = "read") -> Down:
    """The table session ``down_id``, once ``user`` may ``action`` at its table.

    A dealer's own sessions stay theirs after the down ends: they read them, print them,
    and bring a supervisor to confirm the close.
    """
    found = get_down(session, down_id)
    if found.dealer_id != user.id:
        authorise(session, user, found.table_id, action)
    return found


def authorise_down_print(session: Session, user: User, down_id: int) -> Down:
    """The table session ``down_id``, once ``user`` may print its report: its own dealer,
    or a supervisor (any session)."""
    found = authorise_down(session, user, down_id)
    if not user.can("supervisor") and found.dealer_id != user.id:
        raise Forbidden(
            say("A dealer may print only their own sessions: ask a supervisor."),
            "not_your_session",
        )
    return found


def authorise_address(
    session: Session,
    user: User,
    action: Action,
    *,
    table_id: int | None = None,
    hand_id: int | None = None,
    down_id: int | None = None,
) -> None:
    """Authorise what an address names (a table, a hand or a table session, and a hand's or a
    session's table), as the screens' addresses name them."""
    covered: int | None = None  # the table the hand's or session's check already covered
    if hand_id is not None:
        covered = authorise_hand(session, user, hand_id, action).table_id
    if down_id is not None:
        covered = authorise_down(session, user, down_id, action).table_id
    if table_id is not None and table_id != covered:
        authorise_table(session, user, table_id, action)


def authorise_scopes(session: Session, user: User, scopes: list[str]) -> None:
    """Refuse unless ``user`` may read everything a live screen asks about (``floor``,
    ``table:<id>``, ``hand:<id>``, ``seating:<id>``, as `dealer.live` names them): the
    floor is a supervisor's, the rest belongs to a table, read as that table is."""
    if user.can("supervisor"):
        return
    for scope in scopes:
        kind, _, ident = scope.partition(":")
        if kind == "floor":
            raise Forbidden(
                say("Only a supervisor or above may watch the floor."), "role_not_allowed"
            )
        number = int(ident)
        if kind == "hand":
            authorise_hand(session, user, number)
        elif kind == "table":
            authorise(session, user, number)
        elif kind == "seating":
            seating = session.get(Seating, number)
            if seating is None:
                raise NotFound(
                    say("There is no seating {number}.", number=number), "unknown_seating"
                )
            authorise(session, user, seating.table_id)
