"""Who may see a page: signed in, holding its role, and not idle for too long.

Signed out, a page redirects to the sign-in page and comes back afterwards. A
form sent while signed out (the tablet sat idle past `IDLE_SECONDS`) is not
lost: its fields are kept in the session and put back into the same form once
someone signs in again (`kept_form`). The page's JavaScript keeps what was
entered but not yet sent in the same way (static/dealer.js).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar, cast
from urllib.parse import urlsplit

from flask import current_app, flash, g, redirect, render_template, request, session, url_for
from flask_login import current_user, logout_user
from werkzeug.datastructures import MultiDict

from dealer.errors import Forbidden
from dealer.extensions import current_session
from dealer.floor.authority import Action, authorise_address
from dealer.people import sign_ins, users
from dealer.web.cookie import KEPT, SEEN
from dealer.web.signin import LONGEST_TOKEN, Principal, principal
from dealer.words.catalogue import say
from dealer.words.parties import role_words, roles_needed
from dealer.words.times import idle_words

View = TypeVar("View", bound=Callable[..., Any])
Form = TypeVar("Form")

#: The hidden field each form carries: the page it was on, to come back to.
PAGE_FIELD = "page"
#: Fields never kept across a sign-out: secrets and the per-session CSRF token.
NOT_KEPT = frozenset({"csrf_token", "pin", "supervisor_pin"})


def who() -> Principal:
    """The signed-in user of this request (a page guarded by `page`)."""
    return principal()


def home_for(role_holder: Principal) -> str:
    """Where a user starts: the floor for a supervisor or admin, the tables for a dealer."""
    if role_holder.user.can("supervisor"):
        return url_for("screens.floor")
    return url_for("screens.pick")


def local_path(target: str | None, default: str) -> str:
    """``target`` if it is a path on this site, else ``default`` (no open redirects)."""
    if not target:
        return default
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        return default
    if "\\" in target:
        return default
    return target


def end_sign_in(reason: str | None = None) -> None:
    """Sign out: the sign-in's token row is revoked, so its bearer token dies with the cookie."""
    if current_user.is_authenticated:
        sign_ins.revoke(current_session(), principal().token.id)
        logout_user()
    session.pop(SEEN, None)
    if reason:
        flash(reason, "notice")


def _idle_too_long() -> bool:
    seen = session.get(SEEN)
    limit = int(current_app.config.get("IDLE_SECONDS", 900))
    return isinstance(seen, int | float) and limit > 0 and time.time() - seen > limit


def watching() -> str | None:
    """The sign-in (its token) the cookie carries, unless idle too long; asked without
    counting as a touch (an open screen asking whether it changed must not keep an
    unattended tablet signed in) and without loading the user: the caller checks the token is
    still live (`dealer.people.sign_ins.LIVE_TOKEN`) in its own query. Never a bearer token's."""
    token = session.get("_user_id")  # where Flask-Login keeps get_id(): the token itself
    if "Authorization" in request.headers or not isinstance(token, str):
        return None
    if not token or len(token) > LONGEST_TOKEN or _idle_too_long():
        return None
    return token


def _keep_entry() -> str:
    """Keep a form that arrived signed out; return the page to come back to."""
    back = page_address()
    fields = [(k, v) for k, v in request.form.items(multi=True) if k not in NOT_KEPT]
    if fields:
        session[KEPT] = {"action": request.path, "fields": fields}
        flash(
            say(
                "Nothing was recorded: you had been signed out. What you entered is kept: "
                "sign in, check it, and send it again."
            ),
            "notice",
        )
    return back


def _referrer_path() -> str | None:
    if not request.referrer:
        return None
    parts = urlsplit(request.referrer)
    if parts.netloc and parts.netloc != request.host:
        return None
    return parts.path + (f"?{parts.query}" if parts.query else "")


def page_address() -> str:
    """The address of the screen being drawn, to come back to: for a form's answer, the
    screen the form was on (its ``page`` field), never the form's own POST address."""
    if request.method == "GET":
        return request.full_path.rstrip("?")
    return local_path(request.form.get(PAGE_FIELD), local_path(_referrer_path(), "/"))


def kept_form(form: Callable[..., Form], action: str, **data: Any) -> Form:
    """A form for ``action``: holding its fields kept across a sign-out (once), or else
    ``data``."""
    kept = session.get(KEPT)
    if not isinstance(kept, dict) or kept.get("action") != action or not kept.get("fields"):
        return form(**data)
    session.pop(KEPT, None)
    return form(formdata=MultiDict([(str(k), str(v)) for k, v in kept["fields"]]))


def page(role: str = "dealer", at: Action | None = None) -> Callable[[View], View]:
    """Let a page be seen only by a signed-in user holding ``role`` or above; with ``at``,
    only by who may do that at the table its address names (a table, a hand's table or a
    session's): `dealer.floor.authority` decides, as for the API, and a refusal is the 403
    page with the authority's words ("You deal Table 1; Table 2 is Bo's.")."""

    def decorate(view: View) -> View:
        @wraps(view)
        def guarded(*args: Any, **kwargs: Any) -> Any:
            if current_user.is_authenticated and _idle_too_long():
                end_sign_in(idle_words(int(current_app.config["IDLE_SECONDS"])))
            if not current_user.is_authenticated:
                if g.get("sign_in_ended"):  # the cookie's sign-in ended (shift, idle, ended)
                    flash(g.sign_in_ended, "notice")
                back = _keep_entry() if request.method == "POST" else request.full_path
                return redirect(url_for("auth.sign_in", next=local_path(back.rstrip("?"), "/")))
            session[SEEN] = int(time.time())
            try:
                users.require_role(who().user, role)
            except Forbidden:
                needs = say(
                    "This screen is for {needs}. You are signed in as {name}, {role}.",
                    needs=roles_needed(role),
                    name=who().user.name,
                    role=role_words(who().user.role),
                )
                return render_template("auth/forbidden.html", needs=needs), 403
            if at is not None:
                # A down's address names it session_id, as the paths do.
                ids = {
                    "table_id": kwargs.get("table_id"),
                    "hand_id": kwargs.get("hand_id"),
                    "down_id": kwargs.get("session_id"),
                }
                authorise_address(current_session(), who().user, at, **ids)
                g.at_table = (at, ids)  # asked again inside the write (`sent.record_once`)
            return view(*args, **kwargs)

        return cast(View, guarded)

    return decorate
