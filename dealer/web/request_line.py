"""The longest request line the app takes: its own limit, refused in its own shape.

gunicorn refuses a request line over its limit itself, with a plain-text 414 that the API's
document does not describe (a 4,891-byte line from a generated client). gunicorn.conf.py sets
gunicorn's limit at its most (8,190 bytes), and the app refuses a line over `LONGEST` first:
414 ``uri_too_long`` in the API's error shape under the JSON doors (listed in the document for
every operation, `dealer.web.contract`), Flask's page elsewhere; `make run`'s server, which has
no limit of its own, is held to the same one.
"""

from __future__ import annotations

from flask import Flask, request
from werkzeug.exceptions import RequestURITooLarge

#: The longest request line (method, address with its query, protocol) taken, in bytes:
#: gunicorn's own default, so no request it took before is refused now.
LONGEST = 4094


def request_line_length() -> int:
    """The length of this request's line as it came: ``GET /path?query HTTP/1.1``."""
    environ = request.environ
    target = environ.get("RAW_URI") or environ.get("REQUEST_URI")
    if target is None:
        query = environ.get("QUERY_STRING", "")
        target = environ.get("SCRIPT_NAME", "") + environ.get("PATH_INFO", "")
        target += f"?{query}" if query else ""
    method = environ.get("REQUEST_METHOD", "")
    return len(f"{method} {target} {environ.get('SERVER_PROTOCOL', '')}")


def _refuse_a_long_line() -> None:
    if request_line_length() > LONGEST:
        raise RequestURITooLarge()


def install(app: Flask) -> None:
    """Refuse a request line over `LONGEST` before anything else reads the request."""
    app.before_request_funcs.setdefault(None, []).insert(0, _refuse_a_long_line)
