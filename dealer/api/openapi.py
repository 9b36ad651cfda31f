"""GET /api/v1/openapi.json: the API's own description, made from its declarations
(`dealer.web.contract`)."""

from __future__ import annotations

from flask import Response

from dealer.api import answers, bp
from dealer.web.contract import declare, document
from dealer.web.refusals import json_response


@bp.get("/openapi.json")
@declare({200: (answers.OpenAPIDocument, "The OpenAPI document.")}, signed_in=False)
def openapi() -> Response:
    """This document."""
    return json_response(document(), 200)
