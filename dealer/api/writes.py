"""The API's writes: each in one transaction, in its turn (`dealer.write_locks`), replayed by
``Idempotency-Key`` (`dealer.web.once`)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from flask import Response, request
from sqlalchemy.orm import Session

from dealer.errors import Invalid
from dealer.web.once import REPLAYED_HEADER, Answer, checked_key, digest, run_once
from dealer.words.catalogue import say

KEY_HEADER = "Idempotency-Key"


def _damaged() -> Invalid:
    return Invalid(
        say("An Idempotency-Key is 1 to 255 printable ASCII characters."),
        "invalid_idempotency_key",
    )


def _reused() -> str:
    return say("This Idempotency-Key was already used for a different request.")


def _asked() -> str:
    """The request's digest: its body as canonical JSON (or its bytes, if it is not JSON)."""
    raw = request.get_data(cache=True)
    try:
        body = json.dumps(json.loads(raw), sort_keys=True, separators=(",", ":")) if raw else ""
    except (ValueError, RecursionError):
        body = raw.hex()
    return digest(body)


def write(
    work: Callable[[Session], tuple[Any, int]],
    *,
    hand: int | None = None,
    table: int | None = None,
) -> Response:
    """Run ``work`` in one write transaction, once per key, and answer with what it returns.

    ``work(session)`` returns ``(payload, status)`` (a payload already written as JSON: a
    `str`); anything it raises rolls everything back. ``hand``: it records that hand's play
    alone; ``table``: it writes at that table alone (`dealer.web.once.run_once`).
    """
    key = checked_key(request.headers.get(KEY_HEADER), _damaged())

    def answer(session: Session) -> Answer:
        payload, status = work(session)
        body = payload if isinstance(payload, str) else json.dumps(payload, separators=(",", ":"))
        return Answer(status, body)

    done = run_once(key, _asked(), answer, per_user=True, reused=_reused(), hand=hand, table=table)
    response = Response(done.body, done.status, mimetype="application/json")
    if done.replayed:
        response.headers[REPLAYED_HEADER] = "true"
    return response
