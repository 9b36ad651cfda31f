"""GET /api/v1/openapi.json: the API's own description, made from its declarations
(`dealer.web.contract`)."""

from __future__ import annotations

from flask import Response
from pydantic import BaseModel, ConfigDict

from dealer.api import bp
from dealer.web.contract import declare, document
from dealer.web.refusals import json_response


class OpenAPIDocument(BaseModel):
    """This document."""

    model_config = ConfigDict(extra="allow")


@bp.get("/openapi.json")
@declare({200: (OpenAPIDocument, "The OpenAPI document.")}, signed_in=False)
def read_document() -> Response:
    """This document."""
    return json_response(document(), 200)
