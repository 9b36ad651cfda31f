"""The first run: with nobody added, the screens lead to creating the first admin, and only then."""

from __future__ import annotations

from flask import Flask

from dealer.errors import Conflict
from dealer.extensions import db
from dealer.people import users
from dealer.transactions import writing
from tests.screens.conftest import words


def test_with_nobody_every_screen_leads_to_the_first_admin(app: Flask) -> None:
    """Every screen leads to the first-run one; the health check and the API answer as ever."""
    client = app.test_client()
    for path in ("/", "/sign-in", "/tables", "/floor", "/hands/1"):
        answer = client.get(path)
        assert answer.status_code == 303, path
        assert answer.headers["Location"] == "/first-run", path
    assert client.get("/healthz").status_code == 200
    assert client.get("/api/v1/tables/1").status_code == 401
    assert "create the first admin" in words(client.get("/first-run").get_data(as_text=True))


def test_the_first_admin_is_created_on_screen_and_signed_in(app: Flask) -> None:
    client = app.test_client()
    form = {"name": "Ann", "pin": "4321", "pin_again": "4312"}
    differ = client.post("/first-run", data=form)
    assert differ.status_code == 422
    assert "The two PINs differ." in words(differ.get_data(as_text=True))
    short = client.post("/first-run", data={**form, "pin": "12", "pin_again": "12"})
    assert "A PIN is 4 to 8 digits." in words(short.get_data(as_text=True))
    done = client.post("/first-run", data={**form, "pin_again": "4321"})
    assert done.status_code == 303 and done.headers["Location"] == "/floor"
    assert "Ann (admin)" in words(client.get("/floor").get_data(as_text=True))
    # Once someone exists the screen is gone: sign in as usual.
    stranger = app.test_client()
    assert stranger.get("/first-run").headers["Location"] == "/sign-in"
    assert stranger.post("/first-run", data=form).headers["Location"] == "/sign-in"
    assert stranger.get("/sign-in").status_code == 200


def test_a_second_first_admin_is_refused(app: Flask) -> None:
    with app.app_context(), writing(db.session()) as session:
        assert users.needs_first_admin(session)
        users.create_first_admin(session, "Ann", "4321")
        assert not users.needs_first_admin(session)
        try:
            users.create_first_admin(session, "Bob", "1234")
        except Conflict as refused:
            assert refused.code == "users_exist"
        else:
            raise AssertionError("a second first admin was created")
