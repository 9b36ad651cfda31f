"""A form drawn from, and judged by, the declaration the JSON API validates against
(`dealer.inputs`).

WTForms draws the fields and checks the CSRF token; what a field is, is said once, in the
form's ``model``: each of its fields that a form asks for (`dealer.inputs.Asked`: its label,
its choices) is drawn with the bounds the model gives it, and the form's data is read as the
API's JSON body would carry it and validated by that model, each refusal shown beside its field
in the sentence the API answers. So the same bad input gets the same sentence from either door.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, get_args, get_origin

from flask_wtf import FlaskForm
from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo
from wtforms import (
    Field,
    IntegerField,
    PasswordField,
    RadioField,
    SelectChoice,
    SelectField,
    SelectFieldBase,
    SelectMultipleField,
    StringField,
)
from wtforms.fields.core import UnboundField
from wtforms.validators import StopValidation
from wtforms.widgets import HiddenInput

from dealer.bounds import check_whole
from dealer.errors import Invalid
from dealer.inputs import Asked, refusals
from dealer.screens.said_form import SaidForm
from dealer.web.refusals import refusal

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
    """A form drawn from ``model`` and whose data ``model`` judges; the form itself only draws
    and checks CSRF. A field the class declares itself is kept (a base's, a screen's own)."""

    #: The declaration of `dealer.inputs` this form is drawn from and its data must meet.
    model: ClassVar[type[BaseModel]]
    #: Where a body field's refusal is shown, when the form has no field of its name
    #: (``supervisor.pin`` is shown beside ``supervisor_pin``).
    shown_at: ClassVar[Mapping[str, str]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        fields = cls.model.model_fields if "model" in cls.__dict__ else {}
        for name in fields:
            for field_name, field in drawn(cls.model, name).items():
                if not hasattr(cls, field_name):
                    setattr(cls, field_name, field)

    def body(self) -> dict[str, Any]:
        """The form's data as the API's body (`body_of` the form's model)."""
        return self.body_of(self.model)

    def body_of(self, model: type[BaseModel]) -> dict[str, Any]:
        """The form's data as ``model``'s body: its fields the form has, blanks left out when
        the model can do without them; a model held in a field (a supervisor's name and PIN)
        as its own object, once any part of it is typed or when it is needed."""
        out: dict[str, Any] = {}
        for name, declared in model.model_fields.items():
            held = _held(declared)
            if held is not None:
                typed = {part: sent(self[f"{name}_{part}"]) for part in held.model_fields}
                if declared.is_required() or any(v is not MISSING for v in typed.values()):
                    out[name] = {part: "" if v is MISSING else v for part, v in typed.items()}
                continue
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

    def field_at(self, where: str) -> Field:
        """The field a refusal of ``where`` (``seat``, ``supervisor.pin``) is shown beside."""
        parts = where.split(".")
        # inside a union the first part is the member (``void.reason``): read past it
        tails = [".".join(parts[i:]) for i in range(len(parts))]
        for name in [n for tail in tails for n in (self.shown_at.get(tail), tail)]:
            if name is not None and name.replace(".", "_") in self._fields:
                return self._fields[name.replace(".", "_")]
        raise LookupError(f"{type(self).__name__} has no field for {where!r}")


def _asked(declared: FieldInfo) -> Asked | None:
    """How a form asks for a model's field (its `Asked`), or None: no form asks for it."""
    return next((m for m in declared.metadata if isinstance(m, Asked)), None)


def _held(declared: FieldInfo) -> type[BaseModel] | None:
    """The model a field holds (``Supervisor | None``), when a form asks for its parts."""
    if not getattr(_asked(declared), "parts", ()):
        return None
    found = (*get_args(declared.annotation), declared.annotation)
    return next((m for m in found if isinstance(m, type) and issubclass(m, BaseModel)), None)


def _kind(declared: FieldInfo) -> Any:
    """What a field holds, as a form draws it: ``int``, ``list`` (of seats) or ``str``."""
    for member in (*get_args(declared.annotation), declared.annotation):
        if member in (int, str) or get_origin(member) is list:
            return get_origin(member) or member
    return str


def drawn(model: type[BaseModel], name: str) -> dict[str, UnboundField]:
    """The form's fields for ``model``'s field ``name``: none when no form asks for it, one
    for each field of a model it holds (``supervisor_name``, ``supervisor_pin``, labelled as
    its `Asked` says), or the one `field_for` it."""
    declared = model.model_fields[name]
    held = _held(declared)
    if held is not None:
        parts = zip(held.model_fields, getattr(_asked(declared), "parts", ()), strict=True)
        return {f"{name}_{part}": field_for(held, part, label) for part, label in parts}
    return {} if _asked(declared) is None else {name: field_for(model, name)}


def field_for(model: type[BaseModel], name: str, label: str | None = None) -> UnboundField:
    """The form's field for ``model``'s field ``name``, drawn from its declaration: its
    `Asked` (``label`` said instead of its own, when given), its type and its bounds."""
    declared = model.model_fields[name]
    asked = _asked(declared) or Asked()
    label = label or asked.label
    words = () if label is None else (label,)
    kind = _kind(declared)
    if asked.choices is not None:
        return RadioField(
            *words,
            choices=[SelectChoice(value, said) for value, said in asked.choices.items()],
            default=asked.default,
            validate_choice=False,
        )
    if asked.how == "hidden":  # no id: a page may hold several forms with this field
        return IntegerField(widget=HiddenInput(), render_kw={"id": False, "data-unsaid": ""})
    if asked.how == "password":
        return PasswordField(*words)
    if asked.how == "select":
        return SelectField(*words, coerce=int if kind is int else str, validate_choice=False)
    if kind is list:
        return SelectMultipleField(*words, coerce=int, choices=[], validate_choice=False)
    typed = IntegerField if kind is int else StringField
    return typed(*words, default=asked.default, render_kw=bounds_of(model, name))


def bounds_of(model: type[BaseModel], name: str) -> dict[str, Any]:
    """The HTML attributes of a model's field, read from its declaration: ``min`` and ``max``
    of a whole number, ``maxlength`` of text (a browser's hint; the model still judges)."""
    schema = model.model_json_schema()["properties"].get(name, {})
    said = {"minimum": "min", "maximum": "max", "maxLength": "maxlength"}
    return {
        said[key]: value
        for part in (schema, *schema.get("anyOf", ()))
        for key, value in part.items()
        if key in said
    }


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
