"""The first run: while nobody has been added, the only screen is the one creating the first
admin (name and PIN); once it exists, that screen is gone and sign-in works as usual.

The decision (nobody yet, and only then) is `dealer.people.users`'s; this asks it on each screen
request until someone exists, then remembers the answer for the app's life (users are
deactivated, never deleted, so the answer never turns back).
"""

from __future__ import annotations

from typing import Any

from flask import current_app, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from dealer.errors import DealerError
from dealer.extensions import current_session
from dealer.people import users
from dealer.screens.auth.blueprint import bp
from dealer.screens.auth.forms import FirstAdminForm
from dealer.screens.auth.routes import start_sign_in
from dealer.transactions import writing
from dealer.web.storage import JSON_DOORS

#: Set on the app once a user exists: the gate stops asking the database.
SOMEONE = "dealer.first_run_done"
#: Open before the first admin exists: the screen itself, its files, the health check, and
#: the doors that answer in JSON (nobody can sign in to them yet anyway).
OPEN_ENDPOINTS = frozenset({"auth.first_run", "static", "main.healthz", "main.favicon"})


@bp.before_app_request
def first_run_gate() -> Response | None:
    """Send every screen to the first-run screen while nobody exists."""
    if current_app.extensions.get(SOMEONE):
        return None
    if request.endpoint is None or request.endpoint in OPEN_ENDPOINTS:
        return None  # an unknown address is a 404 as ever
    if request.path.startswith(JSON_DOORS):
        return None
    if users.needs_first_admin(current_session()):
        return redirect(url_for("auth.first_run"), 303)
    current_app.extensions[SOMEONE] = True
    return None


@bp.route("/first-run", methods=["GET", "POST"])
def first_run() -> Any:
    """Create the first admin, then sign them in."""
    if not users.needs_first_admin(current_session()):
        return redirect(url_for("auth.sign_in"), 303)
    form = FirstAdminForm()
    body = form.judged()
    if body is not None:
        try:
            with writing(current_session()) as session:
                users.create_first_admin(session, body.name, body.pin)
        except DealerError as refused:
            form.pin.errors = [refused.message]
        else:
            current_app.extensions[SOMEONE] = True
            return start_sign_in(body.name, body.pin, None)
    status = 422 if request.method == "POST" else 200
    form.pin.data = form.pin_again.data = ""
    return render_template("auth/first_run.html", form=form), status
