"""A form judged by the declaration the JSON API validates against (`dealer.inputs`).

WTForms draws the fields and checks the CSRF token; what a value may be is said once, in
the form's ``model``: its data is read as the API's JSON body would carry it and validated
by that model, and each refusal is shown beside its field in the sentence the API answers.
So the same bad input gets the same sentence from either door.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from flask_wtf import FlaskForm
from pydantic import BaseModel, ValidationError
from wtforms import (
    Field,
    IntegerField,
    RadioField,
    SelectChoice,
    SelectFieldBase,
    SelectMultipleField,
)
from wtforms.validators import StopValidation

from dealer.bounds import check_whole
from dealer.errors import Invalid
from dealer.inputs import refusals
from dealer.screens.said_form import SaidForm
from dealer.web.refusals import refusal

__all__ = ["MISSING", "Declared", "arrived", "bounds_of", "sent", "whole_number"]

#: A field left blank (or not sent): left out of the body, as the API's JSON would.
MISSING: Any = object()


def sent(field: Field) -> Any:
    """What ``field`` was sent with, as a JSON body carries it: a whole number as a number
    (anything else typed there as the text it is, for the model to refuse), text as typed,
    `MISSING` when blank."""
    if isinstance(field, SelectMultipleField):
        if field.data is None and field.raw_data:  # one is no number: the model says so
            return list(field.raw_data)
        return list(field.data or [])
    typed = (field.raw_data or [""])[0] if field.raw_data else ""
    if isinstance(field, IntegerField | SelectFieldBase) and field.data is None:
        typed = typed.strip() if isinstance(typed, str) else typed
        return typed if typed else MISSING
    if field.data is None or field.data == "":
        return MISSING
    return field.data


def arrived(form: FlaskForm) -> bool:
    """Whether ``form`` was sent, with its CSRF token and the screen's own checks (a PIN
    typed twice): what a value may be is the declaration's to say, so WTForms' own word on
    a number typed as text is dropped."""
    if not form.is_submitted():
        return False
    for field in form:
        field.process_errors = []
    return bool(form.validate())


class Declared(SaidForm):
    """A form whose data ``model`` judges; the form itself only draws and checks CSRF."""

    #: The declaration of `dealer.inputs` this form's data must meet.
    model: ClassVar[type[BaseModel]]
    #: Where a body field's refusal is shown, when the form's field has another name
    #: (``"supervisor.pin": "supervisor_pin"``); the rest show beside the field of their name.
    shown_at: ClassVar[Mapping[str, str]] = {}

    def body(self) -> dict[str, Any]:
        """The form's data as the API's body: the model's fields the form has, blanks left
        out when the model can do without them."""
        out: dict[str, Any] = {}
        for name, declared in self.model.model_fields.items():
            field = self._fields.get(name)
            if field is None:
                continue
            value = sent(field)
            if value is not MISSING:
                out[name] = value
            elif declared.is_required():  # left blank: the model says what to enter
                out[name] = ""
        return out

    def judged(self) -> Any:
        """The form's data as the model holds it, or None with every refusal on its field
        (a form that was not sent, or whose CSRF token fails, is None with nothing said)."""
        if not arrived(self):
            return None
        body = self.body()
        try:
            return self.model.model_validate(body)
        except ValidationError as error:
            for where, refused in refusals(error, self.model, body).items():
                self.field_at(where).errors.append(refusal(refused)[2])
            return None

    def first_refusal(self) -> str | None:
        """The first sentence shown on the form: for a screen that shows it in its banner."""
        return next((e for f in self._fields.values() for e in f.errors), None)

    def field_at(self, where: str) -> Field:
        """The field a refusal of ``where`` (``seat``, ``supervisor.pin``) is shown beside."""
        parts = where.split(".")
        # inside a union the first part is the member (``void.reason``): read past it
        tails = [".".join(parts[i:]) for i in range(len(parts))]
        for name in [n for tail in tails for n in (self.shown_at.get(tail), tail)]:
            if name is not None and name in self._fields:
                return self._fields[name]
        raise LookupError(f"{type(self).__name__} has no field for {where!r}")


def one_of(label: str, choices: Mapping[str, str], default: str | None = None) -> Any:
    """A radio choice among ``choices`` (value: its words). The field refuses nothing itself:
    the input's declaration judges what arrives, in the API's sentence."""
    return RadioField(
        label,
        choices=[SelectChoice(value, words) for value, words in choices.items()],
        default=default,
        validate_choice=False,
    )


def bounds_of(model: type[BaseModel], name: str) -> dict[str, Any]:
    """The HTML attributes of a model's field, read from its declaration: ``min`` and ``max``
    of a whole number, ``maxlength`` of text (a browser's hint; the model still judges)."""
    schema = model.model_json_schema()["properties"].get(name, {})
    found = [schema, *schema.get("anyOf", ())]
    out: dict[str, Any] = {}
    for part in found:
        if "minimum" in part:
            out["min"] = part["minimum"]
        if "maximum" in part:
            out["max"] = part["maximum"]
        if "maxLength" in part:
            out["maxlength"] = part["maxLength"]
    return out


def whole_number(bounds: tuple[int, int], what: str) -> Any:
    """A check for a form with no API twin (a seat tapped, an id on a button): a whole number
    within ``bounds``, refused in the words every declaration uses (`bounds.check_whole`)."""

    def check(_form: Any, field: Field) -> None:
        typed = sent(field)
        try:
            check_whole(None if typed is MISSING else typed, bounds, what)
        except Invalid as refused:
            field.errors[:] = []  # WTForms' own "Not a valid integer value.": ours instead
            raise StopValidation(refused.message) from None

    return check
