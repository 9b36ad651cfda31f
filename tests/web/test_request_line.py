"""A request line longer than the app takes is refused by the app, in its own shape, under
`make run` and gunicorn alike, and the API's document lists that answer (414) everywhere.

Issue 41: gunicorn refused a 4,891-byte request line itself, with a plain-text 414 the
document did not list (schemathesis' one failure in 4,343 cases).
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path

from flask.testing import FlaskClient

from bench.room.server import gunicorn, migrate
from dealer.web.request_line import LONGEST

REFUSED = {"error": {"code": "uri_too_long", "message": "The address is too long."}}


def address_of_line(length: int, path: str = "/api/v1/tables") -> str:
    """An address whose request line (``GET <address> HTTP/1.1``) is ``length`` bytes."""
    padding = length - len(f"GET {path}?q= HTTP/1.1")
    return f"{path}?q={'x' * padding}"


def test_a_line_over_the_longest_is_414_in_the_apis_shape(client: FlaskClient) -> None:
    answer = client.get(address_of_line(4891))
    assert answer.status_code == 414
    assert answer.get_json() == REFUSED
    assert client.get(address_of_line(LONGEST + 1)).status_code == 414
    assert client.get(address_of_line(LONGEST)).status_code == 401  # taken: not signed in
    assert client.get(address_of_line(LONGEST + 1, "/static/app.css")).status_code == 414
    assert client.get(address_of_line(LONGEST + 1, "/tables")).status_code == 414


def test_the_document_lists_414_for_every_operation(client: FlaskClient) -> None:
    document = client.get("/api/v1/openapi.json").get_json()
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            if method in ("get", "post", "put", "patch", "delete"):
                assert "414" in operation["responses"], (method, path)


def test_gunicorn_leaves_the_long_line_to_the_app(tmp_path: Path) -> None:
    """Served as production serves it: the 4,891-byte line, and one near gunicorn's own most,
    are the app's 414 in its shape, not gunicorn's page."""
    uri = f"sqlite:///{tmp_path / 'served.sqlite3'}"
    migrate(uri)
    with gunicorn(uri, tmp_path / "gunicorn.log") as url:
        for length in (4891, 8000):
            try:
                urllib.request.urlopen(url + address_of_line(length), timeout=10)
            except urllib.error.HTTPError as refused:
                assert refused.code == 414, length
                assert refused.headers["Content-Type"] == "application/json", length
                assert json.loads(refused.read()) == REFUSED, length
            else:
                raise AssertionError(f"a {length}-byte line was taken")
