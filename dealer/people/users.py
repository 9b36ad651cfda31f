"""People: users, their PINs (slow salted hashes), sign-in with a lockout, tokens, roles.

Every decision about people lives here, once, for every front door: who holds a role,
signing in and out, a supervisor approving on the spot (with the same lockout), and an
admin adding or deactivating users (never the last active admin).
"""

from __future__ import annotations

import fcntl
import os
import re
import secrets
import threading
import unicodedata
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from datetime import timedelta
from functools import cache

from flask import current_app, has_request_context, request
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session
from werkzeug.security import check_password_hash, generate_password_hash

from dealer.bounds import (
    INVISIBLE_WORDS,
    MAX_ID,
    PIN_DIGITS,
    PLAIN_TEXT_WORDS,
    USER_NAME,
    is_plain,
    is_visible_name,
)
from dealer.errors import (
    Conflict,
    Forbidden,
    Invalid,
    NotFound,
    NotSignedIn,
)
from dealer.models import ROLES, AuthToken, User, utcnow
from dealer.people import lockout
from dealer.people.audit import record_audit
from dealer.people.lockout import FREE_WRONG_PINS, Attempt
from dealer.people.sign_ins import (
    LIVE_TOKEN,
    find_token,
    hash_token,
    issue_token,
    live_sign_ins,
    revoke,
    why_ended,
)
from dealer.transactions import in_write, writing
from dealer.words.catalogue import say

__all__ = [
    "LIVE_TOKEN",
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
#: `dealer.people.lockout`): a 4-digit PIN then takes months, not minutes, to guess.
MAX_WRONG_PINS = FREE_WRONG_PINS
PIN_PATTERN = re.compile(rf"[0-9]{{{PIN_DIGITS[0]},{PIN_DIGITS[1]}}}")
NAME_LENGTH = USER_NAME
#: What a sign-in hears whatever was wrong with the name or the PIN.
NO_MATCH = "That name and PIN do not match an active user."


def check_pin_format(pin: object) -> str:
    if not isinstance(pin, str) or not PIN_PATTERN.fullmatch(pin):
        raise Invalid(
            say("A PIN is {value} to {value2} digits.", value=PIN_DIGITS[0], value2=PIN_DIGITS[1]),
            "invalid_pin",
        )
    return pin


def lookalike(name: str) -> str:
    """What a name looks like on a screen: its compatibility form, without case. "SUPER1", and
    "super1" typed in full-width letters, look like super1; no two users may share a look,
    or one could pass for the other on the screens and in the audit trail."""
    return unicodedata.normalize("NFKC", name).casefold()


def check_name(name: object) -> str:
    if not isinstance(name, str) or not name.strip() or len(name) > NAME_LENGTH:
        raise Invalid(
            say("A name is 1 to {NAME_LENGTH} characters.", NAME_LENGTH=NAME_LENGTH), "invalid_name"
        )
    if not is_plain(name):
        raise Invalid(
            say("A name: {PLAIN_TEXT_WORDS}", PLAIN_TEXT_WORDS=PLAIN_TEXT_WORDS), "invalid_name"
        )
    if not is_visible_name(name):
        raise Invalid(INVISIBLE_WORDS, "invalid_name")
    return name.strip()


def check_role(role: object) -> str:
    if not isinstance(role, str) or role not in ROLES:
        raise Invalid(say("A role is one of {join}.", join=", ".join(ROLES)), "invalid_role")
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
    alike = lookalike(name)
    for other in session.scalars(select(User.name)):
        if lookalike(other) == alike:
            raise Conflict(
                say("There is already a user called {other}.", other=other), "user_exists"
            )
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
        raise Conflict(say("The first admin exists already: sign in instead."), "users_exist")
    return add_user(session, name, "admin", pin)


@cache
def _decoy_hash(method: str) -> str:
    return generate_password_hash(secrets.token_hex(8), method=method)


def _nice_thread() -> None:
    """Make this thread the machine's last in line for a CPU (Linux: per thread)."""
    # Not Linux, or not allowed: the hash runs at normal priority.
    with suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), LOWEST_PRIORITY)
    # SCHED_IDLE as well: a nice-19 thread still holds a core until the scheduler's next tick
    # when a request's thread wakes; an idle-class thread gives it up at once.
    with suppress(AttributeError, OSError):
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))


#: PIN hashes are checked on these threads, niced to the lowest CPU priority: scrypt takes a
#: core for ~100 ms, and a flood of wrong PINs must not take the cores the floor's writes and
#: reads need. At most `HASHERS` hashes run at once in a process; more queue (each try also
#: passes the per-source limits of `dealer.people.lockout` first). Threads start on first use, so a
#: preloaded gunicorn master forks none.
HASHERS = 2
LOWEST_PRIORITY = 19
#: The file in the instance folder whose lock lets one PIN hash run at a time on this server.
HASH_LOCK = "pin-hash.lock"
_hashers = ThreadPoolExecutor(HASHERS, "pin-hash", initializer=_nice_thread)


def _matches(stored: str, pin: str) -> bool:
    """Whether ``pin`` matches the hash ``stored``: checked on a low-priority hasher thread,
    one hash at a time on this machine."""
    lock = os.path.join(current_app.instance_path, HASH_LOCK)
    return _hashers.submit(_one_at_a_time, lock, stored, pin).result()


