"""Issue 10, findings 5 and 6: the cookie names no guessable id, and sign-ins end (after a
shift, or idle) for the API's bearer tokens and the cookie alike."""

from __future__ import annotations

from datetime import timedelta

import pytest
from flask import Flask
from flask.sessions import SecureCookieSessionInterface
from sqlalchemy import update

from dealer.extensions import db
from dealer.models import AuthToken, utcnow
from dealer.people.sign_ins import hash_token
from dealer.transactions import writing
from tests.helpers import Api


def age(app: Flask, token: str, *, created: timedelta, seen: timedelta) -> None:
    """Make a sign-in look ``created`` old and last used ``seen`` ago."""
    now = utcnow()
    with app.app_context(), writing(db.session()) as session:
        session.execute(
            update(AuthToken)
            .where(AuthToken.token_hash == hash_token(token))
            .values(created_at=now - created, last_seen_at=now - seen)
        )


def last_seen(app: Flask, token: str) -> object:
    with app.app_context():
        row = db.session.query(AuthToken).filter_by(token_hash=hash_token(token)).one()
        return row.last_seen_at


def test_the_cookie_carries_the_random_token_not_a_row_id(people: Flask) -> None:
    """Does the signed cookie hold the sign-in's random token (so that knowing the key and
    counting ids 1, 2, 3 ... signs nobody in)?"""
    client = people.test_client()
    token = client.post("/api/v1/session", json={"name": "Ada", "pin": "3333"}).get_json()["token"]
    serializer = SecureCookieSessionInterface().get_signing_serializer(people)
    assert serializer is not None
    cookie = client.get_cookie("session")
    assert cookie is not None
    assert serializer.loads(cookie.value)["_user_id"] == token
    # A forged cookie naming row ids, signed with the app's own key, signs nobody in.
    for row_id in range(1, 10):
        forged = people.test_client()
        forged.set_cookie("session", serializer.dumps({"_user_id": str(row_id), "_fresh": True}))
        assert forged.get("/api/v1/ledger/verify").status_code == 401


def test_a_sign_in_ends_after_the_shift(people: Flask) -> None:
    """Older than SIGN_IN_HOURS (12 by default): 401, saying why, bearer and cookie alike."""
    client = people.test_client()
    token = client.post("/api/v1/session", json={"name": "Sam", "pin": "2222"}).get_json()["token"]
    age(people, token, created=timedelta(hours=12, minutes=1), seen=timedelta(seconds=5))
    bearer = people.test_client().get(
        "/api/v1/ledger/verify", headers={"Authorization": f"Bearer {token}"}
    )
    assert bearer.status_code == 401
    assert "12 hours" in bearer.get_json()["error"]["message"]
    assert client.get("/api/v1/ledger/verify").status_code == 401  # the cookie


def test_an_idle_bearer_token_ends_like_an_idle_screen(people: Flask) -> None:
    """Unused for IDLE_SECONDS, does a bearer token stop working (not only the screens)?"""
    floor = Api.sign_in(people, "supervisor")
    assert floor.call("GET", "/ledger/verify").status_code == 200
    idle = timedelta(seconds=people.config["IDLE_SECONDS"] + 60)
    age(people, str(floor.token), created=idle, seen=idle)
    answer = floor.call("GET", "/ledger/verify")
    assert answer.status_code == 401
    assert "without a touch" in answer.get_json()["error"]["message"]


def test_last_use_is_written_at_most_once_a_minute(people: Flask) -> None:
    floor = Api.sign_in(people, "supervisor")
    token = str(floor.token)
    first = last_seen(people, token)
    floor.call("GET", "/ledger/verify")
    assert last_seen(people, token) == first  # within the minute: no write
    age(people, token, created=timedelta(minutes=5), seen=timedelta(minutes=2))
    before = last_seen(people, token)
    floor.call("GET", "/ledger/verify")
    assert last_seen(people, token) != before


def test_the_device_is_returned_as_the_clients_claim(api: Api, floor: Api) -> None:
    """Is the recorded device marked, where it is returned, as what the client said?"""
    table = floor.table()
    api.seat(table["id"], 1, "Ana")
    api.seat(table["id"], 2, "Ben")
    hand = api.post(f"/tables/{table['id']}/hands", {}, headers={"X-Device": "Tablet 7"})
    event = hand["events"][0]
    assert event["device"] == "Tablet 7"
    assert event["device_claim"] == "claimed: Tablet 7"
    entries = floor.get(f"/tables/{table['id']}/ledger")["entries"]
    assert all(e["device_claim"].startswith("claimed: ") for e in entries)


@pytest.mark.parametrize("idle", [20, 30, 45])
def test_an_idle_limit_under_a_minute_never_ends_a_sign_in_in_use(
    people: Flask, monkeypatch: pytest.MonkeyPatch, idle: int
) -> None:
    """Under an idle limit of less than a minute, a sign-in used every little while (well
    within the limit) stays signed in for a quarter of an hour; left unused for the limit, it
    ends, saying how long in words ("20 seconds", never "1 minutes")."""
    from dealer import clock as app_clock

    people.config["IDLE_SECONDS"] = idle
    start = utcnow()
    clock = [start]
    monkeypatch.setattr(app_clock, "now", lambda: clock[0])
    floor = Api.sign_in(people, "supervisor")
    step = timedelta(seconds=idle * 2 // 3)
    while clock[0] - start < timedelta(minutes=15):
        clock[0] += step
        assert floor.call("GET", "/tables").status_code == 200, clock[0] - start
    clock[0] += timedelta(seconds=idle)
    answer = floor.call("GET", "/tables")
    assert answer.status_code == 401
    message = answer.get_json()["error"]["message"]
    assert message == f"Signed out after {idle} seconds without a touch. Sign in again."


@pytest.mark.parametrize(
    ("idle", "said"),
    [(60, "1 minute"), (900, "15 minutes"), (90, "1 minute and 30 seconds"), (1, "1 second")],
)
def test_the_idle_sign_out_says_its_time_with_plurals_right(
    people: Flask, idle: int, said: str
) -> None:
    people.config["IDLE_SECONDS"] = idle
    floor = Api.sign_in(people, "supervisor")
    gone = timedelta(seconds=idle + 1)
    age(people, str(floor.token), created=gone, seen=gone)
    answer = floor.call("GET", "/ledger/verify")
    assert answer.get_json()["error"]["message"] == (
        f"Signed out after {said} without a touch. Sign in again."
    )
