"""Sign-in and sign-out: POST and DELETE /api/v1/session."""

from __future__ import annotations

from flask import Response
from flask_login import login_user, logout_user

from dealer import people
from dealer.extensions import current_session
from dealer.web.refusals import json_response
from dealer.web.signin import Principal, principal, signed_in

from . import bp
from .body import json_body


@bp.post("/session")
def sign_in() -> Response:
    """Check name and PIN; answer with a bearer token and set the session cookie.

    Not replayed by Idempotency-Key: the first answer holds a live token, which
    is stored nowhere in plain text, and another sign-in moves no chips.
    """
    body = json_body("name", "pin")
    token, row = people.sign_in(current_session(), body.get("name"), body.get("pin"))
    login_user(Principal(row.user, row, "cookie"))
    return json_response(
        {"user": {"name": row.user.name, "role": row.user.role}, "token": token}, 200
    )


@bp.delete("/session")
@signed_in()
def sign_out() -> Response:
    """Revoke the sign-in: its bearer token and its cookie both stop working."""
    people.revoke(current_session(), principal().token.id)
    logout_user()
    return Response(status=204)
