"""People: users, their PINs (slow salted hashes), sign-in with a lockout, tokens, roles.

Every decision about people lives here, once, for every front door: who holds a role,
signing in and out, a supervisor approving on the spot (with the same lockout), and an
admin adding or deactivating users (never the last active admin).
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache

from flask import current_app
from sqlalchemy import Select, bindparam, func, select, update
from sqlalchemy.orm import Session, joinedload
from werkzeug.security import check_password_hash, generate_password_hash

from dealer.audit import record_audit
from dealer.bounds import MAX_ID, PIN_DIGITS, USER_NAME
from dealer.errors import Conflict, Forbidden, Invalid, NotFound, NotSignedIn, TooManyAttempts
from dealer.models import ROLES, AuthToken, User, as_utc, utcnow
from dealer.transactions import writing

__all__ = [
    "LIVE_TOKEN",
    "LOCKOUT",
    "MAX_WRONG_PINS",
    "NAME_LENGTH",
    "NO_MATCH",
    "PinRefused",
    "add_user",
    "approve_supervisor",
    "authenticate",
    "check_name",
    "check_pin_format",
    "check_role",
    "create_first_admin",
    "deactivate_user",
    "find_token",
    "hash_token",
    "issue_token",
    "list_users",
    "names_of",
    "needs_first_admin",
    "require_role",
    "revoke",
    "sign_in",
]

#: Wrong PINs in a row before sign-in is refused for `LOCKOUT`: a 4-digit PIN
#: then takes days, not minutes, to guess.
MAX_WRONG_PINS = 5
LOCKOUT = timedelta(minutes=5)
PIN_PATTERN = re.compile(rf"[0-9]{{{PIN_DIGITS[0]},{PIN_DIGITS[1]}}}")
NAME_LENGTH = USER_NAME
#: What a sign-in hears whatever was wrong with the name or the PIN.
NO_MATCH = "That name and PIN do not match an active user."


def check_pin_format(pin: object) -> str:
    if not isinstance(pin, str) or not PIN_PATTERN.fullmatch(pin):
        raise Invalid(f"A PIN is {PIN_DIGITS[0]} to {PIN_DIGITS[1]} digits.", "invalid_pin")
    return pin


def check_name(name: object) -> str:
    if not isinstance(name, str) or not name.strip() or len(name) > NAME_LENGTH:
        raise Invalid(f"A name is 1 to {NAME_LENGTH} characters.", "invalid_name")
    return name.strip()


def check_role(role: object) -> str:
    if not isinstance(role, str) or role not in ROLES:
        raise Invalid(f"A role is one of {', '.join(ROLES)}.", "invalid_role")
    return role


def _method() -> str:
    return str(current_app.config.get("PIN_HASH_METHOD", "scrypt"))


def add_user(
    session: Session, name: object, role: object, pin: object, by: User | None = None
) -> User:
    """A new user; the PIN is kept only as werkzeug's salted scrypt hash.

    ``by`` is the admin adding them (none from the command line or the first-run screen).
    """
    name = check_name(name)
    role = check_role(role)
    pin = check_pin_format(pin)
    if session.scalars(select(User).where(User.name == name)).first() is not None:
        raise Conflict(f"There is already a user called {name}.", "user_exists")
    user = User(name=name, role=role, pin_hash=generate_password_hash(pin, method=_method()))
    session.add(user)
    session.flush()
    added_by = f" by {by.name}" if by is not None else ""
    record_audit(
        session,
        "user_added",
        words=f"{name} added as {role}{added_by}.",
        user_id=by.id if by is not None else None,
        details={"user": user.id, "role": role},
    )
    return user


def needs_first_admin(session: Session) -> bool:
    """Whether nobody has been added yet: then the first screen creates the first admin."""
    return session.scalar(select(User.id).limit(1)) is None


def create_first_admin(session: Session, name: object, pin: object) -> User:
    """The first admin, on a new install; refused once anyone exists (the next are added by
    an admin, never by whoever reaches the screen first)."""
    if not needs_first_admin(session):
        raise Conflict("The first admin exists already: sign in instead.", "users_exist")
    return add_user(session, name, "admin", pin)


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
    refused = PinRefused(NO_MATCH)
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
    """The live token row for a bearer token: not revoked, its user active.

    Every signed-in request asks this, so the user comes in the same query as the token.
    """
    found = session.execute(_TOKEN_AND_USER, {"token_hash": hash_token(token)}).first()
    # The token's user is in the session now: `row.user` finds it there, with no query.
    row = found[0] if found is not None else None
    return row if _live(row) else None


#: A token and its user, as two entities of one plain join (lighter than a joined load).
_TOKEN_AND_USER = (
    select(AuthToken, User)
    .join(User, User.id == AuthToken.user_id)
    .where(AuthToken.token_hash == bindparam("token_hash"))
)


def token_by_id(session: Session, token_id: int) -> AuthToken | None:
    row = session.get(AuthToken, token_id, options=[joinedload(AuthToken.user)])
    return row if _live(row) else None


def _live(row: AuthToken | None) -> bool:
    return row is not None and row.revoked_at is None and row.user.active


#: `_live` as a query (the token's id, bound as ``token_id``), for a read too frequent to
#: load the user: an open screen asking every second whether it changed.
LIVE_TOKEN: Select[int] = (
    select(AuthToken.id)
    .join(User, User.id == AuthToken.user_id)
    .where(AuthToken.id == bindparam("token_id"), AuthToken.revoked_at.is_(None), User.active)
)


def require_role(user: User, role: str) -> None:
    """Refuse unless ``user`` holds ``role`` or a more trusted one."""
    if not user.can(role):
        raise Forbidden(f"Only a {role} or above may do this.", "role_not_allowed")


def _locked(refused: PinRefused) -> TooManyAttempts:
    assert refused.locked_until is not None
    wait = (as_utc(refused.locked_until) - utcnow()).total_seconds()
    return TooManyAttempts(refused.message, "pin_locked", retry_after=max(1, int(wait)))


def _checked_pin(session: Session, name: object, pin: object) -> User | PinRefused:
    """`authenticate` in a write transaction of its own, so that a wrong PIN's count is
    committed even though the call it came with is refused."""
    with writing(session) as work:
        return authenticate(work, name, pin)


def sign_in(session: Session, name: object, pin: object) -> tuple[str, AuthToken]:
    """A new sign-in (a bearer token and its row) for the active user with this name and PIN.

    Refused with ``wrong_pin`` (401), or ``pin_locked`` (429) during a lockout.
    """
    outcome = _checked_pin(session, name, pin)
    if isinstance(outcome, PinRefused):
        if outcome.locked_until is not None:
            raise _locked(outcome)
        raise NotSignedIn(outcome.message, "wrong_pin")
    with writing(session) as work:
        user = work.get(User, outcome.id)
        assert user is not None
        return issue_token(work, user)


def revoke(session: Session, token_id: int) -> None:
    """End a sign-in: its bearer token and the cookie that points at it both stop working."""
    with writing(session) as work:
        row = work.get(AuthToken, token_id)
        if row is not None and row.revoked_at is None:
            row.revoked_at = utcnow()


def approve_supervisor(session: Session, name: object, pin: object) -> int:
    """The id of the supervisor (or admin) with this name and PIN, approving on the spot.

    A wrong PIN counts towards the same lockout as signing in.
    """
    outcome = _checked_pin(session, name.strip() if isinstance(name, str) else name, pin)
    if isinstance(outcome, PinRefused):
        if outcome.locked_until is not None:
            raise _locked(outcome)
        raise Forbidden("The supervisor's name or PIN is wrong.", "supervisor_not_approved")
    if not outcome.can("supervisor"):
        raise Forbidden("Only a supervisor can approve this.", "supervisor_not_approved")
    return outcome.id


def names_of(session: Session, ids: Iterable[int | None]) -> dict[int, str]:
    """Each user's name by id, for the ids given (None is skipped)."""
    wanted = {i for i in ids if i is not None}
    if not wanted:
        return {}
    rows = session.execute(select(User.id, User.name).where(User.id.in_(wanted)))
    return {user_id: name for user_id, name in rows}


def list_users(session: Session) -> list[User]:
    return list(session.scalars(select(User).order_by(User.name)))


def deactivate_user(session: Session, user_id: int, by: User | None = None) -> User:
    """Stop a user signing in; every sign-in of theirs ends now. Their history stays.

    The last active admin cannot be deactivated: nobody could add users after.
    """
    user = session.get(User, user_id) if 1 <= user_id <= MAX_ID else None
    if user is None:
        raise NotFound(f"There is no user {user_id}.", "unknown_user")
    if user.role == "admin" and user.active:
        admins = session.scalar(
            select(func.count()).where(User.role == "admin", User.active.is_(True))
        )
        if admins == 1:
            raise Conflict("This is the last active admin: add another first.", "last_admin")
    user.active = False
    session.execute(
        update(AuthToken)
        .where(AuthToken.user_id == user.id, AuthToken.revoked_at.is_(None))
        .values(revoked_at=utcnow())
    )
    session.flush()
    record_audit(
        session,
        "user_changed",
        words=f"{user.name} deactivated" + (f" by {by.name}." if by is not None else "."),
        user_id=by.id if by is not None else None,
        details={"user": user.id, "active": False},
    )
    return user
