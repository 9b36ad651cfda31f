"""The OpenAPI document (placeholder, filled in below)."""

from typing import Any


def document() -> dict[str, Any]:
    return {"openapi": "3.1.0", "info": {"title": "dealer", "version": "1"}, "paths": {}}
