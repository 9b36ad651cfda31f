"""People: users, their PINs (slow salted hashes), sign-in with a lockout, tokens, roles.

Every decision about people lives here, once, for every front door: who holds a role,
signing in and out, a supervisor approving on the spot (with the same lockout), and an
admin adding or deactivating users (never the last active admin).
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
import threading
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from datetime import datetime, timedelta
from functools import cache

from flask import current_app, has_request_context, request
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session, joinedload
from werkzeug.security import check_password_hash, generate_password_hash

from dealer import lockout
from dealer.bounds import MAX_ID, PIN_DIGITS, PLAIN_TEXT_WORDS, USER_NAME, is_plain
from dealer.errors import (
    Conflict,
    Forbidden,
    Invalid,
    NotFound,
    NotSignedIn,
    StorageUnavailable,
)
from dealer.lockout import FREE_WRONG_PINS, Attempt
from dealer.models import ROLES, AuthToken, User, as_utc, utcnow
from dealer.transactions import in_write, writing

__all__ = [
    "MAX_WRONG_PINS",
    "NAME_LENGTH",
    "NO_MATCH",
    "add_user",
    "approve_supervisor",
    "check_name",
    "check_pin",
    "check_pin_format",
    "check_role",
    "create_first_admin",
    "deactivate_user",
    "end_sign_in",
    "find_token",
    "hash_token",
    "issue_token",
    "list_users",
    "live_sign_ins",
    "names_of",
    "needs_first_admin",
    "require_role",
    "revoke",
    "sign_in",
    "why_ended",
]

#: Wrong PINs in a row for a name at one device before each next try waits (growing waits,
#: `dealer.lockout`): a 4-digit PIN then takes months, not minutes, to guess.
MAX_WRONG_PINS = FREE_WRONG_PINS
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
    if not is_plain(name):
        raise Invalid(f"A name: {PLAIN_TEXT_WORDS}", "invalid_name")
    return name.strip()


def check_role(role: object) -> str:
    if not isinstance(role, str) or role not in ROLES:
        raise Invalid(f"A role is one of {', '.join(ROLES)}.", "invalid_role")
    return role


def _method() -> str:
    return str(current_app.config.get("PIN_HASH_METHOD", "scrypt"))


def add_user(session: Session, name: object, role: object, pin: object) -> User:
    """A new user; the PIN is kept only as werkzeug's salted scrypt hash."""
    name = check_name(name)
    role = check_role(role)
    pin = check_pin_format(pin)
    if session.scalars(select(User).where(User.name == name)).first() is not None:
        raise Conflict(f"There is already a user called {name}.", "user_exists")
    user = User(name=name, role=role, pin_hash=generate_password_hash(pin, method=_method()))
    session.add(user)
    session.flush()
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


def _nice_thread() -> None:
    """Make this thread the machine's last in line for a CPU (Linux: per thread)."""
    # Not Linux, or not allowed: the hash runs at normal priority.
    with suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), LOWEST_PRIORITY)


#: PIN hashes are checked on these threads, niced to the lowest CPU priority: scrypt takes a
#: core for ~100 ms, and a flood of wrong PINs must not take the cores the floor's writes and
#: reads need. At most `HASHERS` hashes run at once in a process; more queue (each try also
#: passes the per-source limits of `dealer.lockout` first). Threads start on first use, so a
#: preloaded gunicorn master forks none.
HASHERS = 2
LOWEST_PRIORITY = 19
_hashers = ThreadPoolExecutor(HASHERS, "pin-hash", initializer=_nice_thread)


def _matches(stored: str, pin: str) -> bool:
    """Whether ``pin`` matches the hash ``stored``: checked on a low-priority hasher thread."""
    return _hashers.submit(lambda: check_password_hash(stored, pin)).result()


def _source(source: str | None) -> str:
    """Where a try came from: as given, else this request's client address (after ProxyFix,
    when the app is told to trust a proxy), else "local" (the command line)."""
    if source:
        return source
    if has_request_context() and request.remote_addr:
        return request.remote_addr
    return "local"


def _attempts_per_minute() -> int:
    return int(current_app.config.get("SIGN_IN_ATTEMPTS_PER_MINUTE", 60))


