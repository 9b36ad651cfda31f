"""The API's error shape for every refusal: {"error": {"code", "message"}}.

Rules-engine errors are 422, or 409 when they are about the state of the hand
(``kind == "state"``); the service's own errors carry their status.
"""

from __future__ import annotations

from flask import Response
from sqlalchemy.exc import IntegrityError

from dealer import rules
from dealer.errors import DealerError, TooManyAttempts
from dealer.extensions import current_session

from . import bp
from .idempotency import json_response


def error_response(status: int, code: str, message: str) -> Response:
    return json_response({"error": {"code": code, "message": message}}, status)


@bp.errorhandler(DealerError)
def dealer_error(error: DealerError) -> Response:
    response = error_response(error.status, error.code, error.message)
    if isinstance(error, TooManyAttempts):
        response.headers["Retry-After"] = str(error.retry_after)
    return response


@bp.errorhandler(rules.RulesError)
def rules_error(error: rules.RulesError) -> Response:
    return error_response(409 if error.kind == "state" else 422, error.code, error.message)


@bp.errorhandler(IntegrityError)
def integrity_error(error: IntegrityError) -> Response:
    """A constraint caught what the checks before it could not see: a change made meanwhile."""
    current_session().rollback()
    return error_response(
        409, "conflict", "That clashes with a change made at the same moment: look and try again."
    )
