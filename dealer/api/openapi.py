"""GET /api/v1/openapi.json: the API's own description (see `spec`)."""

from __future__ import annotations

from flask import Response

from dealer.web.refusals import json_response

from . import bp
from .spec import document


@bp.get("/openapi.json")
def openapi() -> Response:
    return json_response(document(), 200)
