"""The sign-in and sign-out forms."""

from __future__ import annotations

from typing import Any

from flask_wtf import FlaskForm
from wtforms import HiddenField, PasswordField, StringField
from wtforms.validators import DataRequired, EqualTo, Length, Regexp, ValidationError

from dealer.bounds import PIN_DIGITS, PLAIN_TEXT_WORDS, USER_NAME, is_plain

__all__ = ["FirstAdminForm", "SignInForm", "SignOutForm", "plain_text"]


def plain_text(_form: Any, field: Any) -> None:
    """Refuse control characters (NUL, BEL, ESC, a bidi override): the API's own check."""
    if not is_plain(field.data or ""):
        raise ValidationError(PLAIN_TEXT_WORDS)


class SignInForm(FlaskForm):
    name = StringField(
        "Name", validators=[DataRequired("Enter your name."), Length(max=60), plain_text]
    )
    pin = PasswordField(
        "PIN",
        validators=[
            DataRequired("Enter your PIN."),
            Regexp(r"^[0-9]{4,8}$", message="A PIN is 4 to 8 digits."),
        ],
    )
    next = HiddenField()


class FirstAdminForm(FlaskForm):
    """The first admin's name and PIN; the PIN twice, as nobody can reset it yet."""

    name = StringField(
        "Your name",
        validators=[DataRequired("Enter your name."), Length(max=USER_NAME), plain_text],
    )
    pin = PasswordField(
        f"A PIN of {PIN_DIGITS[0]} to {PIN_DIGITS[1]} digits",
        validators=[DataRequired("Choose a PIN.")],
    )
    pin_again = PasswordField(
        "The same PIN again",
        validators=[DataRequired("Enter the PIN again."), EqualTo("pin", "The two PINs differ.")],
    )


class SignOutForm(FlaskForm):
    """Sign out; ``idle`` is set when the tablet's idle timer sends it."""

    idle = HiddenField()
    page = HiddenField()
