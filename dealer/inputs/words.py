"""A field's words: how a dealer is told what is wrong with it, and the refusal found for a
request its declaration refused.

Each declared field carries one `Words` in its ``Annotated`` metadata. Its ``judge`` runs
before the declared type, with the sentence a dealer reads (`dealer.bounds.check_whole`,
the engine's parsers, the services' own checks) and the value it accepts (trimmed,
canonical); its ``sentence`` is said of anything else the declared type refuses. The
declared type (``inner``, or the annotation) is what the OpenAPI document shows, so the
document and the judge are written side by side, once. A field a screen's form asks for also
carries an `Asked`: the form is drawn from it (`dealer.screens.declared`).
"""

from __future__ import annotations

import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Union, get_args, get_origin, get_type_hints

from pydantic import (
    BaseModel,
    GetCoreSchemaHandler,
    GetJsonSchemaHandler,
    RootModel,
    ValidationError,
)
from pydantic_core import CoreSchema, core_schema

from dealer import rules
from dealer.bounds import NOT_PLAIN_CLASS, check_one_of, check_text, check_whole
from dealer.errors import DealerError, Invalid
from dealer.words.catalogue import say

__all__ = [
    "NON_BLANK",
    "Asked",
    "Judge",
    "Words",
    "fields_of",
    "judge",
    "one_of",
    "optional_text",
    "refusal",
    "refusals",
    "refuse_unknown",
    "text",
    "whole",
]

#: ``judge(value, field, given)``: ``given`` is the rest of the request, as far as it is read.
Judge = Callable[[Any, str, Mapping[str, Any]], Any]
Refusal = DealerError | rules.RulesError

#: Text with something besides spaces in it, holding no control character or bidi override
#: (`dealer.bounds.is_plain`, which judges first): names, reasons.
NON_BLANK = rf"^[^{NOT_PLAIN_CLASS}]*[^\s{NOT_PLAIN_CLASS}][^{NOT_PLAIN_CLASS}]*$"


class Carried(ValueError):
    """A refusal carried through pydantic, which collects ``ValueError``s in field order."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(str(refusal))
        self.refusal = refusal


@dataclass(frozen=True, slots=True)
class Words:
    """A field's judge and sentence; ``inner`` is its declared type, when the annotation
    alone cannot say it (bounds, a pattern, a choice read from the engine)."""

    judge: Judge | None = None
    sentence: str | None = None
    code: str = "invalid"
    inner: CoreSchema | None = None
    #: JSON Schema keywords the core schema does not give: ``uniqueItems``, a query
    #: parameter's ``description``.
    also: Mapping[str, Any] | None = None

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> Any:
        declared = self.inner if self.inner is not None else handler(source)
        if self.judge is None:
            return declared
        return core_schema.with_info_before_validator_function(self._judged, declared)

    def __get_pydantic_json_schema__(
        self, schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> dict[str, Any]:
        return {**handler(schema), **(self.also or {})}

    def _judged(self, value: Any, info: core_schema.ValidationInfo) -> Any:
        assert self.judge is not None
        try:
            return self.judge(value, info.field_name or "", info.data or {})
        except (DealerError, rules.RulesError) as refused:
            raise Carried(refused) from None

    def refused(self, value: Any, field: str, given: Mapping[str, Any]) -> Refusal:
        """What to say of ``value``, which the field's declared type refused."""
        if self.judge is not None:
            try:
                self.judge(value, field, given)
            except (DealerError, rules.RulesError) as refused:
                return refused
        if self.sentence is not None:
            return Invalid(say(self.sentence), self.code)
        return Invalid(say("The {field} is not what this call takes ({field}).", field=field))


@dataclass(frozen=True, slots=True)
class Asked:
    """How a screen's form asks for a field; pydantic passes it by, so neither the API nor its
    document reads it. A field without one is on no form.

    ``label`` is in English, said as the form is drawn; ``choices`` (value: words) draw a
    choice; ``how`` draws it as its type would not (``password``, ``hidden``, ``select``);
    ``parts`` label each field of the model the field holds, each asked on its own (a
    supervisor's name and PIN: ``supervisor_name``, ``supervisor_pin``)."""

    label: str | None = None
    how: str | None = None
    choices: Mapping[str, str] | None = None
    default: Any = None
    parts: tuple[str, ...] = ()


def one_of(
    choices: tuple[str, ...],
    refused: Callable[[], str],
    code: str = "invalid",
    description: str | None = None,
) -> Words:
    """One of ``choices``, or refused in ``refused()``'s words (said when refused, so in the
    language of that moment), with ``code``; ``description``: what the document says of it."""
    return Words(
        lambda value, _field, _given: check_one_of(value, choices, refused, code),
        inner=core_schema.literal_schema(list(choices)),
        also=None if description is None else {"description": description},
    )


