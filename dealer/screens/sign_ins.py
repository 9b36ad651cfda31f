"""The floor's list of live sign-ins, and ending one (a tablet left signed in, a lost one).

Who may end a sign-in, and what ending means, is `dealer.people.users.end_sign_in`'s.
"""

from __future__ import annotations

from flask import flash, redirect, render_template, url_for
from werkzeug.wrappers import Response

from dealer.errors import DealerError
from dealer.extensions import current_session
from dealer.people import users
from dealer.people.sign_ins import live_sign_ins
from dealer.screens.auth.guard import page, who
from dealer.screens.blueprint import SCREEN_ID, bp
from dealer.screens.said_form import SaidForm
from dealer.web.refusals import refusal
from dealer.words import people as said
from dealer.words.catalogue import say

SIGN_IN = f"/floor/sign-ins/<{SCREEN_ID}:token_id>"


class EndSignInForm(SaidForm):
    """The End button: only its CSRF token."""


def _sign_ins_page(status: int = 200, error: str | None = None) -> tuple[str, int]:
    rows = live_sign_ins(current_session())
    return render_template(
        "screens/sign_ins.html",
        rows=rows,
        mine=who().token.id,
        form=EndSignInForm(),
        error=error,
    ), status


bp.add_url_rule("/floor/sign-ins", "sign_ins", page("supervisor")(_sign_ins_page))


@bp.post(SIGN_IN + "/end")
@page("supervisor")
def end_sign_in(token_id: int) -> Response | tuple[str, int]:
    if not EndSignInForm().validate_on_submit():
        return _sign_ins_page(422, said.form_expired())
    try:
        ended = users.end_sign_in(current_session(), token_id, who().user)
    except DealerError as exc:
        status, _code, message = refusal(exc)
        return _sign_ins_page(status, message)
    flash(
        say("{name}'s sign-in has ended: that tablet must sign in again.", name=ended.user.name),
        "notice",
    )
    return redirect(url_for("screens.sign_ins"), 303)
