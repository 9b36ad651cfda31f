"""Reading request bodies: JSON objects only, and typed fields with a sentence when wrong."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from flask import request

from dealer.bounds import check_text, check_whole
from dealer.errors import Invalid, UnsupportedMediaType

__all__ = ["json_body", "only", "optional", "text", "whole_number"]


def json_body(*fields: str) -> dict[str, Any]:
    """The request's JSON object, holding only ``fields``; an empty body reads as ``{}``.

    A body must be sent as ``application/json``: an HTML form on another site
    can post only form or plain-text bodies, so it cannot reach these views.
    A field the view does not know is refused rather than ignored: a misspelt
    ``dropped`` must not deal a hand without its drops.
    """
    raw = request.get_data(cache=True)
    if not raw:
        return {}
    if request.mimetype != "application/json":
        raise UnsupportedMediaType("Send the body as JSON, with Content-Type: application/json.")
    try:
        body = json.loads(raw)
    except (ValueError, RecursionError):
        raise Invalid("The body is not valid JSON.", "malformed_json") from None
    if not isinstance(body, dict):
        raise Invalid("The body must be a JSON object.", "malformed_json")
    _check_text(body)
    only(body, fields)
    return body


def only(body: dict[str, Any], fields: Iterable[str]) -> None:
    """Refuse any field of ``body`` not among ``fields``."""
    unknown = sorted(set(body) - set(fields))
    if unknown:
        raise Invalid(
            f"Unknown field {unknown[0]!r}: this call takes {', '.join(sorted(fields)) or 'none'}.",
            "unknown_field",
        )


def _check_text(value: object, depth: int = 0) -> None:
    """Refuse text no database stores faithfully: NUL characters and lone surrogates."""
    if depth > 20:
        raise Invalid("The body is nested too deeply.", "malformed_json")
    if isinstance(value, str):
        if "\x00" in value:
            raise Invalid("Text may not contain NUL characters.", "malformed_json")
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise Invalid("Text must be valid Unicode.", "malformed_json") from None
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_text(key, depth + 1)
            _check_text(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            _check_text(item, depth + 1)


def whole_number(body: dict[str, Any], name: str, low: int, high: int, what: str) -> int:
    """``body[name]`` as an int from ``low`` to ``high``."""
    return check_whole(body.get(name), (low, high), what, name)


def text(body: dict[str, Any], name: str, longest: int, what: str) -> str:
    """``body[name]`` as non-blank text of at most ``longest`` characters, trimmed."""
    return check_text(body.get(name), longest, what, name)


def optional(body: dict[str, Any], name: str, kind: type, what: str) -> Any:
    """``body[name]`` if it is present and of ``kind``; None if absent or null."""
    value = body.get(name)
    if value is None:
        return None
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise Invalid(f"The {what} has the wrong type ({name}).")
    return value
