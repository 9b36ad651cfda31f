"""Who is calling: Flask-Login over a bearer token or the session cookie, and role checks.

Both ways of signing in point at one `AuthToken` row: the bearer token by its
hash, the cookie by the row's id. Revoking the row (sign-out) ends both. When
a request carries an ``Authorization`` header, it alone decides.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any, Literal, TypeVar, cast

from flask import request
from flask_login import current_user

from dealer.errors import Forbidden, NotSignedIn, UnsupportedMediaType
from dealer.extensions import current_session, login
from dealer.ledger import Recorder
from dealer.models import AuthToken, User
from dealer.people import find_token, token_by_id

__all__ = ["Principal", "device", "principal", "recorder", "signed_in"]

View = TypeVar("View", bound=Callable[..., Any])


@dataclass(eq=False)
class Principal:
    """The signed-in user of this request, the token row it signed in with, and how."""

    user: User
    token: AuthToken
    via: Literal["bearer", "cookie"]

    is_authenticated = True
    is_active = True
    is_anonymous = False

    def get_id(self) -> str:
        return str(self.token.id)


def _from_cookie(token_id: str) -> Principal | None:
    if "Authorization" in request.headers or not token_id.isdigit() or len(token_id) > 9:
        return None
    row = token_by_id(current_session(), int(token_id))
    return Principal(row.user, row, "cookie") if row is not None else None


def _from_bearer(req: Any) -> Principal | None:
    header = req.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip() or len(token) > 200:
        return None
    row = find_token(current_session(), token.strip())
    return Principal(row.user, row, "bearer") if row is not None else None


login.user_loader(_from_cookie)
login.request_loader(_from_bearer)


def principal() -> Principal:
    return cast(Principal, current_user._get_current_object())


def signed_in(role: str = "dealer") -> Callable[[View], View]:
    """Let the view run only for a signed-in user holding ``role`` or above."""

    def decorate(view: View) -> View:
        @wraps(view)
        def guarded(*args: Any, **kwargs: Any) -> Any:
            if not current_user.is_authenticated:
                raise NotSignedIn("Sign in first: this needs a signed-in dealer.")
            who = principal()
            if not who.user.can(role):
                raise Forbidden(f"Only a {role} or above may do this.", "role_not_allowed")
            _refuse_cross_site(who)
            return view(*args, **kwargs)

        return cast(View, guarded)

    return decorate


def _refuse_cross_site(who: Principal) -> None:
    """A cookie-signed write must say it is JSON, which no cross-site HTML form can.

    The cookie is sent by the browser on its own (CSRF's way in), so a write
    signed only by it must come as ``application/json``: a form on another
    site can post only form or text bodies, and a script there would need a
    CORS preflight this app never grants. A bearer token is never sent by the
    browser on its own, so bearer calls need no such proof. The cookie is also
    ``SameSite=Lax``. This is why the API is exempt from Flask-WTF's CSRF token.
    """
    if who.via != "cookie" or request.method in ("GET", "HEAD", "OPTIONS", "DELETE"):
        return
    if request.mimetype != "application/json":
        raise UnsupportedMediaType(
            "Send writes as JSON, with Content-Type: application/json.", "unsupported_media_type"
        )


def device() -> str:
    """The device a call came from: its ``X-Device`` header, else its user agent."""
    name = request.headers.get("X-Device") or request.headers.get("User-Agent") or "unknown"
    return "".join(ch for ch in name if ch.isprintable())[:200] or "unknown"


def recorder() -> Recorder:
    return Recorder(principal().user.id, device())
