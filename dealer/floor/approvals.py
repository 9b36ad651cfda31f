"""Who approves what: the one place every service (and through them every door) asks.

What needs the floor:

- a buy-in or a cash-out, leaving included, above the table's ``approval_above``
  (`approve_chips`; 403 ``needs_supervisor``);
- a void the rules send to the floor, once the hand is settled or of the whole hand
  (the engine's ``Hand.needs_supervisor``; `dealer.hands.record`; 403 ``supervisor_required``);
- the time collection before it is due (`dealer.floor.time_collection`; 409 ``not_due``);
- closing a session that is not the caller's, and confirming any close
  (`dealer.floor.downs`; 403 ``not_your_session``);
- a count at a session's close with a variance over the table's tolerance
  (`dealer.floor.counts`; 403 ``needs_supervisor``): approved by a supervisor who is neither
  the person who counted nor the one who confirmed the count (`approval_by_another`).

Who approves (`approver`): the supervisor whose name and PIN came with the write (checked by
`dealer.people.users.vouch` before the write begins, counted when wrong), else
the caller, when the caller is a supervisor. The name and PIN come first: a supervisor who
hands the tablet to another for an approval on the spot asked for that one's, and the trail
must name the person who typed the PIN (docs/tables.md: "unless the body brings a
supervisor ... or a supervisor calls").
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.orm import Session

from dealer.errors import DealerError, Forbidden
from dealer.models import Table, User
from dealer.people.audit import record_by
from dealer.words.catalogue import say, say_later
from dealer.words.reasons import NOTES


def approving_user(session: Session, user_id: int | None) -> User | None:
    """The supervisor whose name and PIN were checked before the write began (by id), read
    again inside the write; None when none came."""
    return session.get(User, user_id) if user_id is not None else None


def approver(user: User, supervisor: User | None) -> User | None:
    """Who approves a write that needs the floor: the supervisor who gave their name and PIN,
    else the caller when they are a supervisor themselves, else nobody."""
    if supervisor is not None:
        return supervisor
    return user if user.can("supervisor") else None


def approval(
    needed: bool, user: User, supervisor: User | None, refused: DealerError
) -> User | None:
    """The approver of a write, when ``needed``: ``refused`` is raised if nobody approves.

    When the write does not need the floor, a supervisor's name and PIN brought anyway
    still stand (the trail shows who was there); the caller is not counted as approving."""
    if not needed:
        return supervisor
    found = approver(user, supervisor)
    if found is None:
        raise refused
    return found


def approval_by_another(
    supervisor: User | None, involved: Sequence[User], refused: DealerError
) -> User:
    """The approver of a write a second supervisor must approve: the supervisor whose name and
    PIN came with it, when they are none of ``involved`` (who did the work, who confirmed it).

    The caller's own sign-in never approves it, whatever their role: a count checked by the
    person who made it is no check (an admin counting once approved their own variance).
    ``refused`` is raised when nobody else approves."""
    if supervisor is None or any(supervisor.id == person.id for person in involved):
        raise refused
    return supervisor


def chips_need_floor(table: Table, amount: int) -> bool:
    """Whether moving ``amount`` chips between a seat and the cage needs a supervisor."""
    return amount > table.approval_above


#: A buy-in or a cash-out above the table's threshold that nobody approved, by its kind.
_NEEDS_APPROVAL = {
    "buy_in": say_later(
        "A buy-in of {amount:,} chips is above this table's {approval_above:,}: a supervisor's "
        "name and PIN must approve it."
    ),
    "cash_out": say_later(
        "A cash-out of {amount:,} chips is above this table's {approval_above:,}: a supervisor's "
        "name and PIN must approve it."
    ),
}


def approve_chips(
    table: Table, kind: str, amount: int, user: User, supervisor: User | None
) -> User | None:
    """The approver of a buy-in or cash-out (``kind``: ``buy_in``, ``cash_out``) of ``amount``
    chips: None when the table's threshold does not reach it, refused when it does and nobody
    approves."""
    if not chips_need_floor(table, amount):
        return None
    return approval(
        True,
        user,
        supervisor,
        Forbidden(
            say(_NEEDS_APPROVAL[kind], amount=amount, approval_above=table.approval_above),
            "needs_supervisor",
        ),
    )


def approved_reason(reason: str, approver: User | None, user: User) -> str:
    """An entry's ``reason`` (English, as the ledger keeps it), noting the supervisor who
    approved it on the spot."""
    if approver is None:
        return reason
    note = NOTES["supervisor"] if approver.id == user.id else NOTES["approved"]
    return note.format(reason=reason, name=approver.name)


def record_approval(
    session: Session, table: Table, what: str, amount: int, approver: User | None, user: User
) -> None:
    """Write a supervisor's approval of a buy-in or cash-out above the threshold in the trail;
    ``what``: ``buy_in``, ``cash_out``, or ``leaving`` (the cash-out of a player leaving)."""
    if approver is None or not chips_need_floor(table, amount):
        return
    fields = {"supervisor": approver.name, "amount": amount, "table": table.name}
    if what == "buy_in":
        words = say("{supervisor} approved a buy-in of {amount:,} at {table}.", **fields)
    elif what == "cash_out":
        words = say("{supervisor} approved a cash-out of {amount:,} at {table}.", **fields)
    else:
        words = say(
            "{supervisor} approved a cash-out on leaving of {amount:,} at {table}.", **fields
        )
    details = {"supervisor": approver.id, "amount": amount, "what": what}
    record_by(session, "supervisor_approval", user, words, table, **details)
