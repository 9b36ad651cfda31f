"""Sign-in and sign-out: POST and DELETE /api/v1/session."""

from __future__ import annotations

from flask import Response
from flask_login import login_user, logout_user

from dealer.errors import NotSignedIn, TooManyAttempts
from dealer.extensions import current_session
from dealer.models import AuthToken, as_utc, utcnow
from dealer.people import PinRefused, authenticate, issue_token
from dealer.transactions import writing

from . import bp
from .auth import Principal, principal, signed_in
from .body import json_body
from .idempotency import json_response


@bp.post("/session")
def sign_in() -> Response:
    """Check name and PIN; answer with a bearer token and set the session cookie.

    Not replayed by Idempotency-Key: the first answer holds a live token, which
    is stored nowhere in plain text, and another sign-in moves no chips.
    """
    body = json_body("name", "pin")
    with writing(current_session()) as work:
        outcome = authenticate(work, body.get("name"), body.get("pin"))
        if not isinstance(outcome, PinRefused):
            token, row = issue_token(work, outcome)
            answer = {"user": {"name": outcome.name, "role": outcome.role}, "token": token}
    # A wrong PIN's count was committed above, even though this sign-in fails.
    if isinstance(outcome, PinRefused):
        if outcome.locked_until is not None:
            wait = (as_utc(outcome.locked_until) - utcnow()).total_seconds()
            raise TooManyAttempts(outcome.message, "pin_locked", retry_after=max(1, int(wait)))
        raise NotSignedIn(outcome.message, "wrong_pin")
    login_user(Principal(row.user, row, "cookie"))
    return json_response(answer, 200)


@bp.delete("/session")
@signed_in()
def sign_out() -> Response:
    """Revoke the sign-in: its bearer token and its cookie both stop working."""
    token_id = principal().token.id
    with writing(current_session()) as work:
        row = work.get(AuthToken, token_id)
        if row is not None and row.revoked_at is None:
            row.revoked_at = utcnow()
    logout_user()
    return Response(status=204)
