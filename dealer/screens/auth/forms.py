"""The sign-in and sign-out forms, and the first admin's.

The sign-in and the first admin are drawn from and judged by the API's declarations
(`dealer.inputs`: `SignIn`, `NewUser`) through `Declared`: the form draws and checks CSRF, and a
bad name or PIN gets the API's sentence beside its field.
"""

from __future__ import annotations

from typing import Any

from wtforms import HiddenField, PasswordField
from wtforms.validators import ValidationError

from dealer.bounds import PIN_DIGITS
from dealer.inputs import NewUser, SignIn
from dealer.screens.declared import Declared, field_for
from dealer.screens.said_form import SaidForm
from dealer.words import inputs as said
from dealer.words.catalogue import say_later
from dealer.words.people import pin_field


def same_pin(form: Any, field: Any) -> None:
    """The PIN typed twice (a screen's own check: nobody can reset the first admin's PIN)."""
    if field.data != form.pin.data:
        raise ValidationError(said.pins_differ())


class PinTwice:
    """A form with a new PIN typed twice: its label says how many digits, in the language
    chosen at start (said as the form is made, never at import)."""

    pin: PasswordField
    pin_again = PasswordField(say_later("The same PIN again"), validators=[same_pin])

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.pin.label.text = pin_field(*PIN_DIGITS)


class SignInForm(Declared):
    model = SignIn
    next = HiddenField()


class FirstAdminForm(PinTwice, Declared):
    """The first admin's name and PIN; the PIN twice, as nobody can reset it yet."""

    model = NewUser
    name = field_for(NewUser, "name", say_later("Your name"))

    def body(self) -> dict[str, Any]:
        return {**super().body(), "role": "admin"}


class SignOutForm(SaidForm):
    """Sign out; ``idle`` is set when the tablet's idle timer sends it."""

    idle = HiddenField()
    page = HiddenField()