def whole(bounds: tuple[int, int], what: str, *, optional: bool = False) -> Words:
    """A whole number within ``bounds``, judged by `check_whole` (None too, if ``optional``)."""
    low, high = bounds
    inner = core_schema.int_schema(ge=low, le=high, strict=True)

    def judge(value: Any, field: str, _given: Mapping[str, Any]) -> Any:
        if value is None and optional:
            return None
        return check_whole(value, bounds, what, field)

    return Words(judge, inner=core_schema.nullable_schema(inner) if optional else inner)


def text(longest: int, what: str) -> Words:
    """Text of at most ``longest`` characters, not blank, trimmed by `check_text`."""

    def judge(value: Any, field: str, _given: Mapping[str, Any]) -> str:
        return check_text(value, longest, what, field)

    inner = core_schema.str_schema(min_length=1, max_length=longest, pattern=NON_BLANK)
    return Words(judge, inner=inner)


def optional_text(longest: int, what: str) -> Words:
    """Like `text`, but it may be null or left out (given, it is not blank)."""

    def judge(value: Any, field: str, _given: Mapping[str, Any]) -> str | None:
        return None if value is None else check_text(value, longest, what, field)

    inner = core_schema.nullable_schema(
        core_schema.str_schema(min_length=1, max_length=longest, pattern=NON_BLANK)
    )
    return Words(judge, inner=inner)


def _variants(model: Any) -> tuple[str, dict[str, Any]] | None:
    """A root model over a union told apart by a field: that field and each member by tag."""
    if not (isinstance(model, type) and issubclass(model, RootModel)):
        return None
    field = model.model_fields["root"]
    union = get_origin(field.annotation) in (Union, types.UnionType)
    members = get_args(field.annotation) if union else ()
    tag = field.discriminator
    if not isinstance(tag, str) or not members:
        return None
    return tag, {get_args(m.model_fields[tag].annotation)[0]: m for m in members}


def _fields(model: Any) -> dict[str, list[Any]]:
    """Each field a model takes (by the name a request uses) and its metadata."""
    if isinstance(model, type) and issubclass(model, BaseModel):
        return {(f.alias or name): f.metadata for name, f in model.model_fields.items()}
    hints = get_type_hints(model, include_extras=True)
    return {name: list(getattr(hint, "__metadata__", ())) for name, hint in hints.items()}


def fields_of(model: Any, given: Mapping[str, Any]) -> list[list[str]]:
    """The fields ``model`` takes; for a union, those of any member, then those of the
    member ``given`` names (if it names one)."""
    variants = _variants(model)
    if variants is None:
        return [sorted(_fields(model))]
    tag, members = variants
    every = [sorted({name for member in members.values() for name in _fields(member)})]
    named = given.get(tag)
    if isinstance(named, str) and named in members:
        return [*every, sorted(_fields(members[named]))]
    return every


def refuse_unknown(model: Any, given: Mapping[str, Any]) -> None:
    """Refuse a field ``model`` does not take: a misspelt ``dropped`` must not deal a hand
    without its drops."""
    for fields in fields_of(model, given):
        unknown = sorted(set(given) - set(fields))
        if unknown:
            raise Invalid(
                say(
                    "Unknown field {value!r}: this call takes {value2}.",
                    value=unknown[0],
                    value2=", ".join(fields) or "none",
                ),
                "unknown_field",
            )


def refusal(error: ValidationError, model: Any, given: Any) -> Refusal:
    """The refusal a dealer reads for the first thing ``model`` found wrong in ``given``.

    Pydantic reports fields in their declared order, so the first error is the one the
    dealer hears about, as when the fields were checked one by one.
    """
    return _refused(error.errors()[0], model, given)


def refusals(error: ValidationError, model: Any, given: Any) -> dict[str, Refusal]:
    """The refusal of each field ``model`` found wrong in ``given``, first fields first, by
    where it is (``seat``; ``supervisor.pin`` inside a field): what a form shows beside each
    of its fields, the same sentence the API answers when that field is the first wrong."""
    out: dict[str, Refusal] = {}
    for found in error.errors():
        where = ".".join(str(part) for part in found["loc"])
        out.setdefault(where, _refused(found, model, given))
    return out


def _refused(first: Any, model: Any, given: Any) -> Refusal:
    carried = (first.get("ctx") or {}).get("error")
    if isinstance(carried, Carried):
        return carried.refusal
    if isinstance(carried, rules.RulesError):
        return carried
    where = list(first["loc"])
    variants = _variants(model)
    if variants is not None and where and isinstance(given, Mapping):
        model = variants[1].get(str(where.pop(0)), model)
    name = str(where[0]) if where else ""
    values = given if isinstance(given, Mapping) else {}
    for found in _fields(model).get(name, ()):
        if isinstance(found, Words):
            return found.refused(values.get(name), name, values)
    return Invalid(say("The {value} is not what this call takes ({value}).", value=name or "body"))


def judge(model: Any, given: Any) -> Any:
    """``given`` as ``model`` holds it, or the refusal the API would answer (raised)."""
    refuse_unknown(model, given)
    try:
        return model.model_validate(given)
    except ValidationError as error:
        raise refusal(error, model, given) from None
