"""Sign in with name and PIN pad; sign out (by hand or after idle time)."""

from __future__ import annotations

import time
from typing import Any

from flask import current_app, flash, redirect, render_template, request, session, url_for
from flask_login import current_user, login_user
from flask_wtf.csrf import CSRFError
from werkzeug.wrappers import Response

from dealer.errors import DealerError, TooManyAttempts
from dealer.extensions import current_session
from dealer.people import users
from dealer.screens.auth.blueprint import bp
from dealer.screens.auth.forms import SignInForm, SignOutForm
from dealer.screens.auth.guard import end_sign_in, home_for, local_path
from dealer.web.cookie import SEEN
from dealer.web.signin import Principal, device, source
from dealer.words.catalogue import say
from dealer.words.times import idle_words, try_again_words


@bp.route("/sign-in", methods=["GET", "POST"])
def sign_in() -> Response | tuple[str, int] | str:
    form = SignInForm()
    if request.method == "GET":
        form.next.data = local_path(request.args.get("next"), "")
    body = form.judged()
    if body is not None:
        if current_user.is_authenticated:
            end_sign_in()  # the next dealer takes the tablet over: the last sign-in ends
        try:
            return start_sign_in(body.name, body.pin, form.next.data)
        except DealerError as refused:
            # A wrong PIN's count was committed, even though this sign-in fails.
            message = refused.message
            if isinstance(refused, TooManyAttempts):
                message += " " + try_again_words(refused.retry_after)
            form.pin.errors = [message]
            form.pin.data = ""
            return render_template("auth/sign_in.html", form=form), refused.status
    status = 422 if request.method == "POST" else 200
    form.pin.data = ""
    return render_template("auth/sign_in.html", form=form), status


def start_sign_in(name: str, pin: str, next_page: str | None) -> Response:
    """Sign in at this tablet (refused as `users.sign_in` refuses) and go on to work."""
    token, row = users.sign_in(current_session(), name, pin, source=source(), device=device())
    principal = Principal(row.user, row, "cookie", token)
    login_user(principal)
    session[SEEN] = int(time.time())
    return redirect(local_path(next_page, home_for(principal)), 303)


@bp.app_errorhandler(CSRFError)
def stale_form(error: CSRFError) -> Any:
    """A form whose CSRF token is missing or from another sign-in: nothing was recorded."""
    if request.path.startswith("/api/"):
        return error
    return render_template("auth/stale_form.html", reason=error.description), 400


@bp.post("/sign-out")
def sign_out() -> Response:
    form = SignOutForm()
    back = local_path(form.page.data, "")
    if not form.validate_on_submit():
        return redirect(url_for("auth.sign_in"), 303)
    if form.idle.data:
        idle = idle_words(int(current_app.config["IDLE_SECONDS"]))
        end_sign_in(say("{ended} Anything entered is kept.", ended=idle))
    elif current_user.is_authenticated:
        end_sign_in(say("Signed out. Anything entered but not sent is kept on this tablet."))
    else:
        flash(say("You were already signed out."), "notice")
    return redirect(url_for("auth.sign_in", next=back or None), 303)
