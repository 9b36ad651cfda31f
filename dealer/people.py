"""People: users, their PINs (slow salted hashes), sign-in with a lockout, and tokens."""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache

from flask import current_app
from sqlalchemy import select
from sqlalchemy.orm import Session
from werkzeug.security import check_password_hash, generate_password_hash

from dealer.errors import Conflict, Invalid
from dealer.models import ROLES, AuthToken, User, as_utc, utcnow

__all__ = [
    "LOCKOUT",
    "MAX_WRONG_PINS",
    "PinRefused",
    "add_user",
    "authenticate",
    "check_pin_format",
    "find_token",
    "hash_token",
    "issue_token",
]

#: Wrong PINs in a row before sign-in is refused for `LOCKOUT`: a 4-digit PIN
#: then takes days, not minutes, to guess.
MAX_WRONG_PINS = 5
LOCKOUT = timedelta(minutes=5)
PIN_PATTERN = re.compile(r"[0-9]{4,8}")
NAME_LENGTH = 60


def check_pin_format(pin: object) -> str:
    if not isinstance(pin, str) or not PIN_PATTERN.fullmatch(pin):
        raise Invalid("A PIN is 4 to 8 digits.", "invalid_pin")
    return pin


def check_name(name: object) -> str:
    if not isinstance(name, str) or not name.strip() or len(name) > NAME_LENGTH:
        raise Invalid(f"A name is 1 to {NAME_LENGTH} characters.", "invalid_name")
    return name.strip()


def _method() -> str:
    return str(current_app.config.get("PIN_HASH_METHOD", "scrypt"))


def add_user(session: Session, name: object, role: object, pin: object) -> User:
    """A new user; the PIN is kept only as werkzeug's salted scrypt hash."""
    name = check_name(name)
    if not isinstance(role, str) or role not in ROLES:
        raise Invalid(f"A role is one of {', '.join(ROLES)}.", "invalid_role")
    pin = check_pin_format(pin)
    if session.scalars(select(User).where(User.name == name)).first() is not None:
        raise Conflict(f"There is already a user called {name}.", "user_exists")
    user = User(name=name, role=role, pin_hash=generate_password_hash(pin, method=_method()))
    session.add(user)
    session.flush()
    return user


@cache
def _decoy_hash(method: str) -> str:
    return generate_password_hash(secrets.token_hex(8), method=method)


@dataclass(frozen=True, slots=True)
class PinRefused:
    """Why a sign-in failed: ``locked_until`` is set when the user is locked out."""

    message: str
    locked_until: datetime | None = None


def authenticate(session: Session, name: object, pin: object) -> User | PinRefused:
    """The active user with this name and PIN, or why not.

    Counts wrong PINs on the user (the caller commits that even though the
    sign-in fails) and locks the name for `LOCKOUT` after `MAX_WRONG_PINS`.
    """
    refused = PinRefused("That name and PIN do not match an active user.")
    user = None
    if isinstance(name, str) and len(name) <= NAME_LENGTH:
        user = session.scalars(select(User).where(User.name == name.strip())).first()
    now = utcnow()
    if user is not None and user.locked_until is not None and as_utc(user.locked_until) > now:
        return PinRefused(
            "Too many wrong PINs: this name is locked for a few minutes.", user.locked_until
        )
    pin_text = pin if isinstance(pin, str) else ""
    # Hash even for an unknown name, so the answer takes as long either way.
    stored = user.pin_hash if user is not None else _decoy_hash(_method())
    matches = check_password_hash(stored, pin_text)
    if user is None or not user.active:
        return refused
    if not matches:
        user.failed_pins += 1
        if user.failed_pins >= MAX_WRONG_PINS:
            user.failed_pins = 0
            user.locked_until = now + LOCKOUT
        session.flush()
        return refused
    if user.failed_pins or user.locked_until is not None:
        user.failed_pins = 0
        user.locked_until = None
        session.flush()
    return user


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def issue_token(session: Session, user: User) -> tuple[str, AuthToken]:
    """A new random token for ``user``; only its sha256 is stored."""
    token = secrets.token_urlsafe(32)
    row = AuthToken(token_hash=hash_token(token), user_id=user.id)
    session.add(row)
    session.flush()
    return token, row


def find_token(session: Session, token: str) -> AuthToken | None:
    """The live token row for a bearer token: not revoked, its user active."""
    row = session.scalars(
        select(AuthToken).where(AuthToken.token_hash == hash_token(token))
    ).first()
    return row if _live(row) else None


def token_by_id(session: Session, token_id: int) -> AuthToken | None:
    row = session.get(AuthToken, token_id)
    return row if _live(row) else None


def _live(row: AuthToken | None) -> bool:
    return row is not None and row.revoked_at is None and row.user.active
