"""The time collection: taking it from every seated player, and when it is next due.

A time table collects ``chips`` from every seated, unpaused player every ``minutes``. It is
refused while not due (409 ``not_due``, saying when it will be) unless a supervisor overrides;
the override is written on each entry and in the audit trail.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from dealer import rules
from dealer.errors import Conflict
from dealer.floor.approvals import approver
from dealer.floor.tables import open_seatings
from dealer.ledger.accounts import house_account, seating_account
from dealer.ledger.post import Posting, Recorder, post
from dealer.ledger.replay import table_collection
from dealer.models import LedgerEntry, Table, User, as_utc, utcnow
from dealer.people.audit import record_audit
from dealer.words.catalogue import say
from dealer.words.reasons import NOTES
from dealer.words.tables import collection_taken_early
from dealer.words.times import ago_words


def take_time_collection(
    session: Session,
    table: Table,
    recorder: Recorder,
    user: User,
    supervisor: User | None = None,
) -> tuple[list[rules.Payment], list[LedgerEntry]]:
    """Each seated, unpaused player pays the time collection to the house, once it is due.

    Before it is due it is refused (409 ``not_due``) unless a supervisor overrides (their
    name and PIN, or a supervisor taking it): the override is written on every entry.
    """
    due = time_due(session, table)
    early: dict[str, object] | None = None  # what each entry notes of a collection taken early
    if due is not None and not due.due:
        approved = approver(user, supervisor)
        if approved is None:
            raise Conflict(
                say(
                    "The time collection is not due yet: it was taken {due} and is due again "
                    "in {minutes_left} min. A supervisor's name and PIN takes it early.",
                    due=_minutes(due),
                    minutes_left=due.minutes_left,
                ),
                "not_due",
            )
        early = {"minutes": due.minutes_left, "name": approved.name}
        record_audit(
            session,
            "override",
            words=collection_taken_early(approved.name, table.name, due.minutes_left),
            user_id=user.id,
            device=recorder.device,
            table_id=table.id,
            details={"supervisor": approved.id, "minutes_early": due.minutes_left},
        )
    seatings = {s.seat: s for s in open_seatings(session, table.id) if not s.paused}
    payments = rules.time_collection(seatings, table_collection(table))
    postings = [
        Posting(
            seating_account(seatings[int(p.payer)].id),
            house_account(table.id),
            p.chips,
            p.rule,
            p.reason if early is None else NOTES["early"].format(reason=p.reason, **early),
        )
        for p in payments
    ]
    return payments, post(session, table.id, postings, recorder)


def _minutes(due: TimeDue) -> str:
    """When it was last taken, in words: ``12 min ago`` (``never``)."""
    if due.last is None:
        return say("never")
    return ago_words(int((utcnow() - due.last).total_seconds()))


@dataclass(frozen=True, slots=True)
class TimeDue:
    """The time collection at a table: when it was last taken and when it is next due."""

    chips: int
    minutes: int
    last: datetime | None
    #: None: due now (never taken at this table).
    due_at: datetime | None

    @property
    def due(self) -> bool:
        return self.due_at is None or utcnow() >= self.due_at

    @property
    def minutes_left(self) -> int:
        if self.due_at is None:
            return 0
        return max(0, int((self.due_at - utcnow()).total_seconds() // 60) + 1)


def time_due(session: Session, table: Table) -> TimeDue | None:
    """When the time collection is next due (None unless the table collects by time).

    Due ``minutes`` after it was last taken into the house, and at once if it never was.
    """
    return times_due(session, [table])[table.id]


def times_due(session: Session, tables: Sequence[Table]) -> dict[int, TimeDue | None]:
    """`time_due` of each table, read in one query (the floor asks it of every table)."""
    timed = {t.id: table_collection(t) for t in tables}
    timed = {table_id: model for table_id, model in timed.items() if model.kind == "time"}
    out: dict[int, TimeDue | None] = {t.id: None for t in tables}
    if not timed:
        return out
    houses = [house_account(table_id) for table_id in timed]
    rows = session.execute(
        select(LedgerEntry.table_id, func.max(LedgerEntry.at))
        .where(
            LedgerEntry.table_id.in_(list(timed)),
            LedgerEntry.to_account.in_(houses),
            LedgerEntry.reason_code == "collection",
            LedgerEntry.hand_id.is_(None),
        )
        .group_by(LedgerEntry.table_id)
    )
    last = {table_id: as_utc(at) for table_id, at in rows if at is not None}
    for table_id, model in timed.items():
        taken = last.get(table_id)
        due_at = taken + timedelta(minutes=model.minutes) if taken is not None else None
        out[table_id] = TimeDue(model.chips, model.minutes, taken, due_at)
    return out
