"""Wrong PINs counted per name and per source, with growing waits, and a per-source limit.

Every sign-in and every supervisor's approval asks `refusal` before the PIN is hashed, and
`record`s the outcome afterwards, in the short write that also issues the token. The rows
are keyed by the name *as typed* (trimmed, case-folded), never by the user: an unknown name
is counted, delayed and refused exactly like a known one, so a refusal tells nothing about
which names exist.

- **A name at one source** ("pair"): the first `FREE_WRONG_PINS` wrong PINs in a row cost
  nothing; each one after makes the next try wait 2, 4, 8 ... seconds, up to `PAIR_CAP`.
  Another tablet is another pair: a flood from one tablet never locks a supervisor out of
  the others.
- **A supervisor's name typed for an approval** ("approval") is its own pair, keyed also by
  the signed-in user asking: a dealer typing wrong PINs into the ``supervisor`` field delays
  only their own approvals, never the supervisor's sign-in anywhere (this tablet included).
- **A name from anywhere** ("name"): more than `NAME_FREE` wrong PINs from many places add a
  short wait (at most `NAME_CAP`), and only to the sources that have themselves failed with
  that name, for at most `NAME_CAP` after their own last wrong PIN: a clean tablet is never
  held back by someone else's guessing, and a supervisor who mistyped once is held back at
  most `NAME_CAP`, however long others go on guessing the name.
- **A source** ("source"): more than `SOURCE_FREE` wrong PINs in a row for any names from one
  client address (signing in, not approving) grow a wait of their own (at most
  `SOURCE_CAP`), and at most ``SIGN_IN_ATTEMPTS_PER_MINUTE`` tries a minute are taken from it
  at all, approvals included (refused tries are not counted, and nothing is hashed for them).

A right PIN sets its name's counts (the pair, the name from anywhere) and, for a sign-in, its
source's count back to zero: a busy tablet where dealers now and then mistype is never held
back by its typos. Every count also decays: one wrong PIN is forgotten every `DECAY` of its
scope (a minute for a name from anywhere, five for a source, a quarter of an hour for a pair),
and a count quiet for `FORGET` is zero.

A source is ``request.remote_addr``; behind
a proxy, the app reads X-Forwarded-For only when DEALER_PROXY_HOPS says how many proxies
to trust (werkzeug's ProxyFix, see README).

Why not Flask-Limiter: its storage (the ``limits`` library) is memory, Redis, Memcached or
MongoDB. Memory is per worker and forgotten at a restart, and a card room running on SQLite
alone has none of the others; the counts must hold across gunicorn's workers and restarts
on SQLite and PostgreSQL alike, so they live in the app's own database, written in the same
short, serialised write as the sign-in's outcome.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from dealer import clock
from dealer.errors import TooManyAttempts
from dealer.models import SignInFailure, as_utc
from dealer.words.catalogue import say

#: Wrong PINs in a row for a name at one source before each next try must wait.
FREE_WRONG_PINS = 3
PAIR_CAP = timedelta(minutes=15)
#: A name's wrong PINs from everywhere before they slow the sources that failed it.
NAME_FREE = 10
NAME_CAP = timedelta(seconds=30)
#: One source's wrong PINs, whatever the names, before its tries wait.
SOURCE_FREE = 10
SOURCE_CAP = timedelta(minutes=5)
#: One wrong PIN of a scope is forgotten every this long.
DECAY = {
    "pair": timedelta(minutes=15),
    "approval": timedelta(minutes=15),
    "name": timedelta(minutes=1),
    "source": timedelta(minutes=5),
}
#: Quiet this long, and a count starts again from zero.
FORGET = timedelta(hours=1)
WINDOW = timedelta(minutes=1)
KEY_LENGTH = 300


@dataclass(frozen=True, slots=True)
class Attempt:
    """One try of a name and PIN: the name as typed, where from, and for an approval, who
    asked for it (the signed-in user's id)."""

    name: str
    source: str
    approval_for: int | None = None
    approval: bool = False

    def keys(self) -> dict[str, str]:
        name = self.name.strip().casefold()
        pair = f"{name}\x1f{self.source}"
        if self.approval:
            pair += f"\x1f{self.approval_for}"
        return {
            "approval" if self.approval else "pair": pair[:KEY_LENGTH],
            "name": name[:KEY_LENGTH],
            "source": self.source[:KEY_LENGTH],
        }


def wait_after(failures: int, free: int, cap: timedelta) -> timedelta:
    """How long the next try waits after ``failures`` wrong PINs in a row: nothing for the
    first ``free``, then 2, 4, 8 ... seconds, never more than ``cap``."""
    if failures <= free:
        return timedelta(0)
    return min(timedelta(seconds=2 ** min(failures - free, 30)), cap)


def _rows(session: Session, attempt: Attempt) -> dict[str, SignInFailure]:
    keys = attempt.keys()
    found = session.scalars(
        select(SignInFailure).where(
            SignInFailure.key.in_(set(keys.values())), SignInFailure.scope.in_(set(keys))
        )
    )
    return {row.scope: row for row in found if keys.get(row.scope) == row.key}


def _until(row: SignInFailure | None, now: datetime) -> datetime | None:
    if row is None or row.refused_until is None:
        return None
    until = as_utc(row.refused_until)
    return until if until > now else None


def _seconds(until: datetime, now: datetime) -> int:
    return max(1, int((until - now).total_seconds() + 0.999))


def failures(row: SignInFailure | None, now: datetime) -> int:
    """``row``'s wrong PINs in a row as they stand ``now``: one forgotten every `DECAY` of its
    scope since the last, all of them after `FORGET`."""
    if row is None or not row.failures:
        return 0
    quiet = now - as_utc(row.updated_at)
    if quiet >= FORGET:
        return 0
    return max(0, row.failures - int(quiet / DECAY[row.scope]))


def refusal(session: Session, attempt: Attempt, limit: int) -> TooManyAttempts | None:
    """Why this try is refused before its PIN is even looked at, or None. Reads only."""
    now = clock.now()
    rows = _rows(session, attempt)
    source = rows.get("source")
    if source is not None and source.window_start is not None and limit > 0:
        ends = as_utc(source.window_start) + WINDOW
        if ends > now and source.attempts >= limit:
            return TooManyAttempts(
                say("Too many sign-in tries from this device: wait a minute."),
                "too_many_attempts",
                retry_after=_seconds(ends, now),
            )
    pair = rows.get("approval" if attempt.approval else "pair")
    waits = [_until(source, now), _until(pair, now)]
    name_wait = _until(rows.get("name"), now)
    if pair is not None and failures(pair, now) > 0 and name_wait is not None:
        # Only this source's own wrong PINs for the name bring the name's wait here, and for
        # at most NAME_CAP after the last of them: others guessing the name from elsewhere
        # never keep out someone who mistyped once.
        waits.append(min(name_wait, as_utc(pair.updated_at) + NAME_CAP))
    latest = max((w for w in waits if w is not None and w > now), default=None)
    if latest is None:
        return None
    return TooManyAttempts(
        say("Too many wrong PINs from this device: wait before trying again."),
        "pin_locked",
        retry_after=_seconds(latest, now),
    )


def record(session: Session, attempt: Attempt, right: bool) -> timedelta:
    """Count this try's outcome: called inside the write that follows the PIN's check.

    A right PIN sets the name's counts, and a sign-in's source count, back to zero; a wrong
    one adds one to each (after their decay). Returns how long the next try of this name from
    this source must now wait (nothing once the PIN was right).
    """
    now = clock.now()
    rows = _rows(session, attempt)
    longest = timedelta(0)
    for scope, key in attempt.keys().items():
        row = rows.get(scope)
        if row is None:
            row = SignInFailure(scope=scope, key=key, failures=0, attempts=0, updated_at=now)
            session.add(row)
        elif _until(row, now) is None:
            row.failures = failures(row, now)
        if scope == "source":
            _count_try(row, now)
            if attempt.approval:
                # A dealer's wrong supervisor PINs never slow the tablet's own sign-ins (the
                # supervisor's included): they count only towards the minute's tries.
                row.updated_at = now
                continue
        if right:
            row.failures = 0
            row.refused_until = None
        else:
            row.failures += 1
            free, cap = _limits(scope)
            wait = wait_after(row.failures, free, cap)
            row.refused_until = now + wait if wait else None
            longest = max(longest, wait)
        row.updated_at = now
    session.flush()
    return longest


def _count_try(row: SignInFailure, now: datetime) -> None:
    if row.window_start is None or as_utc(row.window_start) + WINDOW <= now:
        row.window_start = now
        row.attempts = 0
    row.attempts += 1


def _limits(scope: str) -> tuple[int, timedelta]:
    if scope == "name":
        return NAME_FREE, NAME_CAP
    if scope == "source":
        return SOURCE_FREE, SOURCE_CAP
    return FREE_WRONG_PINS, PAIR_CAP
