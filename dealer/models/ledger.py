"""The books: ledger entries, writes sent once, prints, the keyed chain, checkpoints, live marks."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from dealer.extensions import Base
from dealer.models.base import IDENTITY_KINDS, LINK_KINDS, PRINT_KINDS, Timestamp, _in, utcnow


class LedgerEntry(Base):
    """One chip movement: ``chips`` from one account to another. Never updated or deleted."""

    __tablename__ = "ledger_entries"
    __table_args__ = (
        sa.CheckConstraint("chips > 0", name="chips_positive"),
        sa.CheckConstraint("from_account <> to_account", name="two_accounts"),
        # The payment search (`dealer.disputes.search`): a seat's payments either way, and a
        # rule's or an amount's payments in a window, newest first (migration 0012_devices).
        sa.Index("ix_ledger_entries_from_account", "from_account", "at"),
        sa.Index("ix_ledger_entries_to_account", "to_account", "at"),
        sa.Index("ix_ledger_entries_reason_code", "reason_code", "at"),
        sa.Index("ix_ledger_entries_chips", "chips", "at"),
    )

    #: Gapless, assigned by `dealer.ledger.post` while it holds the writers' lock.
    seq: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    #: Indexed: reports and checks read a window of the ledger, never all of it.
    at: Mapped[datetime] = mapped_column(Timestamp, index=True)
    from_account: Mapped[str] = mapped_column(sa.String(40))
    to_account: Mapped[str] = mapped_column(sa.String(40))
    chips: Mapped[int] = mapped_column()
    #: A stable code: the engine's payment rule, or buy_in, cash_out, collection.
    reason_code: Mapped[str] = mapped_column(sa.String(30))
    reason: Mapped[str] = mapped_column(sa.Text)
    table_id: Mapped[int] = mapped_column(sa.ForeignKey("card_tables.id"), index=True)
    hand_id: Mapped[int | None] = mapped_column(sa.ForeignKey("hands.id"), index=True)
    event_id: Mapped[int | None] = mapped_column(sa.ForeignKey("events.id"), index=True)
    user_id: Mapped[int] = mapped_column(sa.ForeignKey("users.id"))
    device: Mapped[str] = mapped_column(sa.String(200))
    #: The entry this one corrects; an entry is corrected at most once.
    reverses: Mapped[int | None] = mapped_column(sa.ForeignKey("ledger_entries.seq"), unique=True)
    prev_hash: Mapped[str] = mapped_column(sa.String(64))
    hash: Mapped[str] = mapped_column(sa.String(64), unique=True)


class IdempotencyRecord(Base):
    """The first answer to a POST sent with an ``Idempotency-Key``, kept to answer repeats."""

    __tablename__ = "idempotency_records"
    __table_args__ = (sa.UniqueConstraint("user_id", "key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(sa.ForeignKey("users.id"))
    key: Mapped[str] = mapped_column(sa.String(255))
    method: Mapped[str] = mapped_column(sa.String(10))
    path: Mapped[str] = mapped_column(sa.String(500))
    #: sha256 of method, path and the canonical JSON body.
    request_hash: Mapped[str] = mapped_column(sa.String(64))
    status_code: Mapped[int] = mapped_column()
    #: The response body exactly as first sent.
    response_body: Mapped[str] = mapped_column(sa.Text)
    created_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)


class PrintRecord(Base):
    """One print of a document: who printed which object, when. Never updated or deleted.

    The n-th print of the same (kind, subject) after the first is stamped "REPRINT n".
    """

    __tablename__ = "report_prints"
    __table_args__ = (
        sa.CheckConstraint(_in("kind", PRINT_KINDS), name="kind"),
        # Two prints can never carry the same stamp, even when two people print at once.
        sa.UniqueConstraint("kind", "subject", "reprint"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(sa.String(20))
    #: The object printed: a hand or session id, or a shift's window ("<from>/<to>", UTC).
    subject: Mapped[str] = mapped_column(sa.String(100))
    #: 0 for the first print, n for the n-th reprint: what the document was stamped.
    reprint: Mapped[int] = mapped_column()
    user_id: Mapped[int] = mapped_column(sa.ForeignKey("users.id"))
    device: Mapped[str] = mapped_column(sa.String(200))
    printed_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)


class ChainLink(Base):
    """One row of history sealed into the keyed chain. Never updated or deleted.

    Each link names a row (a ledger entry, an event, a print) and carries an HMAC, under a key
    kept outside the database, of that row's fields and of the link before it: whoever edits a
    row, even rehashing the ledger's own sha256 chain, cannot make its link match again.
    """

    __tablename__ = "chain_links"
    __table_args__ = (
        sa.CheckConstraint(_in("kind", LINK_KINDS), name="kind"),
        # A row is linked once.
        sa.UniqueConstraint("kind", "ref"),
    )

    #: Gapless across every kind, assigned under the writers' lock like a ledger seq.
    seq: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    kind: Mapped[str] = mapped_column(sa.String(10))
    #: The row's key: an entry's seq, an event's or a print's id.
    ref: Mapped[int] = mapped_column()
    #: When it was linked; indexed, so a window of the chain is found without reading it all.
    at: Mapped[datetime] = mapped_column(Timestamp, index=True)
    prev_hash: Mapped[str] = mapped_column(sa.String(64))
    hash: Mapped[str] = mapped_column(sa.String(64))


class IdentityVersion(Base):
    """One version of a row that says whose the chips are, under what rules or who may act where:
    a user, a table (its limits and settings), a seating, a player, a dealer's session, a dealer's
    assignment to a table. Never updated or deleted.

    Written, and linked into the keyed chain (kind ``version``), in the transaction that adds
    or changes the row (`dealer.ledger.identity`): a change is a new version. `verify` holds
    each row to its newest version, and names what was changed outside the app.
    """

    __tablename__ = "identity_versions"
    __table_args__ = (
        sa.CheckConstraint(_in("kind", IDENTITY_KINDS), name="kind"),
        sa.Index("ix_identity_versions_kind_ref", "kind", "ref", "id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(sa.String(10))
    #: The row's id.
    ref: Mapped[int] = mapped_column()
    at: Mapped[datetime] = mapped_column(Timestamp)
    #: The row's fields that say whose and under what rules (`dealer.ledger.chain.IDENTITY`).
    fields: Mapped[dict[str, Any]] = mapped_column(sa.JSON)


class CheckpointRecord(Base):
    """The database's own record of a checkpoint filed outside it. Never updated or deleted.

    Written (and linked, kind ``checkpoint``) by the first write after the checkpoint is filed,
    or by the write that files it: `verify` fails when the checkpoint file no longer holds the
    line the newest record names (the file deleted, emptied or replaced by an older copy).
    """

    __tablename__ = "checkpoint_records"

    id: Mapped[int] = mapped_column(primary_key=True)
    #: The link the checkpoint recorded (0: the empty chain, filed with the first link).
    seq: Mapped[int] = mapped_column()
    #: When the checkpoint was filed (its own ``at``).
    at: Mapped[datetime] = mapped_column(Timestamp)
    #: sha256 of its line in the checkpoint file (`dealer.ledger.checkpoints.line_digest`).
    digest: Mapped[str] = mapped_column(sa.String(64), unique=True)


class HealthCheck(Base):
    """When the health check last wrote (`dealer.health.storage_writable`): one row,
    written again in place by each check, so the check is a real write that grows nothing."""

    __tablename__ = "health_checks"

    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[datetime] = mapped_column(Timestamp)


class LiveMark(Base):
    """How many times what one screen shows has changed: a table, a hand, a seating, the floor.

    Bumped in the writer's own transaction (`dealer.live`), so every app server on the
    database sees the same number; an open screen asks for it (a primary-key read) to learn,
    without reading the ledger, whether it must be drawn again. Updated in place: it is a
    signal, not history (the ledger and the events are the history).
    """

    __tablename__ = "live_marks"

    #: ``floor``, ``table:<id>``, ``hand:<id>``, ``seating:<id>``.
    scope: Mapped[str] = mapped_column(sa.String(40), primary_key=True)
    version: Mapped[int] = mapped_column(sa.BigInteger)
