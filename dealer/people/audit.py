"""The audit trail: what people did that moved no chip but that the floor must be able to see.

Sign-ins and their refusals, lockouts, a supervisor's approval on the spot, overrides, voids,
a table's or a user's change, disputes. Each is one append-only row (`AuditRecord`) written in
the same transaction as what it records, so a rolled-back action leaves no record and a
committed one always has its record. Chip movements are not repeated here: the ledger is
their record. The device is what the request claimed; the screens say so.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy import select
from sqlalchemy.orm import Session

from dealer.errors import Invalid
from dealer.models import AuditRecord, Hand, Table, User, utcnow
from dealer.transactions import require_writing
from dealer.words.catalogue import say, say_later

if TYPE_CHECKING:
    from dealer.ledger.post import Recorder

#: Every kind of record, with the words the audit screen's filter shows for it (said where shown).
AUDIT_KINDS: Mapping[str, str] = {
    "sign_in": say_later("Signed in"),
    "sign_in_refused": say_later("Sign-in refused"),
    "locked_out": say_later("Locked out"),
    "sign_out": say_later("Signed out"),
    "sign_in_ended": say_later("Sign-in ended"),
    "supervisor_approval": say_later("Supervisor approved"),
    "override": say_later("Override"),
    "void": say_later("Void"),
    "table_created": say_later("Table opened"),
    "table_settings": say_later("Table settings changed"),
    "session_opened": say_later("Dealer's session opened"),
    "session_closed": say_later("Dealer's session closed"),
    "session_confirmed": say_later("Session close confirmed"),
    "count": say_later("Count at a session's close"),
    "user_added": say_later("User added"),
    "user_changed": say_later("User changed"),
    "seat_moved": say_later("Meld moved to another seat"),
    "entry_confirmed": say_later("Entry typed by another, confirmed as theirs"),
    "dispute_opened": say_later("Dispute opened"),
    "dispute_ruled": say_later("Dispute ruled on"),
    "device_registered": say_later("Device registered"),
    "device_changed": say_later("Device changed"),
    "player_added": say_later("Player added"),
    "player_changed": say_later("Player changed"),
    "assignment": say_later("Dealer assigned"),
    "ledger_check_failed": say_later("The ledger's checks found problems"),
}
#: How to name the device the request being answered came from, set by the web layer before
#: each request (`dealer.web.signin.claim_device`): the services that record people's actions
#: take a user, not a request, and a context variable (one per thread and request) lets them say
#: where it came from without every signature growing a device. A function, asked only when a
#: record is written: naming a registered tablet costs a query.
CLAIMED_DEVICE: ContextVar[Callable[[], str] | None] = ContextVar("claimed_device", default=None)
#: The most records one page of the audit screen shows.
AUDIT_PAGE = 200
#: A record's device is cut to the column's width, like the ledger's.
DEVICE_WIDTH = 200


def record_audit(
    session: Session,
    kind: str,
    *,
    words: str,
    user_id: int | None = None,
    device: str | None = None,
    table_id: int | None = None,
    hand_id: int | None = None,
    details: Mapping[str, object] | None = None,
) -> AuditRecord:
    """Add one record to the trail, in the caller's write transaction (it commits with it),
    and link it into the keyed chain like the ledger: edited or removed, `ledger verify` says so.

    ``words`` is one sentence of the catalogue (`say`), said in the language chosen when the
    record is written: the record is sealed as it was said, so it is shown in that language
    afterwards, whichever language is chosen later."""
    if kind not in AUDIT_KINDS:
        raise ValueError(f"unknown audit kind {kind!r}")  # a programming error, never input
    # In the writers' order before it is stamped: records and their links keep time order (a
    # wrong PIN's write takes the writers' lock only here, `transactions.writing`).
    require_writing(session, "audit.record_audit")
    record = AuditRecord(
        at=utcnow(),
        kind=kind,
        user_id=user_id,
        device=(device or _claimed_device())[:DEVICE_WIDTH],
        table_id=table_id,
        hand_id=hand_id,
        words=words,
        details=dict(details or {}),
    )
    # Imported here: the ledger's services record to the trail, and the trail is sealed into
    # the ledger's keyed chain, so each needs the other.
    from dealer.ledger.links import add_linked

    add_linked(session, record)
    return record


def record_hand_audit(
    session: Session,
    kind: str,
    hand: Hand,
    recorder: Recorder,
    *,
    words: str,
    details: Mapping[str, object],
) -> AuditRecord:
    """Put on the trail what ``recorder`` did on ``hand`` (and so at its table)."""
    return record_audit(
        session,
        kind,
        words=words,
        user_id=recorder.user_id,
        device=recorder.device,
        table_id=hand.table_id,
        hand_id=hand.id,
        details=details,
    )


def record_by(
    session: Session,
    kind: str,
    by: User | None,
    words: str,
    table: Table | None = None,
    /,
    **details: object,
) -> AuditRecord:
    """Put on the trail what ``by`` did (None: the command line), at ``table`` if given."""
    user_id = by.id if by is not None else None
    table_id = table.id if table is not None else None
    return record_audit(
        session, kind, words=words, user_id=user_id, table_id=table_id, details=details
    )


def _claimed_device() -> str:
    named = CLAIMED_DEVICE.get()
    return named() if named is not None else ""


@dataclass(frozen=True, slots=True)
class AuditLine:
    """One record as the audit screen shows it."""

    record: AuditRecord
    user: str | None
    table: str | None

    @property
    def kind_words(self) -> str:
        known = AUDIT_KINDS.get(self.record.kind)
        return say(known) if known is not None else self.record.kind


def audit_trail(
    session: Session,
    *,
    kinds: Sequence[str] = (),
    user_id: int | None = None,
    table_id: int | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
    limit: int = AUDIT_PAGE,
) -> list[AuditLine]:
    """The records that match every filter given, newest first, at most ``limit``."""
    unknown = [k for k in kinds if k not in AUDIT_KINDS]
    if unknown:
        raise Invalid(
            say("There is no kind of record called {value!r}.", value=unknown[0]), "unknown_kind"
        )
    if since is not None and until is not None and until < since:
        raise Invalid(say("The window ends before it starts."), "bad_window")
    query = (
        select(AuditRecord, User.name, Table.name)
        .outerjoin(User, User.id == AuditRecord.user_id)
        .outerjoin(Table, Table.id == AuditRecord.table_id)
        .order_by(AuditRecord.id.desc())
        .limit(limit)
    )
    if kinds:
        query = query.where(AuditRecord.kind.in_(kinds))
    if user_id is not None:
        query = query.where(AuditRecord.user_id == user_id)
    if table_id is not None:
        query = query.where(AuditRecord.table_id == table_id)
    if since is not None:
        query = query.where(AuditRecord.at >= since)
    if until is not None:
        query = query.where(AuditRecord.at < until)
    return [AuditLine(record, user, table) for record, user, table in session.execute(query)]
