"""Signing in and out at the tablet: the PIN pad page, roles' start screens, idle sign-out."""

from __future__ import annotations

import re
import time

from flask import Flask
from sqlalchemy import select

from dealer.extensions import db
from dealer.models import AuthToken, Event
from dealer.people.pins import MAX_WRONG_PINS
from tests.helpers import Api
from tests.screens.conftest import Web, words


def test_sign_in_page_has_name_pin_and_pin_pad(people: Flask) -> None:
    """Does the sign-in page label both fields and draw a 0-9 PIN pad?"""
    page = people.test_client().get("/sign-in").get_data(as_text=True)
    assert '<label for="name">Name</label>' in page
    assert '<label for="pin">PIN</label>' in page
    assert 'inputmode="numeric"' in page
    assert sorted(re.findall(r'data-digit="(\d)"', page)) == list("0123456789")


def test_each_role_starts_on_its_own_screen(people: Flask) -> None:
    """Does a dealer land on the tables, a supervisor and an admin on the floor?"""
    for name, pin, home in (
        ("Dee", "1111", "/tables"),
        ("Sam", "2222", "/floor"),
        ("Ada", "3333", "/floor"),
    ):
        answer = people.test_client().post("/sign-in", data={"name": name, "pin": pin})
        assert answer.status_code == 303
        assert answer.headers["Location"] == home


def test_sign_in_returns_to_the_page_asked_for_but_never_off_site(people: Flask) -> None:
    """Is ?next= followed when it is a path here, and ignored when it points elsewhere?"""
    client = people.test_client()
    answer = client.post("/sign-in", data={"name": "Dee", "pin": "1111", "next": "/hands/7"})
    assert answer.headers["Location"] == "/hands/7"
    for bad in ("https://evil.example/", "//evil.example/x", "/\\evil.example"):
        answer = people.test_client().post(
            "/sign-in", data={"name": "Dee", "pin": "1111", "next": bad}
        )
        assert answer.headers["Location"] == "/tables", bad


def test_wrong_pin_says_so_and_keeps_the_name(people: Flask) -> None:
    """Is a wrong PIN a 401 that names the problem, keeps the name and clears the PIN?"""
    answer = people.test_client().post("/sign-in", data={"name": "Dee", "pin": "9999"})
    assert answer.status_code == 401
    page = answer.get_data(as_text=True)
    assert "That name and PIN do not match an active user." in page
    assert 'value="Dee"' in page
    assert 'value="9999"' not in page


def test_too_many_wrong_pins_lock_the_name(people: Flask) -> None:
    """After the API's number of wrong PINs, is even the right PIN refused for a while?"""
    client = people.test_client()
    for _ in range(MAX_WRONG_PINS + 1):
        client.post("/sign-in", data={"name": "Dee", "pin": "0000"})
    answer = client.post("/sign-in", data={"name": "Dee", "pin": "1111"})
    assert answer.status_code == 429
    assert "Too many wrong PINs" in words(answer.get_data(as_text=True))
    assert "Try again in" in words(answer.get_data(as_text=True))


def test_malformed_sign_in_is_a_form_error(people: Flask) -> None:
    """Are a missing name and a PIN that is not 4-8 digits shown as field errors (422)?"""
    answer = people.test_client().post("/sign-in", data={"name": "", "pin": "12a"})
    assert answer.status_code == 422
    text = words(answer.get_data(as_text=True))
    assert "Enter your name." in text
    assert "A PIN is 4 to 8 digits." in text
    assert 'aria-invalid="true"' in answer.get_data(as_text=True)


def test_the_screens_share_the_apis_sign_in(people: Flask, dealer: Web) -> None:
    """Does one sign-in at the screen also open the JSON API (one AuthToken, same cookie)?"""
    floor = Api.sign_in(people, "supervisor")
    table = floor.table()
    answer = dealer.client.get(f"/api/v1/tables/{table['id']}")
    assert answer.status_code == 200
    with people.app_context():
        tokens = db.session.scalars(select(AuthToken)).all()
    assert len(tokens) == 2  # the screen's and the API client's


def test_sign_out_revokes_the_sign_in(people: Flask, dealer: Web) -> None:
    """Does signing out revoke the token row, so the cookie no longer opens screens or API?"""
    answer = dealer.post("/sign-out", {"page": "/tables"})
    assert answer.headers["Location"] == "/sign-in?next=/tables"
    assert "Signed out." in words(dealer.get("/sign-in"))
    assert dealer.client.get("/tables").status_code == 302
    assert dealer.client.get("/api/v1/tables/1").status_code == 401
    with people.app_context():
        (token,) = db.session.scalars(select(AuthToken)).all()
        assert token.revoked_at is not None


