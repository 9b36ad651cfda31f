"""Sign-ins: the token a sign-in is, how long it lasts, and ending it.

A sign-in is one `AuthToken` row: the bearer token and the screens' (signed) cookie both
carry its random token, of which only the sha256 is stored. It ends when signed out, when a
supervisor ends it, when its user is deactivated, after ``SIGN_IN_HOURS`` (a shift), or
after ``IDLE_SECONDS`` unused: the same rule for the API and the screens (`why_ended`).
Who may sign in, and who may end another's sign-in, is `dealer.people.users`'s.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Select, bindparam, func, select, update
from sqlalchemy.orm import Session, joinedload
from sqlalchemy.orm.attributes import set_committed_value

from dealer import clock, settings
from dealer.errors import StorageUnavailable
from dealer.models import AuthToken, User, as_utc
from dealer.people.audit import record_audit
from dealer.transactions import ALONE, in_write, writing
from dealer.words.catalogue import say
from dealer.words.parties import roles_needed
from dealer.words.times import idle_words


def not_signed_in(role: str = "dealer") -> str:
    """What a request that names no sign-in hears, where ``role`` or above may act."""
    if role == "dealer":
        return say("Sign in first: this needs a signed-in dealer.")
    return say("Sign in first: this needs {who}, signed in.", who=roles_needed(role))


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def issue_token(session: Session, user: User, device: str | None = None) -> tuple[str, AuthToken]:
    """A new random token for ``user``; only its sha256 is stored. The cookie of a screen's
    sign-in carries this same token (signed), never the row's sequential id."""
    token = secrets.token_urlsafe(32)
    now = clock.now()
    row = AuthToken(token_hash=hash_token(token), user_id=user.id, device=device, last_seen_at=now)
    row.created_at = now
    session.add(row)
    session.flush()
    return token, row


def _lifetime(config: Mapping[str, Any]) -> timedelta:
    return timedelta(hours=float(config.get("SIGN_IN_HOURS", 12)))


def _idle(config: Mapping[str, Any]) -> timedelta | None:
    seconds = int(config.get("IDLE_SECONDS", 900))
    return timedelta(seconds=seconds) if seconds > 0 else None


#: How often a sign-in's last use is written at most: a write per request would cost every
#: call. Under a short idle limit it is written more often (`seen_every`).
SEEN_EVERY = timedelta(minutes=1)


def seen_every(idle: timedelta | None) -> timedelta:
    """How stale a sign-in's written last use may grow before a use writes it again: a minute,
    or a tenth of the idle limit when that is shorter. A sign-in then ends after 90% to 100%
    of the idle limit unused, whatever the limit (a 20-second one included)."""
    return SEEN_EVERY if idle is None else min(SEEN_EVERY, idle / 10)


def why_ended(
    row: AuthToken | None, config: Mapping[str, Any], now: datetime | None = None
) -> str | None:
    """Why this sign-in no longer works, in words, or None while it is live.

    One rule for the API's bearer tokens and the screens' cookie alike: ended by hand
    (sign-out, or a supervisor), its user deactivated, older than the shift (the app's
    ``config``: ``SIGN_IN_HOURS``), or unused for ``IDLE_SECONDS``.
    """
    if row is None:
        return not_signed_in()
    now = now or clock.now()
    if row.revoked_at is not None or not row.user.active:
        return say("This sign-in has ended: sign in again.")
    if as_utc(row.created_at) + _lifetime(config) <= now:
        hours = _lifetime(config).total_seconds() / 3600
        return say("This sign-in ended after {hours:g} hours: sign in again.", hours=hours)
    idle = _idle(config)
    seen = row.last_seen_at or row.created_at
    if idle is not None and as_utc(seen) + idle <= now:
        return say("{ended} Sign in again.", ended=idle_words(int(idle.total_seconds())))
    return None


def find_token(session: Session, token: str) -> AuthToken | str:
    """The live token row for a bearer token (or the cookie, which holds the same token), or
    the words saying why it no longer works ("" when it names no sign-in at all).

    Every signed-in request asks this, so the user comes in the same query as the token. Its
    last use is written at most once a minute (more often under a short idle limit:
    `seen_every`), in a short write of its own.
    """
    row = _token_row(session, token)
    now = clock.now()
    config = settings.of(session).config
    ended = why_ended(row, config, now)
    if row is None:
        return ""  # no sign-in at all: the door says who may act there (`not_signed_in`)
    if ended is not None:
        return ended
    stale = as_utc(row.last_seen_at or row.created_at) + seen_every(_idle(config)) <= now
    if stale and not in_write(session):  # never end a write that is under way
        token_id = row.id
        try:
            with writing(session, apart=True) as work:  # no table reads it
                seen = update(AuthToken).where(AuthToken.id == token_id)
                work.execute(seen.values(last_seen_at=now))
        except StorageUnavailable:
            pass  # a database that cannot write still answers reads: the screens stay up
        row = session.get(AuthToken, token_id, options=[joinedload(AuthToken.user)])
        assert row is not None
    return row


