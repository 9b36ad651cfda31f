"""Tables of the dealer app (typed SQLAlchemy 2.0), all on `Base`'s metadata.

What is stored is what happened, never what can be worked out from it: a
hand's melds, stacks and nets are rebuilt by replaying its events through the
rules engine, and every balance is a sum of ledger entries. The few figures a
row does keep (a hand's status and winner) are checked against the replay by
`dealer.ledger.verify`.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column, relationship

from dealer.bounds import APPROVAL_ABOVE, MAX_BUY_IN, MIN_BUY_IN
from dealer.extensions import Base, db

__all__ = [
    "DISPUTE_OUTCOMES",
    "DISPUTE_RAISERS",
    "HAND_STATUSES",
    "IDENTITY_KINDS",
    "LINK_KINDS",
    "PRINT_KINDS",
    "ROLES",
    "AuditRecord",
    "AuthToken",
    "Base",
    "ChainLink",
    "CheckpointRecord",
    "Device",
    "Dispute",
    "DisputeRuling",
    "Event",
    "Hand",
    "HealthCheck",
    "IdempotencyRecord",
    "IdentityVersion",
    "LedgerEntry",
    "Player",
    "PrintRecord",
    "Seating",
    "Table",
    "TableAssignment",
    "TableSession",
    "User",
    "as_utc",
    "db",
    "utcnow",
]

#: Roles from least to most trusted; each may do everything the ones before it may.
ROLES = ("dealer", "supervisor", "admin")
HAND_STATUSES = ("playing", "settled", "void")
#: The printed documents whose prints are counted (for the REPRINT stamp).
PRINT_KINDS = ("hand_slip", "session", "shift")
#: What the keyed chain links: ledger entries, hands' events, the print log, disputes opened
#: on hands and the rulings that close them, the audit trail, and the database's own record
#: of each checkpoint filed.
LINK_KINDS = ("entry", "event", "print", "dispute", "ruling", "audit", "checkpoint", "version")
#: The rows that say whose the chips are and under what rules, each version of which is kept
#: (`IdentityVersion`) and linked: users, tables, seatings, players, dealers' sessions.
IDENTITY_KINDS = ("user", "table", "seating", "player", "session")
#: Who raised a dispute: a seat (its player) or the dealer.
DISPUTE_RAISERS = ("seat", "dealer")
#: A ruling upholds the claim (a void or a correction followed) or denies it.
DISPUTE_OUTCOMES = ("upheld", "denied")

# Timestamps are stored with a time zone where the database keeps one (PostgreSQL)
# and as UTC wall time where it does not (SQLite); `as_utc` reads both the same way.
Timestamp = sa.DateTime(timezone=True)


def utcnow() -> datetime:
    return datetime.now(UTC)


def as_utc(moment: datetime) -> datetime:
    """A stored time as an aware UTC datetime, whichever database it came from."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def _in(column: str, values: tuple[str, ...]) -> str:
    return f"{column} IN ({', '.join(repr(v) for v in values)})"


