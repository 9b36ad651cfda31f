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
from sqlalchemy import Row, Table, bindparam, select
from sqlalchemy.orm import Session

from dealer import write_behind
from dealer.bounds import IDEMPOTENCY_KEY
from dealer.errors import Conflict, Invalid, StorageUnavailable
from dealer.extensions import current_session
from dealer.models import IdempotencyRecord, utcnow
from dealer.transactions import require_writing, writing
from dealer.web.signin import principal

#: Keys the pages make start with this, so they never meet a key an API client chose.
PAGE_KEY_PREFIX = "web-"
#: The header set on an answer replayed from an earlier send of its key.
REPLAYED_HEADER = "Idempotent-Replayed"
#: The code of the refusal when a key comes back with other content.
REUSED = "idempotency_key_reused"


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

    An API key (``per_user``) is not looked up first: the write goes on as if it were new,
    and its record, kept with what it wrote, is refused by the key's uniqueness if the key was
    kept before (or meanwhile, by the same key sent at another table at the same moment).
    Then, as when the write is refused or fails, everything it wrote is rolled back and the
    key is looked up: kept, it answers as a key sent again does (the first answer, or the
    conflict); else what went wrong stands. So a new key costs no read. A page's key
    (``per_user=False``) is looked up whoever sends it, which no uniqueness per user
    enforces: it is read first, under the write's first locks.
    """
    looked_up = key is not None and not per_user
    try:
        return _run_once(key, asked, work, reused, hand, table, looked_up=looked_up)
    except StorageUnavailable:
        raise
    except Exception:
        if key is None or looked_up:
            raise
        # Read afresh, after the rollback: a key kept before this write or meanwhile.
        found = _kept(current_session(), key, {"user_id": principal().user_id})
        if found is None:
            raise
        return _replay(found, asked, reused)


def _kept(session: Session, key: str, named: dict[str, int]) -> Row[str, int, str] | None:
    """The first answer kept for ``key`` (``named``: its user's, for an API key)."""
    query = _OWN if named else _ANYONES
    return session.connection().execute(query, {"key": key, **named}).first()


def _replay(found: Row[str, int, str], asked: str, reused: str) -> Answer:
    """The first answer of a key sent again, or the conflict if it asked something else."""
    if found.request_hash != asked:
        raise Conflict(reused, REUSED)
    return Answer(found.status_code, found.response_body, replayed=True)


def _run_once(
    key: str | None,
    asked: str,
    work: Callable[[Session], Answer],
    reused: str,
    hand: int | None,
    table: int | None,
    *,
    looked_up: bool,
) -> Answer:
    with writing(current_session(), keep=[principal().user], hand=hand, table=table) as session:
        user_id = principal().user_id
        if key is not None and looked_up:
            found = _kept(session, key, {})
            if found is not None:
                return _replay(found, asked, reused)
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
    return answer
