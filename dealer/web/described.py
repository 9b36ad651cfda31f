"""What the OpenAPI document says beyond its operations' declarations, so that a client
generated from it needs nothing the document does not carry.

- **Where it is served**: one ``servers`` entry, the app's root (the paths hold ``/api/v1``,
  ``/reports`` and ``/exports``), relative so the document is right on any host.
- **Only what is used**: the models a query or a header is declared with become parameters,
  not schemas; a schema no operation reaches would be a model no client uses.
- **A PDF as bytes to any generator**: a report answers ``application/octet-stream`` to a
  client that asks for it (``Accept``), ``application/pdf`` otherwise; both are listed, so a
  generator that reads only octet-stream bytes (openapi-python-client) types it as a file.
- **The 401's challenge**: every 401 says in ``WWW-Authenticate`` how to sign in.
- **A field a body may leave out has no default**: a generator reads a default as "always
  there" (openapi-typescript makes such a field required), which of an answer is true and of
  a body is not. What a field left out of a body means is said in its words (its
  declaration's description) instead.
"""

from __future__ import annotations

import json
import re
from typing import Any

#: The media type a PDF is also sent as, to a client that asks for it (`Accept`).
BYTES = "application/octet-stream"
#: What a 401 answers in ``WWW-Authenticate``: sign in for a bearer token (RFC 6750).
CHALLENGE = 'Bearer realm="dealer"'
SERVERS = [{"url": "/", "description": "This app: the address the document was read from."}]
WWW_AUTHENTICATE = {
    "description": "How to sign in: POST /api/v1/session, then send its token as a Bearer token.",
    "schema": {"type": "string", "const": CHALLENGE},
}
_REF = re.compile(r'"#/components/schemas/([^"]+)"')


def finish(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` (spectree's, its paths and files added) as it is served."""
    document["servers"] = SERVERS
    for item in document["paths"].values():
        for operation in item.values():
            answers = operation["responses"]
            # spectree's own refusal (its validation error) is never sent: see `contract`.
            answers.pop("400", None)
            if "401" in answers:
                answers["401"]["headers"] = {"WWW-Authenticate": WWW_AUTHENTICATE}
            pdf = answers.get("200", {}).get("content", {}).get("application/pdf")
            if pdf is not None:
                answers["200"]["content"][BYTES] = pdf
    _used_only(document)
    _bodies_without_defaults(document)
    return document


def _bodies_without_defaults(document: dict[str, Any]) -> None:
    """No default on a field of a schema only bodies use (not an answer's)."""
    bodies, answers = [], []
    for item in document["paths"].values():
        for operation in item.values():
            bodies.append(operation.get("requestBody", {}))
            answers.append(operation["responses"])
    schemas = document["components"]["schemas"]
    for name in _reached(schemas, bodies) - _reached(schemas, answers):
        for field in schemas[name].get("properties", {}).values():
            field.pop("default", None)


def _used_only(document: dict[str, Any]) -> None:
    """Drop every schema that no operation reaches, directly or through another schema."""
    schemas = document["components"]["schemas"]
    for name in set(schemas) - _reached(schemas, document["paths"]):
        del schemas[name]


def _reached(schemas: dict[str, Any], start: object) -> set[str]:
    """The names of the schemas ``start`` refers to, directly or through one another."""
    reached: set[str] = set()
    ahead = set(_REF.findall(json.dumps(start)))
    while ahead:
        name = ahead.pop()
        reached.add(name)
        ahead |= set(_REF.findall(json.dumps(schemas[name]))) - reached
    return reached