def check_pin(session: Session, name: object, pin: object, attempt: Attempt) -> int | None:
    """The id of the active user with this name and PIN, or None; refused while locked out.

    Never under the writers' lock: the user's hash is read in a read transaction (ended before
    hashing), the slow hash is checked with no transaction open, and only the outcome (the
    counts of `dealer.lockout`) is written, in a short write of its own. An unknown name is
    hashed against a decoy, counted and refused exactly like a known one.
    """
    if in_write(session):
        # A caller inside `writing` would hash under the writers' lock: every ledger write
        # of the floor would wait for scrypt. Check the PIN first, then write.
        raise RuntimeError("A PIN is checked before the write begins, never inside it.")
    refused = lockout.refusal(session, attempt, _attempts_per_minute())
    if refused is not None:
        session.rollback()
        raise refused
    found = None
    if isinstance(name, str) and len(name) <= NAME_LENGTH:
        found = session.execute(
            select(User.id, User.pin_hash, User.active).where(User.name == name.strip())
        ).first()
    session.rollback()  # hold no snapshot while hashing
    stored = found.pin_hash if found is not None else _decoy_hash(_method())
    matches = _matches(stored, pin if isinstance(pin, str) else "")
    right = found is not None and bool(found.active) and matches
    with writing(session) as work:
        lockout.record(work, attempt, right)
    return found.id if right and found is not None else None


def _attempt(name: object, source: str | None, **approval: object) -> Attempt:
    typed = name if isinstance(name, str) else ""
    return Attempt(typed, _source(source), **approval)  # type: ignore[arg-type]


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def issue_token(session: Session, user: User, device: str | None = None) -> tuple[str, AuthToken]:
    """A new random token for ``user``; only its sha256 is stored. The cookie of a screen's
    sign-in carries this same token (signed), never the row's sequential id."""
    token = secrets.token_urlsafe(32)
    now = utcnow()
    row = AuthToken(token_hash=hash_token(token), user_id=user.id, device=device, last_seen_at=now)
    row.created_at = now
    session.add(row)
    session.flush()
    return token, row


def sign_in(
    session: Session,
    name: object,
    pin: object,
    *,
    source: str | None = None,
    device: str | None = None,
) -> tuple[str, AuthToken]:
    """A new sign-in (a bearer token and its row) for the active user with this name and PIN.

    Refused with ``wrong_pin`` (401), or 429 (``pin_locked``, ``too_many_attempts``) while
    this name or this source must wait (`dealer.lockout`).
    """
    user_id = check_pin(session, name, pin, _attempt(name, source))
    if user_id is None:
        raise NotSignedIn(NO_MATCH, "wrong_pin")
    with writing(session) as work:
        user = work.get(User, user_id)
        if user is None or not user.active:  # deactivated while the PIN was checked
            raise NotSignedIn(NO_MATCH, "wrong_pin")
        return issue_token(work, user, device)


def approve_supervisor(
    session: Session,
    name: object,
    pin: object,
    *,
    source: str | None = None,
    asked_by: int | None = None,
) -> int:
    """The id of the supervisor (or admin) with this name and PIN, approving on the spot.

    Checked before any write begins (the caller's write comes after). Wrong PINs are
    counted for this name typed at this source by ``asked_by`` (the signed-in user): they
    delay only that user's approvals, never the supervisor's own sign-in.
    """
    attempt = _attempt(name, source, approval=True, approval_for=asked_by)
    user_id = check_pin(session, name, pin, attempt)
    if user_id is None:
        raise Forbidden("The supervisor's name or PIN is wrong.", "supervisor_not_approved")
    user = session.get(User, user_id)
    if user is None or not user.can("supervisor"):
        raise Forbidden("Only a supervisor can approve this.", "supervisor_not_approved")
    return user_id


def require_role(user: User, role: str) -> None:
    """Refuse unless ``user`` holds ``role`` or a more trusted one."""
    if not user.can(role):
        raise Forbidden(f"Only a {role} or above may do this.", "role_not_allowed")


def _lifetime() -> timedelta:
    return timedelta(hours=float(current_app.config.get("SIGN_IN_HOURS", 12)))


def _idle() -> timedelta | None:
    seconds = int(current_app.config.get("IDLE_SECONDS", 900))
    return timedelta(seconds=seconds) if seconds > 0 else None


#: How often a sign-in's last use is written: a write per request would cost every call.
SEEN_EVERY = timedelta(minutes=1)


