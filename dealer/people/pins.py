"""PINs: kept as slow salted hashes, checked one at a time on low-priority threads, behind
the wrong-PIN lockout (`dealer.people.lockout`); every wrong one on the audit trail.

A sign-in and a supervisor's approval on the spot (`dealer.people.users`) both check a PIN
here.
"""

from __future__ import annotations

import fcntl
import os
import re
import secrets
import threading
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from datetime import timedelta
from functools import cache
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session
from werkzeug.security import check_password_hash, generate_password_hash

from dealer import settings
from dealer.bounds import PIN_DIGITS, USER_NAME
from dealer.errors import Invalid
from dealer.models import User
from dealer.people import lockout
from dealer.people.audit import record_audit
from dealer.people.lockout import FREE_WRONG_PINS, Attempt
from dealer.transactions import in_write, writing
from dealer.words.catalogue import say, say_n

#: Wrong PINs in a row for a name at one device before each next try waits (growing waits,
#: `dealer.people.lockout`): a 4-digit PIN then takes months, not minutes, to guess.
MAX_WRONG_PINS = FREE_WRONG_PINS
PIN_PATTERN = re.compile(rf"[0-9]{{{PIN_DIGITS[0]},{PIN_DIGITS[1]}}}")


def check_pin_format(pin: object) -> str:
    if not isinstance(pin, str) or not PIN_PATTERN.fullmatch(pin):
        raise Invalid(
            say("A PIN is {value} to {value2} digits.", value=PIN_DIGITS[0], value2=PIN_DIGITS[1]),
            "invalid_pin",
        )
    return pin


def hash_pin(session: Session, pin: str) -> str:
    """The salted slow hash a PIN is kept as (the app's ``PIN_HASH_METHOD``: werkzeug's
    scrypt)."""
    return generate_password_hash(pin, method=_method(session))


def _method(session: Session) -> str:
    return str(settings.of(session).config.get("PIN_HASH_METHOD", "scrypt"))


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


def _matches(instance_path: str, stored: str, pin: str) -> bool:
    """Whether ``pin`` matches the hash ``stored``: checked on a low-priority hasher thread,
    one hash at a time on this machine (the lock file in the app's ``instance_path``)."""
    lock = os.path.join(instance_path, HASH_LOCK)
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


def _attempts_per_minute(config: Mapping[str, Any]) -> int:
    return int(config.get("SIGN_IN_ATTEMPTS_PER_MINUTE", 60))


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
    bound = settings.of(session)
    refused = lockout.refusal(session, attempt, _attempts_per_minute(bound.config))
    if refused is not None:
        session.rollback()
        raise refused
    found = None
    if isinstance(name, str) and len(name) <= USER_NAME:
        found = session.execute(
            select(User.id, User.pin_hash, User.active).where(User.name == name.strip())
        ).first()
    session.rollback()  # hold no snapshot while hashing
    stored = found.pin_hash if found is not None else _decoy_hash(_method(session))
    matches = _matches(bound.instance_path, stored, pin if isinstance(pin, str) else "")
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
    typed = attempt.name.strip()[:USER_NAME]
    details = {"name": typed, "source": attempt.source, "approval": attempt.approval}
    if attempt.approval:
        words = say(
            "A supervisor's approval as {name} from {source} was refused: wrong name or PIN.",
            name=repr(typed),
            source=attempt.source,
        )
    else:
        words = say(
            "A sign-in as {name} from {source} was refused: wrong name or PIN.",
            name=repr(typed),
            source=attempt.source,
        )
    record_audit(
        session,
        "sign_in_refused",
        words=words,
        user_id=user_id,
        details=details,
    )
    if wait:
        seconds = int(wait.total_seconds())
        record_audit(
            session,
            "locked_out",
            words=say_n(
                "Too many wrong PINs for {name} from {source}: the next try there waits {n} "
                "second.",
                "Too many wrong PINs for {name} from {source}: the next try there waits {n} "
                "seconds.",
                seconds,
                name=repr(typed),
                source=attempt.source,
            ),
            user_id=user_id,
            details={**details, "wait_seconds": seconds},
        )


def attempt_of(name: object, source: str | None, **approval: object) -> Attempt:
    """A try of ``name`` from ``source``: the client's address a door passes in, else "local"
    (the command line)."""
    typed = name if isinstance(name, str) else ""
    return Attempt(typed, source or "local", **approval)  # type: ignore[arg-type]
