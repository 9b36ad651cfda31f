"""The count at a session's close: what is physically at the table, against the ledger.

When a dealer's down has ended, the dealer counts the chips in the table's tray (and, at a
table that sells chips for cash, the cash in its drop box); a second person confirms the count
with their name and PIN. What the ledger says should be there:

- the tray: the chips the house took over the session (its collections and rake, less what
  voids gave back): the session's drop;
- the drop box: the cash for the chips sold over the session (buy-ins less cash-outs, at the
  table's chip value).

A variance over the table's ``count_tolerance`` needs a reason and the approval of a supervisor
other than the two who counted and confirmed (the caller's own sign-in approves nothing here):
the audit trail names all three. The table's settings a count is held to are read as the keyed
chain holds them (the table's newest linked version, `dealer.ledger.identity.held`): a
tolerance raised outside the app lets no variance pass.
The count is a record of the audit trail (kind ``count``): append-only, linked into the keyed
chain like every record, one per session.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, and_, func, or_, select
from sqlalchemy.orm import Session

from dealer.errors import Conflict, Forbidden, Invalid
from dealer.floor import approvals
from dealer.floor.downs import off_hand_while_open
from dealer.ledger import CAGE, house_account
from dealer.ledger.identity import held
from dealer.models import AuditRecord, Down, Hand, LedgerEntry, Table, User
from dealer.people.audit import record_audit, record_by
from dealer.words.catalogue import say, say_later


def change_count_settings(
    session: Session, table: Table, tolerance: int, sells_for_cash: bool, user: User
) -> None:
    """A supervisor sets how the table's counts are held: written in the audit trail."""
    before = (table.count_tolerance, table.sells_for_cash)
    table.count_tolerance, table.sells_for_cash = tolerance, sells_for_cash
    session.flush()
    if before != (tolerance, sells_for_cash):
        words = say(
            "{user} set the count of {table}: {tolerance:,} chips allowed, "
            "chips sold for cash: {cash}.",
            user=user.name,
            table=table.name,
            tolerance=tolerance,
            cash=say("yes") if sells_for_cash else say("no"),
        )
        settings = {"count_tolerance": tolerance, "sells_for_cash": sells_for_cash}
        record_by(session, "table_settings", user, words, table, **settings)


@dataclass(frozen=True, slots=True)
class Expected:
    """What the ledger says a session's close should find."""

    tray_chips: int
    drop_box_cents: int | None  # None where the table sells no chips for cash


def _sum(session: Session, where: ColumnElement[bool]) -> int:
    found = session.scalar(select(func.sum(LedgerEntry.chips)).where(where))
    return int(found or 0)


def _held_settings(session: Session, table_id: int) -> Mapping[str, Any]:
    """The table's settings as the keyed chain holds them; refused (409) when none hold: the
    table was added or its version edited outside the app."""
    settings = held(session, "table", [table_id]).get(table_id)
    if settings is None:
        raise Conflict(
            say(
                "The settings of {table} were changed outside the app: no count is held to "
                "them. Ask the floor to check the ledger.",
                table=session.get_one(Table, table_id).name,
            ),
            "settings_changed",
        )
    return settings


def expected_count(session: Session, down: Down) -> Expected:
    """The session's drop (the tray) and, at a table selling chips for cash, the cash sold."""
    settings = _held_settings(session, down.table_id)
    hands = select(Hand.id).where(Hand.down_id == down.id)
    off_hand = off_hand_while_open(down)
    mine = or_(LedgerEntry.hand_id.in_(hands), off_hand)
    house = house_account(down.table_id)
    tray = _sum(session, and_(mine, LedgerEntry.to_account == house)) - _sum(
        session, and_(mine, LedgerEntry.from_account == house)
    )
    if not settings["sells_for_cash"]:
        return Expected(tray, None)
    sold = _sum(session, and_(off_hand, LedgerEntry.from_account == CAGE)) - _sum(
        session, and_(off_hand, LedgerEntry.to_account == CAGE)
    )
    return Expected(tray, sold * int(settings["chip_value_cents"]))


def last_closed(session: Session, table_id: int) -> Down | None:
    """The table's latest session whose down has ended (counted or not): the one the table
    screen guides through its close, its count and its report."""
    return session.scalars(
        select(Down)
        .where(Down.table_id == table_id, Down.closed_at.is_not(None))
        .order_by(Down.closed_at.desc(), Down.id.desc())
        .limit(1)
    ).first()


def counts_of(session: Session, down_ids: list[int]) -> dict[int, AuditRecord]:
    """The count of each of these sessions that has one."""
    if not down_ids:
        return {}
    tables = select(Down.table_id).where(Down.id.in_(down_ids))
    wanted = set(down_ids)
    found = session.scalars(
        select(AuditRecord).where(AuditRecord.kind == "count", AuditRecord.table_id.in_(tables))
    )
    return {r.details["session"]: r for r in found if r.details.get("session") in wanted}


