"""HTTP as a client expects it: the document cached by its ETag, a 401 that says how to sign
in and who may act, a real answer to OPTIONS, a body that names a field twice refused, a PDF
as bytes to a client that asks for bytes."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.helpers import Api


def test_the_document_has_an_etag_and_answers_304_when_unchanged(client: FlaskClient) -> None:
    first = client.get("/api/v1/openapi.json")
    assert first.status_code == 200 and first.headers["ETag"]
    # Kept, but asked again each time (it changes when the app does): not no-store.
    assert first.headers["Cache-Control"] == "no-cache"
    again = client.get("/api/v1/openapi.json", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.get_data() == b""
    other = client.get("/api/v1/openapi.json", headers={"If-None-Match": '"another"'})
    assert other.status_code == 200 and other.get_json() == first.get_json()


def test_a_401_says_how_to_sign_in(client: FlaskClient) -> None:
    for path in ("/api/v1/tables", "/exports/ledger.csv", "/reports/hands/1.pdf"):
        answer = client.get(path, headers={"Authorization": "Bearer not-a-token"})
        assert answer.status_code == 401, path
        assert answer.headers["WWW-Authenticate"] == 'Bearer realm="dealer"', path


def test_a_401_names_the_role_the_address_needs(client: FlaskClient) -> None:
    """A supervisor's export does not ask for "a signed-in dealer", whatever the token was."""
    for headers in ({}, {"Authorization": "Bearer not-a-token"}):
        refused = client.get("/exports/ledger.csv", headers=headers).get_json()["error"]
        assert refused["code"] == "not_signed_in"
        assert refused["message"] == "Sign in first: this needs a supervisor or above, signed in."
    users = client.get("/api/v1/users").get_json()["error"]["message"]
    assert users == "Sign in first: this needs an admin, signed in."
    tables = client.get("/api/v1/tables").get_json()["error"]["message"]
    assert tables == "Sign in first: this needs a signed-in dealer."


def test_options_answers_204_with_the_methods_allowed(client: FlaskClient) -> None:
    for path, methods in (
        ("/api/v1/tables", {"GET", "POST"}),
        ("/api/v1/session", {"POST", "DELETE"}),
        ("/exports/ledger.csv", {"GET"}),
    ):
        answer = client.options(path)
        assert answer.status_code == 204, path
        assert answer.get_data() == b"" and "Content-Type" not in answer.headers, path
        allowed = {m.strip() for m in answer.headers["Allow"].split(",")}
        assert allowed >= methods | {"OPTIONS"}, (path, allowed)


def test_a_field_given_twice_is_refused_in_words_and_records_nothing(floor: Api) -> None:
    before = floor.get("/tables")["tables"]
    body = '{"name": "Table 1", "profile": "classic", "name": "Table 2"}'
    answer = floor.client.post(
        "/api/v1/tables",
        data=body,
        headers=floor.headers({"Content-Type": "application/json"}),
    )
    assert answer.status_code == 422
    error: dict[str, Any] = answer.get_json()["error"]
    assert error == {
        "code": "malformed_json",
        "message": "The body gives 'name' twice: give each field once.",
    }
    assert floor.get("/tables")["tables"] == before
    # Nested too: the same name twice in an object inside the body.
    nested = '{"name": "T", "profile": "classic", "rules": {"packs": 8, "packs": 6}}'
    answer = floor.client.post(
        "/api/v1/tables", data=nested, headers=floor.headers({"Content-Type": "application/json"})
    )
    assert answer.status_code == 422 and "'packs' twice" in answer.get_json()["error"]["message"]


def test_a_pdf_comes_as_bytes_to_a_client_that_asks_for_bytes(floor: Api) -> None:
    table = floor.table("classic")["id"]
    for seat in (1, 2, 3):
        floor.seat(table, seat, f"P{seat}")
    hand = floor.hand(table)["id"]
    path = f"/reports/hands/{hand}/seats/1/statement.pdf"
    plain = floor.client.get(path, headers=floor.headers(None))
    assert plain.mimetype == "application/pdf"
    asked = floor.client.get(path, headers=floor.headers({"Accept": "application/octet-stream"}))
    assert asked.mimetype == "application/octet-stream"
    assert asked.get_data().startswith(b"%PDF-")
