"""Writes recorded at most once: an idempotency key replays the first answer.

Both front doors send a write through `run_once`. The first successful send of a key
stores its answer in `IdempotencyRecord`, in the same write transaction as what it
recorded. A repeat of the key gets that answer again and records nothing; the same key
with other content is a conflict. A refused send stores nothing, so it can be fixed and
sent again with the same key: a refused call changes nothing.

- The API's keys are the client's (``Idempotency-Key``), so they are looked up per user.
- The screens' keys are random, made when a form is drawn (`new_page_key`), so they are
  looked up whoever sends them: a kept entry resent by the next dealer to sign in is
  still the same entry.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from typing import NamedTuple, cast

from flask import request
from sqlalchemy import Table, bindparam, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from dealer import write_behind
from dealer.bounds import IDEMPOTENCY_KEY
from dealer.errors import Conflict, Invalid
from dealer.extensions import current_session
from dealer.models import IdempotencyRecord, utcnow
from dealer.transactions import require_writing, writing
from dealer.web.signin import principal

__all__ = [
    "PAGE_KEY_PREFIX",
    "REPLAYED_HEADER",
    "REUSED",
    "Answer",
    "checked_key",
    "digest",
    "new_page_key",
    "run_once",
]

#: Keys the pages make start with this, so they never meet a key an API client chose.
PAGE_KEY_PREFIX = "web-"
#: The header set on an answer replayed from an earlier send of its key.
REPLAYED_HEADER = "Idempotent-Replayed"
#: The code of the refusal when a key comes back with other content.
REUSED = "idempotency_key_reused"
#: PostgreSQL's SQLSTATE for a row that breaks a unique constraint.
UNIQUE_VIOLATION = "23505"


class Answer(NamedTuple):
    """What a write answered: its status and the body stored to replay it."""

    status: int
    body: str
    replayed: bool = False


def new_page_key() -> str:
    """A fresh key for a form being drawn."""
    return PAGE_KEY_PREFIX + secrets.token_urlsafe(18)


def checked_key(key: str | None, damaged: Invalid) -> str | None:
    """``key`` if it is 1 to 255 printable ASCII characters; None if none; else ``damaged``."""
    if key is None:
        return None
    if not 1 <= len(key) <= IDEMPOTENCY_KEY or not key.isascii() or not key.isprintable():
        raise damaged
    return key


def digest(content: str) -> str:
    """What a send asked for: its method, its address and its content (never a PIN)."""
    text = f"{request.method} {request.path}\n{content}"
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


#: A key's first answer, whoever sent it (`_ANYONES`) or per user (`_OWN`): only the columns a
#: replay needs, built once (every write asks it first, under its first locks).
_ANYONES = select(
    IdempotencyRecord.request_hash, IdempotencyRecord.status_code, IdempotencyRecord.response_body
).where(IdempotencyRecord.key == bindparam("key"))
_OWN = _ANYONES.where(IdempotencyRecord.user_id == bindparam("user_id"))
#: A first answer kept.
_RECORDS = cast(Table, IdempotencyRecord.__table__)
#: The key's uniqueness (per user): the one constraint a key kept meanwhile breaks.
_KEY_UNIQUE = "uq_idempotency_records_user_id"


def _key_taken(error: IntegrityError) -> bool:
    """Whether ``error`` is the key's own uniqueness broken (PostgreSQL's unique violation)."""
    orig = error.orig
    if getattr(orig, "sqlstate", None) != UNIQUE_VIOLATION:
        return False
    diag = getattr(orig, "diag", None)
    return getattr(diag, "constraint_name", None) == _KEY_UNIQUE


class _KeyKeptMeanwhile(Exception):
    """The same key was kept by another write while this one worked (see `run_once`)."""


def run_once(
    key: str | None,
    asked: str,
    work: Callable[[Session], Answer],
    *,
    per_user: bool,
    reused: str,
    hand: int | None = None,
    table: int | None = None,
) -> Answer:
    """Run ``work`` in one write transaction, once per key; ``asked`` is the send's `digest`.

    ``work(session)`` records and returns its answer; anything it raises rolls
    everything back. ``reused`` is the sentence when the key comes back with other content.
    ``hand``: the write records that hand's play alone; ``table``: it writes at that table
    alone (`transactions.writing`).

    A write of a hand's play reads its key under its table's lock only, so the same key sent
    at the same moment for a hand at another table is not seen until it is kept: the second to
    keep it finds the first's record there, everything it wrote is rolled back, and it is run
    again, to be answered as a key sent again is (the first answer, or the conflict). A page's
    key (``per_user=False``) is made for one form of one hand's address, so it comes back only
    for that hand, under that table's lock: it never meets itself at two tables.
    """
    try:
        return _run_once(key, asked, work, per_user, reused, hand, table, retried=False)
    except _KeyKeptMeanwhile:
        return _run_once(key, asked, work, per_user, reused, hand, table, retried=True)


def _run_once(
    key: str | None,
    asked: str,
    work: Callable[[Session], Answer],
    per_user: bool,
    reused: str,
    hand: int | None,
    table: int | None,
    *,
    retried: bool,
) -> Answer:
    try:
        with writing(current_session(), keep=[principal().user], hand=hand, table=table) as session:
            user_id = principal().user_id
            if key is not None:
                query, named = (_OWN, {"user_id": user_id}) if per_user else (_ANYONES, {})
                found = session.connection().execute(query, {"key": key, **named}).first()
                if found is not None:
                    if found.request_hash != asked:
                        raise Conflict(reused, REUSED)
                    return Answer(found.status_code, found.response_body, replayed=True)
            answer = work(session)
            if key is not None and 200 <= answer.status < 400:
                # On the connection, not through the unit of work: nothing reads the record
                # back in this transaction, and the flush cost more than the statement. On
                # PostgreSQL it is queued and sent with the write's other rows, just before
                # the commit (`dealer.write_behind`): a key kept meanwhile is found there.
                require_writing(session, "web.once.run_once")
                write_behind.add_rows(
                    session,
                    _RECORDS,
                    [
                        {
                            "user_id": user_id,
                            "key": key,
                            "method": request.method,
                            "path": request.path,
                            "request_hash": asked,
                            "status_code": answer.status,
                            "response_body": answer.body,
                            "created_at": utcnow(),
                        }
                    ],
                )
    except IntegrityError as exc:
        # Only a hand's write reads its key before the writers' lock; only the key's own
        # uniqueness is the race; and only once (the record is there to be found).
        if hand is None or key is None or retried or not _key_taken(exc):
            raise
        raise _KeyKeptMeanwhile() from exc
    return answer
