"""Forms recorded at most once, through the API's idempotency store.

Each form carries a key made when the form is drawn (`new_key`). The first
successful send records, and stores where it sent the dealer next (a 303 to the
page that shows the result) in `IdempotencyRecord`, in the same transaction as
what it recorded, exactly as `dealer.api.idempotency` does for the API. A
repeat of the key (a double tap, or a resend after a dropped connection) gets
the same answer and records nothing; the same key with other content is a
conflict. A refused send stores nothing, so the kept entry can be fixed and
sent again with its key.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Callable, Mapping
from typing import Any

from flask import redirect, request
from sqlalchemy import select
from sqlalchemy.orm import Session
from werkzeug.wrappers import Response

from dealer.api.auth import principal
from dealer.api.idempotency import REPLAYED_HEADER
from dealer.errors import Conflict, Invalid
from dealer.extensions import current_session
from dealer.models import IdempotencyRecord
from dealer.transactions import writing

__all__ = ["KEY_PREFIX", "REUSED", "new_key", "record_once"]

#: Keys the pages make start with this, so they never meet a key an API client chose.
KEY_PREFIX = "web-"
#: The code of the refusal when a key comes back with other content (the API's own code).
REUSED = "idempotency_key_reused"


def new_key() -> str:
    """A fresh idempotency key for a form being drawn."""
    return KEY_PREFIX + secrets.token_urlsafe(18)


def _checked(key: str | None) -> str | None:
    if not key:
        return None
    if not 1 <= len(key) <= 255 or not key.isascii() or not key.isprintable():
        raise Invalid("The form's key is damaged: reload the page and enter it again.")
    return key


def _digest(fields: Mapping[str, Any]) -> str:
    """What a send asked for: its address and its parsed fields (never a PIN)."""
    body = json.dumps(fields, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(f"POST {request.path}\n{body}".encode()).hexdigest()


def record_once(
    key: str | None, fields: Mapping[str, Any], work: Callable[[Session], str]
) -> Response:
    """Run ``work`` once per key in one write transaction; redirect to the page it names.

    ``work(session)`` records and returns the address of the page to show next.
    """
    key = _checked(key)
    digest = _digest(fields)
    with writing(current_session()) as session:
        if key is not None:
            # Page keys are random, so one is looked up whoever sent it: a kept
            # entry resent by the next dealer to sign in is still the same entry.
            found = session.scalars(
                select(IdempotencyRecord).where(IdempotencyRecord.key == key)
            ).first()
            if found is not None:
                if found.request_hash != digest or found.path != request.path:
                    raise Conflict(
                        "This form was already sent with other content: "
                        "check the hand below, then enter it again.",
                        REUSED,
                    )
                replay = redirect(json.loads(found.response_body)["location"], 303)
                replay.headers[REPLAYED_HEADER] = "true"
                return replay
        location = work(session)
        if key is not None:
            session.add(
                IdempotencyRecord(
                    user_id=principal().user.id,
                    key=key,
                    method="POST",
                    path=request.path,
                    request_hash=digest,
                    status_code=303,
                    response_body=json.dumps({"location": location}),
                )
            )
    return redirect(location, 303)