def test_idle_too_long_signs_out_on_the_next_page(people: Flask, dealer: Web) -> None:
    """After IDLE_SECONDS without a page, is the next page a sign-in, with the reason shown?"""
    with dealer.client.session_transaction() as session:
        session["seen"] = time.time() - people.config["IDLE_SECONDS"] - 5
    answer = dealer.client.get("/tables")
    assert answer.status_code == 302
    assert answer.headers["Location"] == "/sign-in?next=/tables"
    assert "Signed out after 15 minutes without a touch." in words(dealer.get("/sign-in"))
    with people.app_context():
        (token,) = db.session.scalars(select(AuthToken)).all()
        assert token.revoked_at is not None


def test_idle_sign_out_sent_by_the_tablet(dealer: Web) -> None:
    """Does the tablet's own idle sign-out say why, and promise the entry is kept?"""
    dealer.post("/sign-out", {"idle": "1", "page": "/tables"})
    assert "without a touch. Anything entered is kept." in words(dealer.get("/sign-in"))


def test_a_form_sent_after_idle_sign_out_is_kept_for_after_sign_in(
    people: Flask, dealer: Web, hand_id: int
) -> None:
    """Sent while signed out, is the entry kept, nothing recorded, and put back after sign-in?"""
    with dealer.client.session_transaction() as session:
        session["seen"] = time.time() - people.config["IDLE_SECONDS"] - 5
    form = {
        "action": "meld",
        "seat": "1",
        "cards": "5S 5S 5S",
        "key": "web-kept-1",
        "page": f"/hands/{hand_id}?seat=1",
    }
    answer = dealer.post(f"/hands/{hand_id}/events", form, status=302)
    assert answer.headers["Location"] == f"/sign-in?next=/hands/{hand_id}?seat%3D1"
    with people.app_context():
        assert db.session.scalars(select(Event).where(Event.type == "meld")).all() == []
    assert "What you entered is kept" in words(dealer.get("/sign-in"))
    again = dealer.post(
        "/sign-in", {"name": "Dee", "pin": "1111", "next": f"/hands/{hand_id}?seat=1"}
    )
    page = dealer.follow(again)
    assert 'value="5S 5S 5S"' in page
    assert 'value="web-kept-1"' in page  # the same key: a resend can never record twice
    assert dealer.get(f"/hands/{hand_id}").count('value="5S 5S 5S"') == 0  # offered once


def test_a_supervisor_pin_is_never_kept(people: Flask, dealer: Web, hand_id: int) -> None:
    """Is a supervisor's PIN left out of what is kept over a sign-out?"""
    with dealer.client.session_transaction() as session:
        session["seen"] = 0
    dealer.post(
        f"/hands/{hand_id}/void",
        {"reason": "misdeal", "supervisor_name": "Sam", "supervisor_pin": "2222", "key": "k"},
        status=302,
    )
    with dealer.client.session_transaction() as session:
        kept = dict(session["kept"]["fields"])
    assert kept["supervisor_name"] == "Sam"
    assert "supervisor_pin" not in kept


def test_start_page_sends_a_signed_in_user_to_work(dealer: Web, supervisor: Web) -> None:
    """Does / go straight to the tables for a dealer and to the floor for a supervisor?"""
    assert dealer.client.get("/").headers["Location"] == "/tables"
    assert supervisor.client.get("/").headers["Location"] == "/floor"


def test_the_next_dealer_signing_in_ends_the_last_sign_in(people: Flask, dealer: Web) -> None:
    """When another dealer signs in on the same tablet, is the first sign-in revoked?"""
    dealer.post("/sign-in", {"name": "Sam", "pin": "2222"})
    with people.app_context():
        tokens = db.session.scalars(select(AuthToken).order_by(AuthToken.id)).all()
        assert [t.revoked_at is not None for t in tokens] == [True, False]
    assert "Sam" in words(dealer.get("/floor"))


def test_a_refused_form_remembers_its_screen_not_its_post_address(
    dealer: Web, hand_id: int
) -> None:
    """Drawn in answer to a form, do sign-out and suit colours come back to the screen?"""
    answer = dealer.post(
        f"/hands/{hand_id}/events",
        {"action": "meld", "seat": "2", "cards": "6H 6H 6C", "page": f"/hands/{hand_id}?seat=2"},
        status=422,
    )
    page = answer.get_data(as_text=True)
    assert f'name="page" value="/hands/{hand_id}?seat=2"' in page
    assert f'name="page" value="/hands/{hand_id}/events"' not in page


def test_the_idle_sign_out_says_one_minute_not_one_minutes(people: Flask, dealer: Web) -> None:
    people.config["IDLE_SECONDS"] = 60
    with dealer.client.session_transaction() as session:
        session["seen"] = time.time() - 65
    assert dealer.client.get("/tables").status_code == 302
    assert "Signed out after 1 minute without a touch." in words(dealer.get("/sign-in"))
    dealer.post("/sign-out", {"idle": "1", "page": "/tables"})
    assert "1 minutes" not in words(dealer.get("/sign-in"))
