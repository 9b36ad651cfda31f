"""The sign-in and sign-out forms."""

from __future__ import annotations

import unicodedata
from typing import Any

from flask_wtf import FlaskForm
from wtforms import HiddenField, PasswordField, StringField
from wtforms.validators import DataRequired, Length, Regexp, ValidationError

__all__ = ["SignInForm", "SignOutForm", "plain_text"]


def plain_text(_form: Any, field: Any) -> None:
    """Refuse control characters (a NUL, say): no database keeps them faithfully."""
    if any(unicodedata.category(ch) == "Cc" for ch in field.data or ""):
        raise ValidationError("Use letters, digits and punctuation only.")


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


class SignOutForm(FlaskForm):
    """Sign out; ``idle`` is set when the tablet's idle timer sends it."""

    idle = HiddenField()
    page = HiddenField()
