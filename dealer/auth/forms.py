"""The sign-in and sign-out forms."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import HiddenField, PasswordField, StringField
from wtforms.validators import DataRequired, Length, Regexp

__all__ = ["SignInForm", "SignOutForm"]


class SignInForm(FlaskForm):
    name = StringField("Name", validators=[DataRequired("Enter your name."), Length(max=60)])
    pin = PasswordField(
        "PIN",
        validators=[
            DataRequired("Enter your PIN."),
            Regexp(r"^[0-9]{4,8}$", message="A PIN is 4 to 8 digits."),
        ],
    )
    next = HiddenField()


class SignOutForm(FlaskForm):
    """Sign out; ``idle`` is set when the tablet's idle timer sends it."""

    idle = HiddenField()
    page = HiddenField()