def revoke(session: Session, token_id: int, ended_by: int | None = None) -> None:
    """End a sign-in: its bearer token and the cookie that carries it both stop working."""
    with writing(session, apart=True) as work:  # no table's write reads a sign-in
        row = work.get(AuthToken, token_id)
        if row is not None and row.revoked_at is None:
            row.revoked_at = clock.now()
            row.ended_by = ended_by
            if ended_by is None:
                words = say("{name} signed out.", name=row.user.name)
                kind, by = "sign_out", row.user_id
            else:
                ender = work.get(User, ended_by)
                ender_name = ender.name if ender is not None else say("user {id}", id=ended_by)
                words = say(
                    "{by} ended {name}'s sign-in (since {since}).",
                    by=ender_name,
                    name=row.user.name,
                    since=clock.floor_clock(settings.of(work).config).words(row.created_at, "hour"),
                )
                kind, by = "sign_in_ended", ended_by
            record_audit(
                work, kind, words=words, user_id=by, details={"sign_in": row.id, "of": row.user_id}
            )


def live_sign_ins(session: Session) -> list[AuthToken]:
    """Every sign-in still working, newest first: who, since when, last seen, device."""
    now = clock.now()
    config = settings.of(session).config
    rows = session.scalars(
        select(AuthToken)
        .options(joinedload(AuthToken.user))
        .where(AuthToken.revoked_at.is_(None), AuthToken.created_at > now - _lifetime(config))
        .order_by(AuthToken.created_at.desc(), AuthToken.id.desc())
    )
    return [row for row in rows if why_ended(row, config, now) is None]


#: `why_ended` as one query, for a read too frequent to load the user: an open screen asking
#: every second whether it changed (`dealer.live`). Bound by `live_params`.
LIVE_TOKEN: Select[int] = (
    select(AuthToken.id)
    .join(User, User.id == AuthToken.user_id)
    .where(
        AuthToken.token_hash == bindparam("token_hash"),
        AuthToken.revoked_at.is_(None),
        User.active,
        AuthToken.created_at > bindparam("born_after"),
        func.coalesce(AuthToken.last_seen_at, AuthToken.created_at) > bindparam("seen_after"),
    )
)


def live_params(token: str, config: Mapping[str, Any]) -> dict[str, object]:
    """`LIVE_TOKEN`'s parameters for ``token``, now, under the app's ``config``. Asking does
    not count as a use."""
    now = clock.now()
    idle = _idle(config)
    return {
        "token_hash": hash_token(token),
        "born_after": now - _lifetime(config),
        # No idle limit: any last use will do (a time before any sign-in).
        "seen_after": now - idle if idle is not None else now - _lifetime(config),
    }


def live_row(session: Session, token: str) -> AuthToken | None:
    """The live sign-in ``token`` names, read without counting as a use (no write)."""
    row = _token_row(session, token)
    return row if why_ended(row, settings.of(session).config) is None else None


def _token_row(session: Session, token: str) -> AuthToken | None:
    """The token row ``token`` names, its user loaded in the same query.

    A plain join of both rows, the user set as the token's ``user`` as if loaded with it:
    every signed-in request asks this, and the ORM's joined eager loading cost about a third
    more than the join (bench/api.py's profile).
    """
    found = session.execute(_TOKEN_AND_USER, {"token_hash": hash_token(token)}).first()
    if found is None:
        return None
    row, user = found
    set_committed_value(row, "user", user)
    return row


#: Built once: every signed-in request asks it.
_TOKEN_AND_USER = (
    select(AuthToken, User)
    .join(User, User.id == AuthToken.user_id)
    .where(AuthToken.token_hash == bindparam("token_hash"))
    .limit(1)
    # One statement: on SQLite it needs no BEGIN of its own (`transactions.ALONE`).
    .execution_options(**{ALONE: True})
)