class User(Base):
    """A person who signs in: a dealer, a supervisor or an admin."""

    __tablename__ = "users"
    __table_args__ = (sa.CheckConstraint(_in("role", ROLES), name="role"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(sa.String(60), unique=True)
    role: Mapped[str] = mapped_column(sa.String(20))
    #: A slow salted hash from werkzeug (scrypt); the PIN itself is never stored.
    pin_hash: Mapped[str] = mapped_column(sa.String(255))
    active: Mapped[bool] = mapped_column(default=True)
    #: No longer read: wrong PINs are counted per name and per source in `SignInFailure`
    #: (migration 0015_sign_ins). Kept so that the schema needs no rewrite of the users table.
    failed_pins: Mapped[int] = mapped_column(default=0)
    locked_until: Mapped[datetime | None] = mapped_column(Timestamp)
    created_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)

    def can(self, role: str) -> bool:
        """Whether this user holds ``role`` or a more trusted one."""
        return ROLES.index(self.role) >= ROLES.index(role)


class AuthToken(Base):
    """One sign-in: the bearer token and the session cookie both point at this row."""

    __tablename__ = "auth_tokens"

    id: Mapped[int] = mapped_column(primary_key=True)
    #: sha256 of the token; the token itself is only ever in the client's hands.
    token_hash: Mapped[str] = mapped_column(sa.String(64), unique=True)
    user_id: Mapped[int] = mapped_column(sa.ForeignKey("users.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)
    revoked_at: Mapped[datetime | None] = mapped_column(Timestamp, index=True)
    #: When the sign-in was last used, written at most once a minute (the idle limit).
    last_seen_at: Mapped[datetime | None] = mapped_column(Timestamp)
    #: The device the client says it is: its own claim, never checked.
    device: Mapped[str | None] = mapped_column(sa.String(200))
    #: The supervisor who ended this sign-in from the floor, if one did.
    ended_by: Mapped[int | None] = mapped_column(sa.ForeignKey("users.id"))

    user: Mapped[User] = relationship(foreign_keys=[user_id])


#: What a `SignInFailure` row counts: a name at one source, a name from anywhere, one
#: source, or a supervisor's name typed at one source for one signed-in user.
FAILURE_SCOPES = ("pair", "name", "source", "approval")


class SignInFailure(Base):
    """Wrong PINs in a row for one scope and key, and until when the next try is refused.

    Updated in place (a counter, not history): see dealer/lockout.py.
    """

    __tablename__ = "sign_in_failures"
    __table_args__ = (
        sa.CheckConstraint(_in("scope", FAILURE_SCOPES), name="scope"),
        sa.UniqueConstraint("scope", "key"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    scope: Mapped[str] = mapped_column(sa.String(10))
    key: Mapped[str] = mapped_column(sa.String(300))
    failures: Mapped[int] = mapped_column(default=0)
    refused_until: Mapped[datetime | None] = mapped_column(Timestamp)
    #: The per-source limit: attempts since ``window_start`` (a minute at a time).
    window_start: Mapped[datetime | None] = mapped_column(Timestamp)
    attempts: Mapped[int] = mapped_column(default=0)
    updated_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)


class Table(Base):
    """A card table: its rule profile, the knobs it overrides and its house collection."""

    __tablename__ = "card_tables"
    __table_args__ = (sa.CheckConstraint("chip_value_cents >= 0", name="chip_value"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(sa.String(100))
    profile: Mapped[str] = mapped_column(sa.String(20))
    #: Only the knobs the table overrides; the profile supplies the rest.
    rules: Mapped[dict[str, Any]] = mapped_column(sa.JSON)
    #: The collection model in its API form: {"kind": "time", "chips": 1, "minutes": 30}.
    collection: Mapped[dict[str, Any]] = mapped_column(sa.JSON)
    chip_value_cents: Mapped[int] = mapped_column()
    created_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)
    created_by: Mapped[int] = mapped_column(sa.ForeignKey("users.id"))
    #: The money limits (`dealer.floor.limits`): the least and the most one buy-in may be,
    #: and above how many chips a buy-in or a cash-out needs a supervisor's name and PIN.
    min_buy_in: Mapped[int] = mapped_column(default=MIN_BUY_IN)
    max_buy_in: Mapped[int] = mapped_column(default=MAX_BUY_IN)
    approval_above: Mapped[int] = mapped_column(default=APPROVAL_ABOVE)


class TableAssignment(Base):
    """A supervisor sending a dealer to a table (``assigned``) or taking them off it.

    Never updated or deleted: the latest row for a (table, dealer) says whether the dealer
    is assigned there now, and the rows before it are the floor's history.
    """

    __tablename__ = "table_assignments"

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(sa.ForeignKey("card_tables.id"), index=True)
    dealer_id: Mapped[int] = mapped_column(sa.ForeignKey("users.id"), index=True)
    assigned: Mapped[bool] = mapped_column()
    by_id: Mapped[int] = mapped_column(sa.ForeignKey("users.id"))
    at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)


class Player(Base):
    """A player known across sessions and days: what seatings belong to."""

    __tablename__ = "players"

    id: Mapped[int] = mapped_column(primary_key=True)
    #: A name or a nickname, as the floor knows the player.
    name: Mapped[str] = mapped_column(sa.String(60), index=True)
    #: The card room's player card, when the player has one: one player per card.
    card_number: Mapped[str | None] = mapped_column(sa.String(30), unique=True)
    notes: Mapped[str | None] = mapped_column(sa.Text)
    created_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)
    created_by: Mapped[int] = mapped_column(sa.ForeignKey("users.id"))


class Seating(Base):
    """A player's stay in one seat, from sitting down to leaving.

    Seat numbers are reused over an evening; the seating is what the ledger's
    stack account (``seating:<id>``) belongs to.
    """

    __tablename__ = "seatings"
    __table_args__ = (
        sa.CheckConstraint("seat BETWEEN 1 AND 8", name="seat"),
        # At most one player in a seat at a time: a second sitting down is a conflict.
        sa.Index(
            "uq_seatings_open_seat",
            "table_id",
            "seat",
            unique=True,
            sqlite_where=sa.text("left_at IS NULL"),
            postgresql_where=sa.text("left_at IS NULL"),
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(sa.ForeignKey("card_tables.id"), index=True)
    seat: Mapped[int] = mapped_column()
    #: The name shown for the seat (the player's name when it was taken).
    player: Mapped[str] = mapped_column(sa.String(60))
    #: The player record; null for seatings from before players were kept (0014).
    player_id: Mapped[int | None] = mapped_column(sa.ForeignKey("players.id"), index=True)
    seated_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)
    left_at: Mapped[datetime | None] = mapped_column(Timestamp)
    #: A paused player sits out: not dealt in, not charged the time collection.
    paused: Mapped[bool] = mapped_column(default=False)


class TableSession(Base):
    """A dealer's down at one table: opened, then closed, and the close confirmed by the floor.

    The down ends when its close is requested (``closed_at``): from then on no hand joins
    it and the next dealer may open one. The floor's confirmation comes with or after it.
    """

    __tablename__ = "table_sessions"
    __table_args__ = (
        # One open session per table, even when two tablets open one at once.
        sa.Index(
            "uq_table_sessions_one_open",
            "table_id",
            unique=True,
            sqlite_where=sa.text("closed_at IS NULL"),
            postgresql_where=sa.text("closed_at IS NULL"),
        ),
        sa.CheckConstraint(
            "close_confirmed_by IS NULL OR closed_at IS NOT NULL", name="confirmed_after_close"
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(sa.ForeignKey("card_tables.id"), index=True)
    dealer_id: Mapped[int] = mapped_column(sa.ForeignKey("users.id"))
    opened_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)
    #: Opened by dealing a hand while no session was open, not by an explicit open.
    implicit: Mapped[bool] = mapped_column(default=False)
    closed_at: Mapped[datetime | None] = mapped_column(Timestamp)
    close_requested_by: Mapped[int | None] = mapped_column(sa.ForeignKey("users.id"))
    close_confirmed_by: Mapped[int | None] = mapped_column(sa.ForeignKey("users.id"))
    close_confirmed_at: Mapped[datetime | None] = mapped_column(Timestamp)

    dealer: Mapped[User] = relationship(foreign_keys=[dealer_id])

    @property
    def status(self) -> str:
        """open; awaiting_confirmation (the down has ended); closed (the floor confirmed)."""
        if self.closed_at is None:
            return "open"
        return "closed" if self.close_confirmed_by is not None else "awaiting_confirmation"


class Hand(Base):
    """One hand at a table, with the exact rules and collection it was played under."""

    __tablename__ = "hands"
    __table_args__ = (
        sa.CheckConstraint(_in("status", HAND_STATUSES), name="status"),
        sa.UniqueConstraint("table_id", "number"),
        # One hand in play per table, even when two tablets start one at once.
        sa.Index(
            "uq_hands_one_playing",
            "table_id",
            unique=True,
            sqlite_where=sa.text("status = 'playing'"),
            postgresql_where=sa.text("status = 'playing'"),
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(sa.ForeignKey("card_tables.id"), index=True)
    #: The dealer's session open at the table when the hand was dealt.
    session_id: Mapped[int | None] = mapped_column(sa.ForeignKey("table_sessions.id"), index=True)
    #: 1, 2, 3 ... per table.
    number: Mapped[int] = mapped_column()
    #: Kept in step with the replayed engine in the event's own transaction.
    status: Mapped[str] = mapped_column(sa.String(10))
    #: {"profile": ..., every knob: its effective value}.
    rules: Mapped[dict[str, Any]] = mapped_column(sa.JSON)
    collection: Mapped[dict[str, Any]] = mapped_column(sa.JSON)
    #: Seat number (as a string) -> seating id, for every seat dealt in.
    seats: Mapped[dict[str, int]] = mapped_column(sa.JSON)
    winner: Mapped[int | None] = mapped_column()
    #: Indexed: a shift report reads the hands dealt in its window, not every hand.
    started_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow, index=True)
    ended_at: Mapped[datetime | None] = mapped_column(Timestamp)
    #: The rules engine the hand was played under (`dealer.ledger.engine`); null before 0009.
    engine_version: Mapped[str | None] = mapped_column(sa.String(40))


class Event(Base):
    """One event of a hand, exactly as recorded: the deal, a meld, a void ..."""

    __tablename__ = "events"
    __table_args__ = (sa.UniqueConstraint("hand_id", "seq"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    hand_id: Mapped[int] = mapped_column(sa.ForeignKey("hands.id"), index=True)
    #: The engine's event number within the hand: the deal is 1.
    seq: Mapped[int] = mapped_column()
    type: Mapped[str] = mapped_column(sa.String(20))
    #: The action in canonical form (``action_to_dict``); null for the deal.
    action: Mapped[dict[str, Any] | None] = mapped_column(sa.JSON)
    seat: Mapped[int | None] = mapped_column()
    user_id: Mapped[int] = mapped_column(sa.ForeignKey("users.id"))
    #: The supervisor who approved it, when the rules ask for one.
    supervisor_id: Mapped[int | None] = mapped_column(sa.ForeignKey("users.id"))
    device: Mapped[str] = mapped_column(sa.String(200))
    created_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)
    #: The hand's status and winner once this event was applied, as the engine said then (the
    #: keyed chain covers them: a hand's own row, updated as it is played, is held to its last
    #: event's). Null before migration 0009.
    hand_status: Mapped[str | None] = mapped_column(sa.String(10))
    hand_winner: Mapped[int | None] = mapped_column()

    user: Mapped[User] = relationship(foreign_keys=[user_id])
    supervisor: Mapped[User | None] = relationship(foreign_keys=[supervisor_id])


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
    """One version of a row that says whose the chips are and under what rules: a user, a table
    (and its limits), a seating, a player, a dealer's session. Never updated or deleted.

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


class Dispute(Base):
    """A question raised on a hand, on the record. Never updated or deleted: a ruling closes it.

    Linked into the keyed chain like the ledger (kind ``dispute``).
    """

    __tablename__ = "disputes"
    __table_args__ = (
        sa.CheckConstraint(_in("raised_by", DISPUTE_RAISERS), name="raised_by"),
        # A seat raises it with its number; the dealer without one.
        sa.CheckConstraint(
            "(raised_by = 'seat') = (seat IS NOT NULL)", name="seat_when_raised_by_seat"
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    hand_id: Mapped[int] = mapped_column(sa.ForeignKey("hands.id"), index=True)
    raised_by: Mapped[str] = mapped_column(sa.String(10))
    seat: Mapped[int | None] = mapped_column()
    #: What was claimed, in the words it was put.
    claim: Mapped[str] = mapped_column(sa.Text)
    #: The ledger entry (a payment) the claim is about, if it is about one.
    entry_seq: Mapped[int | None] = mapped_column(sa.ForeignKey("ledger_entries.seq"))
    user_id: Mapped[int] = mapped_column(sa.ForeignKey("users.id"))
    device: Mapped[str] = mapped_column(sa.String(200))
    opened_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow, index=True)

    user: Mapped[User] = relationship()


class DisputeRuling(Base):
    """A supervisor's ruling that closes a dispute. Never updated or deleted; at most one.

    Linked into the keyed chain like the ledger (kind ``ruling``).
    """

    __tablename__ = "dispute_rulings"
    __table_args__ = (
        sa.CheckConstraint(_in("outcome", DISPUTE_OUTCOMES), name="outcome"),
        # What an upheld claim led to is linked; a denied one led to nothing.
        sa.CheckConstraint(
            "outcome = 'upheld' OR (void_event_id IS NULL AND correction_seq IS NULL)",
            name="denied_leads_to_nothing",
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    dispute_id: Mapped[int] = mapped_column(sa.ForeignKey("disputes.id"), unique=True)
    outcome: Mapped[str] = mapped_column(sa.String(10))
    #: Why, in the supervisor's words.
    reason: Mapped[str] = mapped_column(sa.Text)
    #: The void event an upheld claim led to, or the correcting ledger entry.
    void_event_id: Mapped[int | None] = mapped_column(sa.ForeignKey("events.id"))
    correction_seq: Mapped[int | None] = mapped_column(sa.ForeignKey("ledger_entries.seq"))
    user_id: Mapped[int] = mapped_column(sa.ForeignKey("users.id"))
    device: Mapped[str] = mapped_column(sa.String(200))
    ruled_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)

    user: Mapped[User] = relationship()


class AuditRecord(Base):
    """One thing done that moved no chip but matters to the floor: a sign-in, a refusal, an
    approval, an override, a void, a table's or a user's change. Never updated or deleted.

    ``device`` is what the request said it came from: the device's own claim, unchecked.
    """

    __tablename__ = "audit_records"

    id: Mapped[int] = mapped_column(primary_key=True)
    #: Indexed: the audit screen reads a window of time, newest first.
    at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow, index=True)
    #: One of `dealer.people.audit.AUDIT_KINDS`; kept out of a CHECK so a new kind needs no
    #: migration.
    kind: Mapped[str] = mapped_column(sa.String(30), index=True)
    #: Who did it; null when nobody was signed in (a refused sign-in names no user).
    user_id: Mapped[int | None] = mapped_column(sa.ForeignKey("users.id"), index=True)
    device: Mapped[str] = mapped_column(sa.String(200))
    table_id: Mapped[int | None] = mapped_column(sa.ForeignKey("card_tables.id"), index=True)
    hand_id: Mapped[int | None] = mapped_column(sa.ForeignKey("hands.id"))
    #: One sentence a floor supervisor reads as it is.
    words: Mapped[str] = mapped_column(sa.Text)
    #: Ids and amounts behind the words; never a PIN.
    details: Mapped[dict[str, Any]] = mapped_column(sa.JSON, default=dict)


class Device(Base):
    """A tablet the floor registered and named ("Table 4 tablet"): its cookie names it.

    The cookie holds a random token; only its sha256 is kept. Renaming changes ``name``;
    retiring sets ``retired_at`` and the token stops naming the tablet. What was recorded from
    it keeps the words it was recorded with (``events.device`` and the like).
    """

    __tablename__ = "devices"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(sa.String(40))
    token_hash: Mapped[str] = mapped_column(sa.String(64), unique=True)
    registered_by: Mapped[int] = mapped_column(sa.ForeignKey("users.id"))
    registered_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)
    retired_at: Mapped[datetime | None] = mapped_column(Timestamp)


class HealthCheck(Base):
    """What the health check wrote last (`dealer.transactions.storage_writable`): a row
    committed and the ones before it deleted on each check, so the check is a real write."""

    __tablename__ = "health_checks"

    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[datetime] = mapped_column(Timestamp)
    pad: Mapped[bytes] = mapped_column(sa.LargeBinary)


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
