"""Who uses the app: users and their sign-ins, failed sign-ins, tablets, the audit trail."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column, relationship

from dealer.extensions import Base
from dealer.models.base import ROLES, Timestamp, _in, utcnow

if TYPE_CHECKING:
    pass


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
    #: The language this person reads the app in (``es``); null: the tablet's, or the browser's.
    language: Mapped[str | None] = mapped_column(sa.String(12))

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
    #: The language this tablet speaks to whoever chose none (``es``); null: the browser's.
    language: Mapped[str | None] = mapped_column(sa.String(12))
