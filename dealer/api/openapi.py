"""GET /api/v1/openapi.json: the API's own description, made from its declarations
(`dealer.web.contract`).

The document changes only when the app does, so it carries an ETag (its content's hash) and is
asked again each time (``no-cache``) rather than never kept (``no-store``): a client holding
it sends ``If-None-Match`` and hears 304, not the whole document again.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache

from flask import Response, request
from pydantic import BaseModel, ConfigDict

from dealer.api.blueprint import bp
from dealer.web.contract import declare, document


class OpenAPIDocument(BaseModel):
    """This document."""

    model_config = ConfigDict(extra="allow")


@cache
def _served() -> tuple[bytes, str]:
    """The document as sent, and its ETag."""
    body = json.dumps(document(), separators=(",", ":")).encode()
    return body, hashlib.sha256(body).hexdigest()[:32]


@bp.get("/openapi.json")
@declare(
    {
        200: (OpenAPIDocument, "The OpenAPI document."),
        304: (None, "Not modified: the ETag sent in If-None-Match is the document's."),
    },
    signed_in=False,
)
def read_document() -> Response:
    """This document."""
    body, etag = _served()
    answer = Response(body, 200, mimetype="application/json")
    answer.set_etag(etag)
    answer.headers["Cache-Control"] = "no-cache"
    answer.make_conditional(request)
    return answer
