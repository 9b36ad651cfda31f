"""CSRF: with protection on (as in production), every screen form needs its token."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from flask import Flask

from dealer import create_app
from dealer.extensions import db
from tests.helpers import add_people


@pytest.fixture
def guarded(database_uri: str) -> Iterator[Flask]:
    app = create_app(
        {"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_uri, "WTF_CSRF_ENABLED": True}
    )
    add_people(app)
    yield app
    with app.app_context():
        db.session.remove()
        for engine in db.engines.values():
            engine.dispose()


def token(page: str) -> str:
    found = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page) or re.search(
        r'name="csrf_token" value="([^"]+)"', page
    )
    assert found, "no CSRF token on the page"
    return found.group(1)


def test_sign_in_without_its_token_is_refused(guarded: Flask) -> None:
    client = guarded.test_client()
    assert client.post("/sign-in", data={"name": "Dee", "pin": "1111"}).status_code == 400
    page = client.get("/sign-in").get_data(as_text=True)
    answer = client.post("/sign-in", data={"name": "Dee", "pin": "1111", "csrf_token": token(page)})
    assert answer.status_code == 303


def test_every_screen_form_needs_the_token(guarded: Flask) -> None:
    """With a session but no token, is each form refused (400), and with it accepted?"""
    client = guarded.test_client()
    page = client.get("/sign-in").get_data(as_text=True)
    client.post("/sign-in", data={"name": "Sam", "pin": "2222", "csrf_token": token(page)})
    form = {"name": "T", "profile": "classic", "collection": "none", "chip_value_cents": "25"}
    assert client.post("/floor/tables", data=form).status_code == 400
    floor = client.get("/floor").get_data(as_text=True)
    assert (
        client.post("/floor/tables", data={**form, "csrf_token": token(floor)}).status_code == 303
    )
    forms = ("/tables/1/seats", "/tables/1/hands", "/hands/1/events", "/sign-out", "/prefs")
    # The Print buttons too: a page of another site cannot make the tablet print (and count).
    for path in (*forms, "/hands/1/events/1/move", "/print/hands/1.pdf", "/print/shift.pdf"):
        assert client.post(path, data={}).status_code == 400, path


def test_the_api_keeps_its_own_cross_site_check(guarded: Flask) -> None:
    """Is the JSON API still exempt from the form token (it asks for JSON instead)?"""
    answer = guarded.test_client().post("/api/v1/session", json={"name": "Dee", "pin": "1111"})
    assert answer.status_code == 200


def test_a_stale_form_says_nothing_was_recorded(guarded: Flask) -> None:
    """Is a form with a bad token answered with a page that says so, not a bare 400?"""
    client = guarded.test_client()
    page = client.get("/sign-in").get_data(as_text=True)
    client.post("/sign-in", data={"name": "Dee", "pin": "1111", "csrf_token": token(page)})
    answer = client.post("/hands/1/events", data={"csrf_token": "stale", "cards": "5S"})
    assert answer.status_code == 400
    text = answer.get_data(as_text=True)
    assert "Nothing was recorded" in text
    assert "this tablet has kept it" in text


#: The only blueprint CSRFProtect exempts: the JSON API, whose writes must be JSON instead
#: (`dealer.web.signin._refuse_cross_site`), which no cross-site form can send.
JSON_API = "api"
STATE_CHANGING = ("POST", "PUT", "PATCH", "DELETE")


def form_routes(app: Flask) -> list[tuple[str, str]]:
    """Every (method, address) outside the JSON API that changes state, ids filled in as 1."""
    out = []
    for rule in app.url_map.iter_rules():
        if rule.endpoint.split(".")[0] == JSON_API:
            continue
        for method in sorted((rule.methods or set()) & set(STATE_CHANGING)):
            out.append((method, re.sub(r"<[^>]*>", "1", rule.rule)))
    return out


def test_the_walk_finds_the_forms(guarded: Flask) -> None:
    """Does the walk see the forms it must (so the test below cannot pass on nothing)?"""
    found = {path for _method, path in form_routes(guarded)}
    for path in (
        "/sign-in",
        "/sign-out",
        "/floor/tables",
        "/tables/1/settings",
        "/print/shift.pdf",
    ):
        assert path in found, path
    assert not any(path.startswith("/api/") for path in found)


@pytest.mark.parametrize("who", [None, ("Sam", "2222"), ("Dee", "1111")])
def test_every_state_changing_form_refuses_a_missing_token(
    guarded: Flask, who: tuple[str, str] | None
) -> None:
    """Walking the URL map: does every non-API write refuse a request without its token (400),
    signed out, as a supervisor and as a dealer, before anything is recorded?"""
    client = guarded.test_client()
    if who is not None:
        page = client.get("/sign-in").get_data(as_text=True)
        name, pin = who
        signed = client.post("/sign-in", data={"name": name, "pin": pin, "csrf_token": token(page)})
        assert signed.status_code == 303
    refused = []
    for method, path in form_routes(guarded):
        answer = client.open(path, method=method, data={"key": "k", "name": "T"})
        if answer.status_code != 400:
            refused.append(f"{method} {path}: {answer.status_code}")
    assert not refused, "accepted without a CSRF token: " + ", ".join(refused)
    if who is not None:  # and the sign-in still stands: nothing was done, not even a sign-out
        assert client.get("/tables").status_code == 200
