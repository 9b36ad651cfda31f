"""GET /api/v1/openapi.json: the API's own description (see `spec`)."""

from __future__ import annotations

from flask import Response

from . import bp
from .idempotency import json_response
from .spec import document


@bp.get("/openapi.json")
def openapi() -> Response:
    return json_response(document(), 200)
