"""What the JSON front doors promise: each view's inputs and answers, declared once.

A view of the API or the reports is declared with `declare`: the models of `dealer.inputs`
it takes (body, query), the answers it gives and the refusals it may answer with.
spectree (https://github.com/0b01001001/spectree) then validates each request against
those models before the view runs, and makes the OpenAPI document from the same
declarations (`dealer.api.openapi`).

- A body is read once, before its model, the same for every write: JSON only, an object,
  no name given twice in an object, no NUL character nor lone surrogate, nested at most 20
  deep, and no field its model does not take. A misspelt ``dropped`` must not deal a hand
  without its drops. A number is read as JSON Schema reads it: 3.0 is the integer 3.
- A model's refusal becomes the dealer's sentence in one place, `dealer.inputs.refusal`,
  and the blueprint's handler answers it in API.md's error shape (`dealer.web.refusals`).
- Answers are not validated at run time, which would cost on every event: schemathesis
  checks them against the document in the tests.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from typing import Any, TypeVar, cast

from flask import request
from pydantic import BaseModel, Field, ValidationError
from spectree import Response, SpecTree
from spectree.plugins.base import Context
from spectree.plugins.flask_plugin import FlaskPlugin
from spectree.utils import get_multidict_items

from dealer.bounds import MAX_ID, SEATS
from dealer.errors import Invalid, UnsupportedMediaType
from dealer.inputs import WriteHeaders, refusal, refuse_unknown
from dealer.web.described import finish
from dealer.words.catalogue import say

View = TypeVar("View", bound=Callable[..., Any])
Model = TypeVar("Model")

#: Path parameters: an id names a row (1 to a signed 32-bit integer), a seat is 1 to 8.
ID = f"int(min=1, max={MAX_ID})"
SEAT = f"int(min={SEATS[0]}, max={SEATS[1]})"
#: The deepest a body may nest: far beyond any real body, far below Python's recursion limit.
DEEPEST = 20


class Refusal(BaseModel):
    code: str = Field(description="A stable snake_case code, for programs.")
    message: str = Field(description="One sentence a dealer understands.")


class Refused(BaseModel):
    """Every refusal (API.md): a 4xx status with its code and sentence.

    Named for what the answer is, not ``Error``: a generated client reads a model's fields
    into locals named as its fields and builds the model into a local named as the model, so
    a model ``Error`` with a field ``error`` shadowed one with the other (openapi-python-client's
    ``from_dict`` failed ``mypy --strict``). The answer is API.md's ``{"error": {...}}`` as
    ever; only the schema's name changed.
    """

    error: Refusal


#: What each refusal means, as the document says it.
ERRORS = {
    401: "Not signed in, or the token was revoked.",
    403: (
        "The role may not do this; a dealer, not at this table (not_your_table: a dealer acts "
        "only where their session is open or a supervisor assigned them); or a supervisor "
        "must approve it (supervisor_required, needs_supervisor)."
    ),
    404: "No such table, seat, hand or session.",
    405: "This address does not take that method.",
    409: "Not allowed in the current state (such as not_due: the time collection).",
    413: "The body is too large.",
    414: "The address (its path and query) is too long.",
    415: "The body is not JSON.",
    422: "Against the rules, or malformed.",
    429: "Too many wrong PINs: locked for a while.",
    503: "The database cannot write or cannot be reached: nothing was recorded; send it again.",
}


def _read_body(model: Any) -> dict[str, Any]:
    """The request's JSON object, holding only fields ``model`` takes; no body reads as {}.

    A body must be sent as ``application/json``: an HTML form on another site can post
    only form or plain-text bodies, so it cannot reach these views.
    """
    raw = request.get_data(cache=True)
    if not raw:
        return {}
    if request.mimetype != "application/json":
        raise UnsupportedMediaType(
            say("Send the body as JSON, with Content-Type: application/json.")
        )
    try:
        body = json.loads(raw, parse_float=_number, object_pairs_hook=_once_each)
    except (ValueError, RecursionError):
        raise Invalid(say("The body is not valid JSON."), "malformed_json") from None
    if not isinstance(body, dict):
        raise Invalid(say("The body must be a JSON object."), "malformed_json")
    _check_text(body)
    refuse_unknown(model, body)
    return body


def _number(written: str) -> int | float:
    """A number with a fraction or an exponent: 3.0 is the integer 3, as JSON Schema (the
    document's language) reads it; 3.5 stays a fraction, which no whole-number field takes."""
    value = float(written)
    return int(value) if value.is_integer() else value


def _once_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose every name is given once: of two values under one name, neither
    is taken (JSON parsers disagree on which one wins)."""
    out: dict[str, Any] = {}
    for name, value in pairs:
        if name in out:
            raise Invalid(
                say("The body gives {name} twice: give each field once.", name=repr(name)[:60]),
                "malformed_json",
            )
        out[name] = value
    return out


def _check_text(value: object, depth: int = 0) -> None:
    """Refuse text no database stores faithfully: NUL characters and lone surrogates."""
    if depth > DEEPEST:
        raise Invalid(say("The body is nested too deeply."), "malformed_json")
    if isinstance(value, str):
        if "\x00" in value:
            raise Invalid(say("Text may not contain NUL characters."), "malformed_json")
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise Invalid(say("Text must be valid Unicode."), "malformed_json") from None
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_text(key, depth + 1)
            _check_text(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            _check_text(item, depth + 1)


def _judged(model: Any, given: Any) -> Any:
    """``given`` as ``model`` holds it, or the dealer's refusal of it."""
    try:
        return contract.model_adapter.validate_obj(model, given)
    except ValidationError as error:
        raise refusal(error, model, given) from None


class JsonDoor(FlaskPlugin):
    """spectree's Flask plugin, reading bodies as above and answering as the view did."""

    def request_validation(
        self, req: Any, query: Any, json: Any, form: Any, headers: Any, cookies: Any
    ) -> None:
        body = _judged(json, _read_body(json)) if json is not None else None
        req.context = Context(
            _judged(query, get_multidict_items(req.args, query)) if query is not None else None,
            body,
            None,
            _judged(headers, dict(req.headers)) if headers is not None else None,
            None,
        )

    def validate_response(
        self, resp: Any, resp_model: Any, skip_validation: bool, force_resp_serialize: bool
    ) -> tuple[Any, None]:
        return resp, None


#: Each model the document names, by its name: two models of one name would be one schema.
_NAMED: dict[str, Any] = {}


def _named(model: Any) -> str:
    """A model's name in the document: its class name, which no other model may have (a
    down is a session there, the API's word: a class names it as its `title` too)."""
    name: str = model.__name__.replace("Down", "Session")
    if _NAMED.setdefault(name, model) is not model:
        raise TypeError(f"Two models are named {name}: the document would show one for both.")
    return name


contract = SpecTree(
    "flask",
    backend=JsonDoor,
    mode="strict",
    annotations=False,
    title="dealer",
    version="1",
    description="Dealer assist and chip ledger for live Panguingue tables. Errors are "
    '{"error": {"code", "message"}}. Every POST takes an Idempotency-Key.',
    # spectree's own refusal is never sent (refusals are the dealer's, raised as errors):
    # pointing it at 400 keeps it from adding a 422 to reads, and `document` leaves it out.
    validation_error_status=400,
    validation_error_model=Refused,
    naming_strategy=_named,
    nested_naming_strategy=lambda _parent, child: child.replace("Down", "Session"),
    security_schemes=[
        {"name": "bearer", "data": {"type": "http", "scheme": "bearer"}},
        {"name": "cookie", "data": {"type": "apiKey", "field_in": "cookie", "name": "session"}},
    ],
    security=[{"bearer": []}, {"cookie": []}],
)

#: What each path parameter names.
PATH_WORDS = {
    "table_id": "The table's id.",
    "hand_id": "The hand's id.",
    "session_id": "The table session's id.",
    "user_id": "The user's id.",
    "dispute_id": "The dispute's id.",
    "player_id": "The player's id.",
    "seat": "The seat number, 1 to 8.",
}


#: The areas the operations are grouped in (a generated client's modules), by the module
#: that serves them, and what each holds.
AREAS = {
    "signin": "sign-in",
    "tables": "tables",
    "downs": "sessions",
    "hands": "hands",
    "ledger": "ledger",
    "desk": "disputes",
    "disputes": "disputes",
    "players": "players",
    "users": "people",
    "openapi": "document",
    "routes": "reports",
}
AREA_WORDS = {
    "sign-in": "Signing in and out.",
    "tables": "The floor's tables, their seats, chips, balances and assigned dealers.",
    "sessions": "Table sessions: a dealer's down.",
    "hands": "Hands and their events.",
    "ledger": "The chip ledger and its verification.",
    "disputes": "Disputes, a seat's statement for a hand, and finding a payment.",
    "players": "Players known across sessions and days.",
    "people": "The people who sign in (admin).",
    "reports": "The printed documents (PDF).",
    "exports": "The exports (CSV).",
    "document": "This document.",
}


def declare(
    answers: Mapping[int, tuple[Any, str]],
    refusals: Iterable[int] = (),
    *,
    json: Any = None,
    query: Any = None,
    signed_in: bool = True,
    open_to_all: bool = False,
    write: bool = False,
    documented_only: bool = False,
    name: str | None = None,
    area: str | None = None,
) -> Callable[[View], View]:
    """Declare a view: what it takes, what it answers, and the refusals it may give.

    Every view may answer 414 (a request line too long); one for the signed in also 401 and
    403 (not 403 when ``open_to_all``: every signed-in user may call it, and nothing it does
    is refused by who asks), and 503 (the
    database cannot be reached), as may one that takes a body; a ``write`` takes an
    ``Idempotency-Key`` and an ``X-Device`` and may also answer 409 (a key reused), 413,
    415 and 422. ``refusals``: the other statuses the view can answer (its service's
    refusals), each documented with the error body. ``documented_only``: the view reads its
    own inputs.

    The operation is named for what it does (``name``, else the view's own name) and
    tagged by its area (``area``, else the one of the view's module, `AREAS`): a client
    generated from the document has a function of that name in a module per area.
    """
    statuses = {414, *refusals}
    if signed_in or json is not None:
        statuses |= {503}
    if signed_in:
        statuses |= {401} if open_to_all else {401, 403}
    if write:
        statuses |= {409, 413, 415, 422}
    codes: dict[str, Any] = {f"HTTP_{status}": answer for status, answer in answers.items()}
    codes.update({f"HTTP_{status}": (Refused, ERRORS[status]) for status in sorted(statuses)})

    def declared(view: View) -> View:
        tag = area or AREAS[view.__module__.rsplit(".", 1)[-1]]
        return cast(
            View,
            contract.validate(
                json=json,
                query=query,
                headers=WriteHeaders if write else None,
                resp=Response(**codes),
                security=None if signed_in else {},
                path_parameter_descriptions=PATH_WORDS,
                skip_validation=documented_only,
                operation_id=name or view.__name__,
                tags=[tag],
            )(view),
        )

    return declared


def given(model: type[Model]) -> Model:
    """The request's body, as ``model`` holds it (after `declare` read it)."""
    return cast(Model, request.context.json)  # type: ignore[attr-defined]


def read_query(model: type[Model], given: Mapping[str, str]) -> Model:
    """Query parameters read as the API reads them (a screen's GET form): the same model, the
    same judges, the same refusals, one the model does not take refused."""
    refuse_unknown(model, given)
    return cast(Model, _judged(model, given))


def asked(model: type[Model]) -> Model:
    """The request's query parameters, as ``model`` holds them."""
    return cast(Model, request.context.query)  # type: ignore[attr-defined]


#: The addresses the document describes: the API, and the documents it signs for. The
#: screens' Print buttons (``/print/...``) serve the same views to a form, and are the
#: screens' own.
DOCUMENTED = ("/api/v1/", "/reports/", "/exports/")
#: The media type of a document by the end of its address.
FILES = {".pdf": "application/pdf", ".csv": "text/csv"}
RETRY_AFTER = {"description": "Seconds until the name may try again.", "schema": {"type": "string"}}
REPLAYED = {
    "description": '"true" on the first answer to this Idempotency-Key, sent again.',
    "schema": {"type": "string", "const": "true"},
}


@cache
def document() -> dict[str, Any]:
    """The OpenAPI document: spectree's, plus what cuts across every operation.

    spectree writes each operation from its declaration; this adds only what no model
    declares: the ``Retry-After`` of a lockout (429), the ``Idempotent-Replayed`` header
    of a write's success, the file a report answers with (by the end of its address,
    with its ``Content-Disposition``), and that a body whose fields are all optional may
    be left out (it reads as ``{}``); then what `dealer.web.described` adds.
    """
    out: dict[str, Any] = copy.deepcopy(contract.spec)
    out["paths"] = {k: v for k, v in out["paths"].items() if k.startswith(DOCUMENTED)}
    used = {tag for item in out["paths"].values() for op in item.values() for tag in op["tags"]}
    out["tags"] = [{"name": t, "description": w} for t, w in AREA_WORDS.items() if t in used]
    schemas = out["components"]["schemas"]
    for path, item in out["paths"].items():
        for operation in item.values():
            names = {p["name"] for p in operation.get("parameters", [])}
            for status, answer in operation["responses"].items():
                if status == "429":
                    answer["headers"] = {"Retry-After": RETRY_AFTER}
                elif status.startswith("2") and "Idempotency-Key" in names:
                    answer["headers"] = {"Idempotent-Replayed": REPLAYED}
            media = FILES.get(path[path.rfind(".") :])
            if media is not None:
                operation["responses"]["200"].update(_file(media))
            body = operation.get("requestBody")
            if body is not None:
                ref = body["content"]["application/json"]["schema"]["$ref"]
                schema = schemas[ref.rsplit("/", 1)[1]]
                body["required"] = schema.get("type") != "object" or bool(schema.get("required"))
    return finish(out)


def _file(media: str) -> dict[str, Any]:
    """A document's answer: a PDF is bytes (shown inline), a CSV text (an attachment)."""
    pdf = media == "application/pdf"
    shown = "inline" if pdf else "attachment"
    schema = {"type": "string", "format": "binary"} if pdf else {"type": "string"}
    return {
        "headers": {
            "Content-Disposition": {
                "description": f'{shown}; filename="..."',
                "schema": {"type": "string"},
            }
        },
        "content": {media: {"schema": schema}},
    }
