"""Registered devices (a supervisor or above): name this tablet, rename or retire any.

Registering is done on the tablet itself: the answer sets its long-lived cookie
(`dealer.web.signin.DEVICE_COOKIE`). Renaming and retiring may be done from anywhere.
The decisions are `dealer.people.devices`'; this only draws the forms and sets the cookie.
"""

from __future__ import annotations

from collections.abc import Callable

from flask import render_template, url_for
from sqlalchemy.orm import Session
from werkzeug.wrappers import Response
from wtforms import StringField

from dealer.extensions import current_session
from dealer.people import devices as service
from dealer.screens.auth.guard import page, who
from dealer.screens.blueprint import SCREEN_ID, bp
from dealer.screens.said_form import SaidForm
from dealer.screens.screen import changed, keep_on_tablet
from dealer.web.signin import DEVICE_COOKIE, tablet
from dealer.words.catalogue import say, say_later
from dealer.words.people import form_expired

#: How long a tablet keeps its registration cookie: until it is retired, in practice.
FIVE_YEARS = 5 * 365 * 24 * 3600
DEVICES = "/floor/devices"
DEVICE = DEVICES + f"/<{SCREEN_ID}:device_id>"


class DeviceForm(SaidForm):
    name = StringField(say_later("The tablet's short name"))


def _screen(
    error: str | None = None, status: int = 200, typed: tuple[int | None, str] | None = None
) -> tuple[str, int]:
    """The tablets; ``typed``: a refused name kept in its field (the tablet renamed, or None
    for this tablet's registration)."""
    session = current_session()
    return render_template(
        "screens/devices.html",
        devices=service.devices(session),
        this=tablet(),
        form=DeviceForm(),
        error=error,
        longest=service.DEVICE_NAME,
        typed=typed,
    ), status


bp.add_url_rule(DEVICES, "device_list", page("supervisor")(_screen))


@bp.post(DEVICES)
@page("supervisor")
def register_device() -> Response | tuple[str, int]:
    """Register the tablet this form was sent from, under the name given."""
    form = DeviceForm()
    if not form.validate_on_submit():
        return _screen(form_expired(), 400)
    tokens = []

    def register(session: Session) -> str:
        token, device = service.register_device(session, form.name.data, who().user, tablet())
        tokens.append(token)
        return say("This tablet is now {name}: what it records says so.", name=device.name)

    typed = (None, form.name.data or "")
    answer = changed(register, url_for("screens.device_list"), _redraw(typed))
    if tokens and isinstance(answer, Response):
        keep_on_tablet(answer, DEVICE_COOKIE, tokens[0], FIVE_YEARS)
    return answer


def _change(device_id: int, retire: bool) -> Response | tuple[str, int]:
    form = DeviceForm()
    if not form.validate_on_submit():
        return _screen(form_expired(), 400)

    def change(session: Session) -> str:
        if retire:
            name = service.retire_device(session, device_id, who().user).name
            return say("{name} is retired.", name=name)
        name = service.rename_device(session, device_id, form.name.data, who().user).name
        return say("Renamed: {name}.", name=name)

    typed = None if retire else (device_id, form.name.data or "")
    return changed(change, url_for("screens.device_list"), _redraw(typed))


def _redraw(typed: tuple[int | None, str] | None) -> Callable[[int, str], tuple[str, int]]:
    """The tablets again with a refusal in words, the name typed kept (``typed``)."""
    return lambda status, message: _screen(message, status, typed)


@bp.post(DEVICE + "/rename")
@page("supervisor")
def rename_device(device_id: int) -> Response | tuple[str, int]:
    return _change(device_id, retire=False)


@bp.post(DEVICE + "/retire")
@page("supervisor")
def retire_device(device_id: int) -> Response | tuple[str, int]:
    """Retire a tablet (lost, replaced): its cookie no longer names it."""
    return _change(device_id, retire=True)
