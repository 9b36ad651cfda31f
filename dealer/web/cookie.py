"""The screens' cookie as the app reads it: a sign-in's shape, or nothing at all.

The cookie is Flask's session, signed with the server's key, so only the server makes it; but
a cookie signed with the key and shaped otherwise (a list as the whole of it, ``_flashes: 3``,
a time that is text) would reach code that expects what the app writes, and answer 500, on
every address (`/healthz` and `/static` included). Such a cookie is read as no cookie: signed
out, never a 500 (`SignInSession`). What a sign-in's cookie holds is declared once, here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from flask import Flask
from flask.sessions import SecureCookieSession

#: When the sign-in was last used on a screen (seconds since the epoch).
SEEN = "seen"
#: A form sent while signed out, kept to be put back (`dealer.screens.auth.guard`).
KEPT = "kept"


def _text(value: object) -> bool:
    return isinstance(value, str)


def _flag(value: object) -> bool:
    return isinstance(value, bool)


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _pairs(value: object) -> bool:
    """A list of (text, text): the flashed messages' (category, message), a form's fields."""
    return isinstance(value, list | tuple) and all(
        isinstance(pair, list | tuple) and len(pair) == 2 and all(map(_text, pair))
        for pair in value
    )


def _kept(value: object) -> bool:
    return (
        isinstance(value, dict)
        and set(value) <= {"action", "fields"}
        and _text(value.get("action"))
        and _pairs(value.get("fields", []))
    )


#: Every field a sign-in's cookie may hold, and what each must be: Flask-Login's (the token,
#: its freshness and identifier, its remember-me and next page), Flask-WTF's CSRF token,
#: Flask's flashed messages and permanence, and the app's own.
FIELDS: dict[str, Callable[[object], bool]] = {
    "_user_id": _text,
    "_fresh": _flag,
    "_id": _text,
    "_remember": _text,
    "_remember_seconds": _number,
    "next": _text,
    "csrf_token": _text,
    "_flashes": _pairs,
    "_permanent": _flag,
    SEEN: _number,
    KEPT: _kept,
}


def signed_in_shape(data: object) -> bool:
    """Whether ``data`` (a signed cookie's content) is one the app could have written."""
    return isinstance(data, Mapping) and all(
        key in FIELDS and FIELDS[key](value) for key, value in data.items()
    )


class SignInSession(SecureCookieSession):
    """Flask's cookie session, empty when what the cookie held is not a sign-in's shape."""

    def __init__(self, initial: Any = None) -> None:
        super().__init__(initial if initial is None or signed_in_shape(initial) else None)


def install(app: Flask) -> None:
    """Read ``app``'s cookie as `SignInSession` (whichever session interface the app has)."""
    app.session_interface.session_class = SignInSession  # type: ignore[attr-defined]
