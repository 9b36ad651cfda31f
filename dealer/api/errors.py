"""The API's error shape for every refusal (`dealer.web.refusals`), and for a constraint
that caught a change made at the same moment."""

from __future__ import annotations

from flask import Response
from sqlalchemy.exc import IntegrityError

from dealer import rules
from dealer.api.blueprint import bp
from dealer.errors import DealerError
from dealer.extensions import current_session
from dealer.web.refusals import dealer_error, error_response
from dealer.words.catalogue import say

bp.register_error_handler(DealerError, dealer_error)
bp.register_error_handler(rules.RulesError, dealer_error)


@bp.errorhandler(IntegrityError)
def integrity_error(error: IntegrityError) -> Response:
    """A constraint caught what the checks before it could not see: a change made meanwhile."""
    current_session().rollback()
    return error_response(
        409,
        "conflict",
        say("That clashes with a change made at the same moment: look and try again."),
    )