def _one_at_a_time(lock: str, stored: str, pin: str) -> bool:
    """Check the hash holding the machine's hashing lock (an advisory file lock, so every
    gunicorn worker of this server shares it): scrypt is memory-hard as well as slow, and even
    at the lowest CPU priority two or more at once slow down the floor's own requests (the
    memory and the cores' shared caches). A flood of wrong PINs then waits in line, not the
    floor; a real sign-in in a flood waits for the few hashes queued before it."""
    with open(lock, "a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        try:
            return check_password_hash(stored, pin)
        finally:
            fcntl.flock(held, fcntl.LOCK_UN)


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
    counts of `dealer.people.lockout`) is written, in a short write of its own. An unknown name is
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
    # A wrong PIN's count need not wait for the disk (`writing`'s ``flushed_later``), and on
    # PostgreSQL the counts are written before the writers' lock is taken (``sign_in_counts``):
    # a flood of them holds the writers' lock only for its audit records, their links and the
    # commit, and the floor's buy-ins barely queue behind it (bench/signin_flood.py).
    with writing(session, flushed_later=not right, sign_in_counts=True) as work:
        wait = lockout.record(work, attempt, right)
        if not right:
            _audit_refusal(work, attempt, found.id if found is not None else None, wait)
    return found.id if right and found is not None else None


def _audit_refusal(
    session: Session, attempt: Attempt, user_id: int | None, wait: timedelta
) -> None:
    """A wrong name or PIN on the audit trail, and the wait it started (``locked_out``)."""
    what = "A supervisor's approval" if attempt.approval else "A sign-in"
    typed = attempt.name.strip()[:NAME_LENGTH]
    details = {"name": typed, "source": attempt.source, "approval": attempt.approval}
    record_audit(
        session,
        "sign_in_refused",
        words=f"{what} as {typed!r} from {attempt.source} was refused: wrong name or PIN.",
        user_id=user_id,
        details=details,
    )
    if wait:
        seconds = int(wait.total_seconds())
        record_audit(
            session,
            "locked_out",
            words=f"Too many wrong PINs for {typed!r} from {attempt.source}: "
            f"the next try there waits {seconds} seconds.",
            user_id=user_id,
            details={**details, "wait_seconds": seconds},
        )


def _attempt(name: object, source: str | None, **approval: object) -> Attempt:
    typed = name if isinstance(name, str) else ""
    return Attempt(typed, _source(source), **approval)  # type: ignore[arg-type]


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
    this name or this source must wait (`dealer.people.lockout`).
    """
    user_id = check_pin(session, name, pin, _attempt(name, source))
    if user_id is None:
        raise NotSignedIn(NO_MATCH, "wrong_pin")
    with writing(session) as work:
        user = work.get(User, user_id)
        if user is None or not user.active:  # deactivated while the PIN was checked
            raise NotSignedIn(NO_MATCH, "wrong_pin")
        token, row = issue_token(work, user, device)
        record_audit(
            work,
            "sign_in",
            words=f"{user.name} signed in ({user.role}).",
            user_id=user.id,
            device=device,
            details={"sign_in": row.id},
        )
        return token, row


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
        raise Forbidden(say("The supervisor's name or PIN is wrong."), "supervisor_not_approved")
    user = session.get(User, user_id)
    if user is None or not user.can("supervisor"):
        raise Forbidden(say("Only a supervisor can approve this."), "supervisor_not_approved")
    return user_id


def confirm_witness(
    session: Session,
    name: object,
    pin: object,
    *,
    source: str | None = None,
    asked_by: int | None = None,
) -> int:
    """The id of the user (any role) with this name and PIN, confirming what the caller did
    (a count) as a second person. Checked, and a wrong PIN counted, as an approval is."""
    attempt = _attempt(name, source, approval=True, approval_for=asked_by)
    user_id = check_pin(session, name, pin, attempt)
    if user_id is None:
        raise Forbidden(say("The second person's name or PIN is wrong."), "not_confirmed")
    return user_id


def require_role(user: User, role: str) -> None:
    """Refuse unless ``user`` holds ``role`` or a more trusted one."""
    if not user.can(role):
        raise Forbidden(say("Only a {role} or above may do this.", role=role), "role_not_allowed")


def end_sign_in(session: Session, token_id: int, supervisor: User) -> AuthToken:
    """A supervisor ends someone's sign-in from the floor (a tablet left signed in, a lost
    one): its token and cookie stop working at once."""
    require_role(supervisor, "supervisor")
    row = session.get(AuthToken, token_id) if 1 <= token_id <= MAX_ID else None
    if row is None or row.revoked_at is not None:
        raise NotFound(say("That sign-in has already ended."), "unknown_sign_in")
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


def deactivate_user(session: Session, user_id: int, by: User | None = None) -> User:
    """Stop a user signing in; every sign-in of theirs ends now. Their history stays.

    The last active admin cannot be deactivated: nobody could add users after.
    """
    user = session.get(User, user_id) if 1 <= user_id <= MAX_ID else None
    if user is None:
        raise NotFound(say("There is no user {user_id}.", user_id=user_id), "unknown_user")
    if user.role == "admin" and user.active:
        admins = session.scalar(
            select(func.count()).where(User.role == "admin", User.active.is_(True))
        )
        if admins == 1:
            raise Conflict(say("This is the last active admin: add another first."), "last_admin")
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
