"""The JSON API under /api/v1 (API.md): thin views that parse, authorise and delegate.

Views read the body (`body`), check who is calling (`auth`), run the service
in `dealer.ledger` inside one write transaction (`idempotency.write`) and shape
the answer (`shapes`). The rules engine's errors and the service's errors
become the API's error shape in `errors`.
"""

from flask import Blueprint

bp = Blueprint("api", __name__, url_prefix="/api/v1")

from . import (  # noqa: E402,F401  (routes)
    errors,
    hands,
    ledger,
    openapi,
    signin,
    table_sessions,
    tables,
    users,
)

__all__ = ["bp"]