def _needs_another(
    variance: int, expected: Expected, tolerance: int, user: User, witness: User
) -> Forbidden:
    """The refusal of a variance nobody else approved: who may approve it, in words."""
    return Forbidden(
        say(
            "The count is {variance:+,} chips from the ledger's {expected:,}, more than this "
            "table's {tolerance:,}: a supervisor's name and PIN must approve it, with a reason "
            "(a supervisor other than {counter}, who counted, and {witness}, who confirmed).",
            variance=variance,
            expected=expected.tray_chips,
            tolerance=tolerance,
            counter=user.name,
            witness=witness.name,
        ),
        "needs_supervisor",
    )


def record_count(
    session: Session,
    down: Down,
    user: User,
    tray_chips: int,
    drop_box_cents: int | None,
    witness: User,
    supervisor: User | None,
    reason: str | None,
) -> AuditRecord:
    """Record the count at ``down``'s close; refused before the down ends, a second time,
    without a second person, and with a variance over the table's tolerance unless a third
    person, a supervisor who neither counted nor confirmed, approves it with a reason
    (`approvals.approval_by_another`: for the API and the screens alike)."""
    _check_countable(session, down, user, witness)
    expected = expected_count(session, down)
    if expected.drop_box_cents is not None and drop_box_cents is None:
        raise Invalid(
            say("This table sells chips for cash: count the drop box too."), "drop_box_missing"
        )
    if expected.drop_box_cents is None:
        drop_box_cents = None
    reason = (reason or "").strip()
    counted = Expected(tray_chips, drop_box_cents)
    approver = _variance_approver(session, down, expected, counted, [user, witness], supervisor)
    if approver is not None and not reason:
        raise Invalid(say("Give the reason for the variance."), "reason_missing")
    return record_audit(
        session,
        "count",
        words=_count_words(down, counted, expected, user, witness, approver, reason),
        user_id=user.id,
        table_id=down.table_id,
        details={
            "session": down.id,
            "tray_chips": tray_chips,
            "expected_chips": expected.tray_chips,
            "drop_box_cents": drop_box_cents,
            "expected_cents": expected.drop_box_cents,
            "witness": witness.id,
            "supervisor": approver.id if approver is not None else None,
            "reason": reason or None,
        },
    )


def _check_countable(session: Session, down: Down, user: User, witness: User) -> None:
    """Refuse a count before the down ends, a second count, and a count nobody confirmed."""
    if down.closed_at is None:
        raise Conflict(
            say("Close the session before counting: the down is still open."), "session_open"
        )
    if counts_of(session, [down.id]):
        raise Conflict(say("Session {id} is counted already.", id=down.id), "counted_already")
    if witness.id == user.id:
        raise Forbidden(
            say("A second person confirms the count: not the one who counted."), "not_confirmed"
        )


def _variance_approver(
    session: Session,
    down: Down,
    expected: Expected,
    counted: Expected,
    counters: list[User],
    supervisor: User | None,
) -> User | None:
    """Who approved a variance over the table's tolerance (None: within it); refused unless a
    supervisor other than ``counters`` (who counted, who confirmed) approves it."""
    settings = _held_settings(session, down.table_id)
    tolerance, chip_value = int(settings["count_tolerance"]), int(settings["chip_value_cents"])
    variance = counted.tray_chips - expected.tray_chips
    cash = (counted.drop_box_cents or 0) - (expected.drop_box_cents or 0)
    cash_chips = abs(cash) / chip_value if chip_value else abs(cash)
    if abs(variance) <= tolerance and cash_chips <= tolerance:
        return None
    refused = _needs_another(variance, expected, tolerance, *counters)
    return approvals.approval_by_another(supervisor, counters, refused)


def _count_words(
    down: Down,
    counted: Expected,
    expected: Expected,
    user: User,
    witness: User,
    approver: User | None,
    reason: str,
) -> str:
    """The audit trail's sentence for a count, with the variance's approval if one was needed."""
    said = say_later(
        "{user} counted {tray:,} chips at session {id}'s close (the ledger: {expected:,}), "
        "confirmed by {witness}."
    )
    if approver is not None:
        said = say_later(
            "{user} counted {tray:,} chips at session {id}'s close (the ledger: {expected:,}), "
            "confirmed by {witness}. {supervisor} approved the variance: {reason}"
        )
    return say(
        said,
        user=user.name,
        tray=counted.tray_chips,
        id=down.id,
        expected=expected.tray_chips,
        witness=witness.name,
        supervisor=approver.name if approver is not None else "",
        reason=reason,
    )
