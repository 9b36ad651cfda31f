"""Table sessions: a dealer's down at a table, from opening to the floor confirming its close.

How a card room runs it, and so how this does:

- The dealer opens a session when they push into the table; every hand dealt while it is open
  belongs to it (``hands.session_id``).
- Dealing a hand while no session is open opens one, in the name of whoever deals it, marked
  ``implicit``. A card room never stops a game for a missed tap on a tablet: the person who
  dealt the hand *was* the dealer in the box, and the session report says the session was
  opened by dealing, so the floor sees the missed step instead of a hand that belongs to no
  one.
- The dealer closes the session when they are tapped out. That ends the down at once (the
  next dealer may open theirs) and waits for a supervisor to confirm it; a supervisor closing
  it, or a dealer bringing a supervisor's name and PIN, confirms it on the spot.
- A session cannot end with its hand still in play: settle or void the hand first.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ColumnElement, and_, select
from sqlalchemy.orm import Session

from dealer.errors import Conflict, Forbidden, NotFound
from dealer.floor import approvals
from dealer.floor.down_checks import check_after_commit
from dealer.floor.in_play import hands_in_play
from dealer.models import Down, Hand, LedgerEntry, Table, User, by_id, utcnow
from dealer.people.audit import record_audit
from dealer.words.catalogue import say
from dealer.words.tables import down_opened

#: Ids are 32-bit in both databases; a larger one names nothing.


def open_down_at(session: Session, table_id: int) -> Down | None:
    """The session open at a table now, if any."""
    return session.scalars(
        select(Down).where(Down.table_id == table_id, Down.closed_at.is_(None))
    ).first()


def dealer_down_elsewhere(session: Session, dealer_id: int, table_id: int) -> Down | None:
    """The session ``dealer_id`` still holds open at another table, if any."""
    return session.scalars(
        select(Down).where(
            Down.dealer_id == dealer_id,
            Down.table_id != table_id,
            Down.closed_at.is_(None),
        )
    ).first()


def open_down(session: Session, table: Table, dealer_id: int, *, implicit: bool = False) -> Down:
    """Open ``dealer_id``'s session at ``table``.

    A table has one open session at a time, and a dealer one open session: a dealer is in
    one box at a time. Dealing with no session open (``implicit``) still opens one, as a card
    room never stops a game for a missed tap; the table screen warns about the other one.
    """
    found = open_down_at(session, table.id)
    if found is not None:
        raise Conflict(
            say(
                "{name}'s session {id} is still open at this table: close it first.",
                name=found.dealer.name,
                id=found.id,
            ),
            "session_open",
        )
    elsewhere = None if implicit else dealer_down_elsewhere(session, dealer_id, table.id)
    if elsewhere is not None:
        other = session.get(Table, elsewhere.table_id)
        where = other.name if other is not None else say("table {id}", id=elsewhere.table_id)
        raise Conflict(
            say(
                "Your session {id} is still open at {where}: close it there first (a dealer "
                "holds one table at a time).",
                id=elsewhere.id,
                where=where,
            ),
            "dealer_session_open",
        )
    opened = Down(table_id=table.id, dealer_id=dealer_id, implicit=implicit)
    session.add(opened)
    session.flush()
    record_audit(
        session,
        "session_opened",
        words=down_opened(opened.id, table.name, implicit),
        user_id=dealer_id,
        table_id=table.id,
        details={"session": opened.id, "implicit": implicit},
    )
    return opened


def get_down(session: Session, down_id: int) -> Down:
    unknown = say("There is no session {session_id}.", session_id=down_id)
    return by_id(session, Down, down_id, unknown, "unknown_session")


def down_at(session: Session, table_id: int, down_id: int) -> Down:
    """Session ``down_id``, refused as unknown unless it is one of table ``table_id``'s."""
    found = get_down(session, down_id)
    if found.table_id != table_id:
        raise NotFound(
            say("There is no session {session_id} here.", session_id=down_id),
            "unknown_session",
        )
    return found


def downs_at(session: Session, table_id: int) -> list[Down]:
    """Every session at a table, the latest first."""
    return list(
        session.scalars(select(Down).where(Down.table_id == table_id).order_by(Down.id.desc()))
    )


def down_hands(session: Session, down: Down) -> list[Hand]:
    """The hands dealt in a session, in order."""
    return list(session.scalars(select(Hand).where(Hand.down_id == down.id).order_by(Hand.number)))


def off_hand_while_open(down: Down) -> ColumnElement[bool]:
    """The table's ledger entries outside any hand while the session ``down`` was open (chips
    moved at the seats: buy-ins, cash-outs, time collections)."""
    off_hand = and_(
        LedgerEntry.table_id == down.table_id,
        LedgerEntry.hand_id.is_(None),
        LedgerEntry.at >= down.opened_at,
    )
    if down.closed_at is not None:
        off_hand = and_(off_hand, LedgerEntry.at < down.closed_at)
    return off_hand


def close_down(session: Session, down: Down, user: User, supervisor: User | None) -> Down:
    """End the down (if it is still open) and confirm it when a supervisor is at hand.

    ``supervisor`` is one whose name and PIN the caller brought; a supervisor calling needs
    none (who approves: `dealer.floor.approvals`). Without either the down ends and the
    close waits for the floor's confirmation.
    """
    approver = approvals.approver(user, supervisor)
    if down.close_confirmed_by is not None:
        raise Conflict(
            say("Session {id} is closed and its close confirmed already.", id=down.id),
            "session_closed",
        )
    if approver is None and down.dealer_id != user.id:
        raise Forbidden(
            say("Only the session's own dealer, or a supervisor, can close it."), "not_your_session"
        )
    now = utcnow()
    if down.closed_at is None:
        _end_down(session, down, user, now)
    elif approver is None:
        raise Conflict(
            say(
                "Session {id} is closed and waits for a supervisor to confirm it: add the "
                "supervisor's name and PIN.",
                id=down.id,
            ),
            "awaiting_confirmation",
        )
    if approver is not None:
        _confirm_close(session, down, user, approver, now)
    session.flush()
    return down


def _end_down(session: Session, down: Down, user: User, now: datetime) -> None:
    """End the down at ``now``, refused while a hand dealt in it is still in play."""
    table_id = down.table_id
    in_play = hands_in_play(session, [table_id], down.id).get(table_id)
    if in_play is not None:
        raise Conflict(
            say(
                "Hand {number} of this session is still in play: settle or void it "
                "before closing the session.",
                number=in_play.number,
            ),
            "hand_in_play",
        )
    down.closed_at = now
    down.close_requested_by = user.id
    # The down ends: once it has committed, the floor checks what was written since the
    # last checked checkpoint (`down_checks`).
    check_after_commit(session, f"session {down.id} closed")
    record_audit(
        session,
        "session_closed",
        words=say("{user} closed session {id}.", user=user.name, id=down.id),
        user_id=user.id,
        table_id=table_id,
        details={"session": down.id},
    )


def _confirm_close(session: Session, down: Down, user: User, approver: User, now: datetime) -> None:
    """A supervisor's confirmation of the close, on the audit trail."""
    down.close_confirmed_by = approver.id
    down.close_confirmed_at = now
    record_audit(
        session,
        "session_confirmed",
        words=say(
            "{supervisor} confirmed the close of session {id}.",
            supervisor=approver.name,
            id=down.id,
        ),
        user_id=user.id,
        table_id=down.table_id,
        details={"session": down.id, "supervisor": approver.id},
    )
