"""The language each request speaks: the signed-in person's own choice, else the tablet's (a
registered device's setting), else the browser's ``Accept-Language`` (Babel's negotiation
against the languages shipped), else the floor's default (``DEALER_LANGUAGE``). The same for a
screen, the API and a document asked for; chosen before the request's view runs, forgotten
after it (`dealer.words.catalogue` keeps it in a context variable)."""

from __future__ import annotations

from babel import negotiate_locale
from flask import Flask, g, request
from flask_login import current_user

from dealer.web.signin import principal, tablet
from dealer.words.catalogue import choose_language, forget_language, languages

#: Tagalog's code, as some browsers still send it, for the Filipino catalogue.
ALIASES = {"tl": "fil"}


def requested_language() -> str | None:
    """This request's language, by the order above; None for the floor's default."""
    shipped = languages()
    if current_user.is_authenticated and principal().user.language in shipped:
        return principal().user.language
    device = tablet()
    if device is not None and device.language in shipped:
        return device.language
    asked = [value for value, _quality in request.accept_languages]
    return negotiate_locale(asked, shipped, sep="-", aliases=ALIASES) if asked else None


def _choose() -> None:
    if request.endpoint != "static":
        g.dealer_language = choose_language(requested_language())


def _forget(_error: BaseException | None = None) -> None:
    token = g.pop("dealer_language", None)
    if token is None:
        return
    try:
        forget_language(token)
    except ValueError:  # a teardown run in another context (a streamed answer): just clear it
        choose_language(None)


def install(app: Flask) -> None:
    """Choose each request's language before its view, and forget it after."""
    app.before_request(_choose)
    app.teardown_request(_forget)
