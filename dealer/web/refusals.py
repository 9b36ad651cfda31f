"""How a refusal is answered, the same at every front door.

A rules error is 422, or 409 when it is about the state of the hand (``kind ==
"state"``); the service's own errors carry their status. The JSON front doors (the API
and the reports) answer in API.md's error shape; the screens show the same sentence.

The engine cannot reach the catalogue (it imports nothing of the app), so its refusals carry
their message and its fields, said here, at the front door; the service's own are said where
they are raised.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Response

from dealer import rules
from dealer.errors import DealerError, TooManyAttempts
from dealer.web.described import CHALLENGE
from dealer.words.rules import refusal_words


def refusal(error: Exception) -> tuple[int, str, str]:
    """The status, code and sentence of a refused request."""
    if isinstance(error, rules.RulesError):
        return (409 if error.kind == "state" else 422), error.code, refusal_words(error)
    if isinstance(error, DealerError):
        return error.status, error.code, error.message
    raise error


def json_response(payload: Any, status: int) -> Response:
    return Response(json.dumps(payload, separators=(",", ":")), status, mimetype="application/json")


def error_response(status: int, code: str, message: str) -> Response:
    """API.md's error shape: ``{"error": {"code", "message"}}``."""
    return json_response({"error": {"code": code, "message": message}}, status)


def dealer_error(error: DealerError | rules.RulesError) -> Response:
    """A refusal as a JSON answer (a lockout says when to come back, in Retry-After; a 401
    how to sign in, in WWW-Authenticate)."""
    response = error_response(*refusal(error))
    if response.status_code == 401:
        response.headers["WWW-Authenticate"] = CHALLENGE
    if isinstance(error, TooManyAttempts):
        response.headers["Retry-After"] = str(error.retry_after)
    return response
