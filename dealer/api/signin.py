"""Sign-in and sign-out: POST and DELETE /api/v1/session."""

from __future__ import annotations

from flask import Response
from flask_login import login_user, logout_user

from dealer.api.blueprint import bp, door
from dealer.extensions import current_session
from dealer.inputs import SignIn
from dealer.people import sign_ins, users
from dealer.views.people import SignedIn, signed_in_view
from dealer.web.contract import declare, given
from dealer.web.refusals import json_response
from dealer.web.signin import Principal, device, principal, source


@bp.post("/session")
@declare(
    {200: (SignedIn, "Signed in.")},
    [401, 413, 415, 422, 429],
    json=SignIn,
    signed_in=False,
)
def sign_in() -> Response:
    """Sign in with name and PIN: a bearer token and a session cookie.

    Not replayed by Idempotency-Key: the first answer holds a live token, which
    is stored nowhere in plain text, and another sign-in moves no chips.
    """
    body = given(SignIn)
    token, row = users.sign_in(
        current_session(), body.name, body.pin, source=source(), device=device()
    )
    login_user(Principal(row.user, row, "cookie", token))
    return json_response(signed_in_view(row.user, token).answer(), 200)


@bp.delete("/session")
@door({204: (None, "Signed out.")}, open_to_all=True)
def sign_out() -> Response:
    """Sign out: the token and the cookie stop working."""
    sign_ins.revoke(current_session(), principal().token.id)
    logout_user()
    return Response(status=204)
