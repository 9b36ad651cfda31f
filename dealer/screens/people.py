"""People, on screen (an admin): add a dealer, a supervisor or an admin, give someone a new
PIN, deactivate someone. The decisions are `dealer.people`'s, as from the command line and
the API: the name and PIN rules, the last active admin kept, every change on the audit trail.
"""

from __future__ import annotations

from flask import render_template, url_for
from flask_wtf import FlaskForm
from sqlalchemy.orm import Session
from werkzeug.wrappers import Response
from wtforms import PasswordField

from dealer.bounds import PIN_DIGITS
from dealer.extensions import current_session
from dealer.inputs import NewUser
from dealer.people import pin_changes, users
from dealer.screens.auth.forms import PinTwice
from dealer.screens.auth.guard import page, who
from dealer.screens.blueprint import SCREEN_ID, bp
from dealer.screens.declared import Declared
from dealer.screens.said_form import SaidForm
from dealer.screens.screen import changed
from dealer.words import people as said

PEOPLE = "/floor/people"
PERSON = PEOPLE + f"/<{SCREEN_ID}:user_id>"


class NewPersonForm(PinTwice, Declared):
    """Someone new: judged by the API's own declaration (`NewUser`)."""

    model = NewUser


class NewPinForm(PinTwice, SaidForm):
    pin = PasswordField()


def _screen(
    form: NewPersonForm | None = None, error: str | None = None, status: int = 200
) -> tuple[str, int]:
    form = form or NewPersonForm(formdata=None)
    form.pin.data = form.pin_again.data = ""
    return render_template(
        "screens/people.html",
        people=users.list_users(current_session()),
        form=form,
        pin_form=NewPinForm(formdata=None),
        pin_digits=PIN_DIGITS,
        error=error,
    ), status


def _refused(status: int, message: str) -> tuple[str, int]:
    return _screen(None, message, status)


bp.add_url_rule(PEOPLE, "people", page("admin")(_screen))


@bp.post(PEOPLE)
@page("admin")
def add_person() -> Response | tuple[str, int]:
    """Add someone who then signs in with their name and PIN."""
    form = NewPersonForm()
    body = form.judged()
    if body is None:
        return _screen(form, form.first_refusal() or said.form_expired(), 422)

    def add(session: Session) -> str:
        users.add_user(session, body.name, body.role, body.pin, who().user)
        return said.person_added(body.name, said.role_name(body.role))

    return changed(
        add, url_for("screens.people"), lambda status, message: _screen(form, message, status)
    )


@bp.post(PERSON + "/pin")
@page("admin")
def new_pin(user_id: int) -> Response | tuple[str, int]:
    """A new PIN for someone (their open sign-ins end)."""
    form = NewPinForm()
    if not form.validate_on_submit():
        return _screen(None, form.first_refusal() or said.form_expired(), 422)

    def new(session: Session) -> str:
        name = pin_changes.change_pin(session, user_id, form.pin.data, who().user).name
        return said.new_pin_given(name)

    return changed(new, url_for("screens.people"), _refused)


@bp.post(PERSON + "/deactivate")
@page("admin")
def deactivate_person(user_id: int) -> Response | tuple[str, int]:
    """Deactivate someone: no more sign-ins; their history stays."""
    if not FlaskForm().validate_on_submit():
        return _screen(None, said.form_expired(), 400)

    def stop(session: Session) -> str:
        name = users.deactivate_user(session, user_id, who().user).name
        return said.deactivated(name)

    return changed(stop, url_for("screens.people"), _refused)