def why_ended(row: AuthToken | None, now: datetime | None = None) -> str | None:
    """Why this sign-in no longer works, in words, or None while it is live.

    One rule for the API's bearer tokens and the screens' cookie alike: ended by hand
    (sign-out, or a supervisor), its user deactivated, older than the shift
    (``SIGN_IN_HOURS``), or unused for ``IDLE_SECONDS``.
    """
    if row is None:
        return "Sign in first: this needs a signed-in dealer."
    now = now or utcnow()
    if row.revoked_at is not None or not row.user.active:
        return "This sign-in has ended: sign in again."
    if as_utc(row.created_at) + _lifetime() <= now:
        hours = _lifetime().total_seconds() / 3600
        return f"This sign-in ended after {hours:g} hours: sign in again."
    idle = _idle()
    seen = row.last_seen_at or row.created_at
    if idle is not None and as_utc(seen) + idle <= now:
        minutes = max(1, int(idle.total_seconds()) // 60)
        return f"Signed out after {minutes} minutes without a touch: sign in again."
    return None


def find_token(session: Session, token: str) -> AuthToken | str:
    """The live token row for a bearer token (or the cookie, which holds the same token), or
    the words saying why it no longer works.

    Every signed-in request asks this, so the user comes in the same query as the token. Its
    last use is written at most once a minute, in a short write of its own.
    """
    row = session.scalars(
        select(AuthToken)
        .options(joinedload(AuthToken.user))
        .where(AuthToken.token_hash == hash_token(token))
    ).first()
    now = utcnow()
    ended = why_ended(row, now)
    if ended is not None or row is None:
        return ended or NO_MATCH
    stale = as_utc(row.last_seen_at or row.created_at) + SEEN_EVERY <= now
    if stale and not in_write(session):  # never end a write that is under way
        token_id = row.id
        try:
            with writing(session) as work:
                seen = update(AuthToken).where(AuthToken.id == token_id)
                work.execute(seen.values(last_seen_at=now))
        except StorageUnavailable:
            pass  # a database that cannot write still answers reads: the screens stay up
        row = session.get(AuthToken, token_id, options=[joinedload(AuthToken.user)])
        assert row is not None
    return row


def revoke(session: Session, token_id: int, ended_by: int | None = None) -> None:
    """End a sign-in: its bearer token and the cookie that carries it both stop working."""
    with writing(session) as work:
        row = work.get(AuthToken, token_id)
        if row is not None and row.revoked_at is None:
            row.revoked_at = utcnow()
            row.ended_by = ended_by


def live_sign_ins(session: Session) -> list[AuthToken]:
    """Every sign-in still working, newest first: who, since when, last seen, device."""
    now = utcnow()
    rows = session.scalars(
        select(AuthToken)
        .options(joinedload(AuthToken.user))
        .where(AuthToken.revoked_at.is_(None), AuthToken.created_at > now - _lifetime())
        .order_by(AuthToken.created_at.desc(), AuthToken.id.desc())
    )
    return [row for row in rows if why_ended(row, now) is None]


def end_sign_in(session: Session, token_id: int, supervisor: User) -> AuthToken:
    """A supervisor ends someone's sign-in from the floor (a tablet left signed in, a lost
    one): its token and cookie stop working at once."""
    require_role(supervisor, "supervisor")
    row = session.get(AuthToken, token_id) if 1 <= token_id <= MAX_ID else None
    if row is None or row.revoked_at is not None:
        raise NotFound("That sign-in has already ended.", "unknown_sign_in")
    supervisor_id = supervisor.id
    revoke(session, token_id, ended_by=supervisor_id)
    ended = session.get(AuthToken, token_id)
    assert ended is not None
    return ended


def names_of(session: Session, ids: Iterable[int | None]) -> dict[int, str]:
    """Each user's name by id, for the ids given (None is skipped)."""
    wanted = {i for i in ids if i is not None}
    if not wanted:
        return {}
    rows = session.execute(select(User.id, User.name).where(User.id.in_(wanted)))
    return {user_id: name for user_id, name in rows}


def list_users(session: Session) -> list[User]:
    return list(session.scalars(select(User).order_by(User.name)))


def deactivate_user(session: Session, user_id: int) -> User:
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
    return user
