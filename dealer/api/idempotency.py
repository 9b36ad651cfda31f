"""Writes, each in one transaction under the writers' lock, with ``Idempotency-Key`` replay.

A POST that carries an ``Idempotency-Key`` and succeeds stores its answer in the
same transaction as what it recorded. A repeat of the key (per user) gets that
answer again, byte for byte, and records nothing; the same key with another
method, path or body is a 409. A refused call (4xx) stores nothing, so it can be
fixed and sent again with the same key: a refused call changes nothing.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

from flask import Response, request
from sqlalchemy import select
from sqlalchemy.orm import Session

from dealer.errors import Conflict, Invalid
from dealer.extensions import current_session
from dealer.models import IdempotencyRecord
from dealer.transactions import writing
from dealer.web.signin import principal

__all__ = ["KEY_HEADER", "json_response", "write"]

KEY_HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"


def json_response(payload: Any, status: int) -> Response:
    return Response(json.dumps(payload, separators=(",", ":")), status, mimetype="application/json")


def _key() -> str | None:
    key = request.headers.get(KEY_HEADER)
    if key is None:
        return None
    if not 1 <= len(key) <= 255 or not key.isascii() or not key.isprintable():
        raise Invalid(
            "An Idempotency-Key is 1 to 255 printable ASCII characters.", "invalid_idempotency_key"
        )
    return key


def _request_hash() -> str:
    raw = request.get_data(cache=True)
    try:
        body = json.dumps(json.loads(raw), sort_keys=True, separators=(",", ":")) if raw else ""
    except (ValueError, RecursionError):
        body = raw.hex()
    text = f"{request.method} {request.path}\n{body}"
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def write(work: Callable[[Session], tuple[Any, int]]) -> Response:
    """Run ``work`` in one write transaction and answer with what it returns.

    ``work(session)`` returns ``(payload, status)``; anything it raises rolls
    everything back.
    """
    key = _key()
    with writing(current_session()) as session:
        user_id = principal().user.id
        if key is not None:
            found = session.scalars(
                select(IdempotencyRecord).where(
                    IdempotencyRecord.user_id == user_id, IdempotencyRecord.key == key
                )
            ).first()
            if found is not None:
                if found.request_hash != _request_hash():
                    raise Conflict(
                        "This Idempotency-Key was already used for a different request.",
                        "idempotency_key_reused",
                    )
                replay = Response(
                    found.response_body, found.status_code, mimetype="application/json"
                )
                replay.headers[REPLAYED_HEADER] = "true"
                return replay
        payload, status = work(session)
        response = json_response(payload, status)
        if key is not None and 200 <= status < 300:
            session.add(
                IdempotencyRecord(
                    user_id=user_id,
                    key=key,
                    method=request.method,
                    path=request.path,
                    request_hash=_request_hash(),
                    status_code=status,
                    response_body=response.get_data(as_text=True),
                )
            )
    return response
