"""Sign-in, sign-out, tokens, the cookie, roles and the PIN lockout."""

from __future__ import annotations

from flask import Flask

from dealer.people.pins import MAX_WRONG_PINS
from tests.helpers import PEOPLE, Api


def test_sign_in_answers_user_and_token_and_sets_a_cookie(people: Flask) -> None:
    """Does POST /session answer 200 {"user": {"name", "role"}, "token"} and set a cookie?"""
    client = people.test_client()
    answer = client.post("/api/v1/session", json={"name": "Dee", "pin": "1111"})
    assert answer.status_code == 200
    body = answer.get_json()
    assert body["user"] == {"name": "Dee", "role": "dealer"}
    assert isinstance(body["token"], str) and len(body["token"]) >= 32
    assert "session=" in answer.headers["Set-Cookie"]
    assert "HttpOnly" in answer.headers["Set-Cookie"]
    assert "SameSite=Lax" in answer.headers["Set-Cookie"]


def test_the_token_works_as_a_bearer_on_other_calls(api: Api, floor: Api) -> None:
    """Does `Authorization: Bearer <token>` sign a call in (on a fresh client, no cookie)?"""
    table = floor.table()
    bare = Api(api.client.application.test_client(), api.token)
    assert bare.get(f"/tables/{table['id']}")["id"] == table["id"]


def test_the_cookie_alone_signs_calls_in(people: Flask, floor: Api) -> None:
    """Does the session cookie set at sign-in work without the bearer token?"""
    table = floor.table()
    client = people.test_client()
    client.post("/api/v1/session", json={"name": "Dee", "pin": "1111"})
    answer = client.get(f"/api/v1/tables/{table['id']}")
    assert answer.status_code == 200


def test_sign_out_revokes_token_and_cookie(people: Flask, floor: Api) -> None:
    """After DELETE /session, do both the token and the cookie stop working?"""
    table = floor.table()
    client = people.test_client()
    token = client.post("/api/v1/session", json={"name": "Dee", "pin": "1111"}).get_json()["token"]
    cookie = client.get_cookie("session")
    assert cookie is not None
    path = f"/api/v1/tables/{table['id']}"
    bearer = {"Authorization": f"Bearer {token}"}
    assert client.delete("/api/v1/session", headers=bearer).status_code == 204
    other = people.test_client()
    assert other.get(path, headers=bearer).status_code == 401
    # The old cookie, replayed by hand, points at the revoked token row.
    other.set_cookie("session", cookie.value)
    assert other.get(path).status_code == 401


def test_sign_out_by_cookie_also_kills_the_token(people: Flask, floor: Api) -> None:
    """Signing out with the cookie revokes the bearer token of the same sign-in."""
    table = floor.table()
    client = people.test_client()
    token = client.post("/api/v1/session", json={"name": "Dee", "pin": "1111"}).get_json()["token"]
    assert client.delete("/api/v1/session").status_code == 204
    answer = people.test_client().get(
        f"/api/v1/tables/{table['id']}", headers={"Authorization": f"Bearer {token}"}
    )
    assert answer.status_code == 401


def test_wrong_pin_and_unknown_name_are_401_with_a_sentence(people: Flask) -> None:
    client = people.test_client()
    for body in ({"name": "Dee", "pin": "9999"}, {"name": "Nobody", "pin": "1111"}, {}):
        answer = client.post("/api/v1/session", json=body)
        assert answer.status_code == 401
        error = answer.get_json()["error"]
        assert error["code"] == "wrong_pin"
        assert error["message"].endswith(".")
        assert client.get_cookie("session") is None


def test_too_many_wrong_pins_lock_the_name(people: Flask) -> None:
    """After MAX_WRONG_PINS + 1 wrong PINs, is even the right PIN refused (429, Retry-After)?"""
    client = people.test_client()
    for _ in range(MAX_WRONG_PINS + 1):
        assert (
            client.post("/api/v1/session", json={"name": "Dee", "pin": "0000"}).status_code == 401
        )
    answer = client.post("/api/v1/session", json={"name": "Dee", "pin": "1111"})
    assert answer.status_code == 429
    assert answer.get_json()["error"]["code"] == "pin_locked"
    assert int(answer.headers["Retry-After"]) > 0
    # Other people are not locked out.
    assert client.post("/api/v1/session", json={"name": "Sam", "pin": "2222"}).status_code == 200


def test_a_right_pin_clears_the_count_of_wrong_ones(people: Flask) -> None:
    client = people.test_client()
    for _ in range(MAX_WRONG_PINS - 1):
        client.post("/api/v1/session", json={"name": "Dee", "pin": "0000"})
    assert client.post("/api/v1/session", json={"name": "Dee", "pin": "1111"}).status_code == 200
    for _ in range(MAX_WRONG_PINS - 1):
        client.post("/api/v1/session", json={"name": "Dee", "pin": "0000"})
    assert client.post("/api/v1/session", json={"name": "Dee", "pin": "1111"}).status_code == 200


def test_calls_without_sign_in_are_401(app: Flask) -> None:
    client = app.test_client()
    for method, path in [
        ("GET", "/api/v1/tables/1"),
        ("POST", "/api/v1/tables"),
        ("GET", "/api/v1/hands/1"),
        ("GET", "/api/v1/ledger/verify"),
        ("DELETE", "/api/v1/session"),
    ]:
        answer = client.open(path, method=method, json={})
        assert answer.status_code == 401, path
        assert answer.get_json()["error"]["code"] == "not_signed_in"


def test_a_made_up_token_is_401(app: Flask) -> None:
    answer = app.test_client().get(
        "/api/v1/tables/1", headers={"Authorization": "Bearer not-a-real-token"}
    )
    assert answer.status_code == 401


def test_roles_dealer_below_supervisor(api: Api, floor: Api, admin: Api) -> None:
    """Can only a supervisor or admin create tables and read the verification?"""
    assert api.call("POST", "/tables", {"name": "T", "profile": "classic"}, status=403).get_json()[
        "error"
    ]["code"] == ("role_not_allowed")
    api.call("GET", "/ledger/verify", status=403)
    floor.table()
    admin.table()
    floor.get("/ledger/verify")
    admin.get("/ledger/verify")


def test_cookie_writes_must_be_json(people: Flask) -> None:
    """Is a cookie-signed POST that is not JSON (what a cross-site form sends) refused?"""
    client = people.test_client()
    client.post("/api/v1/session", json={"name": "Sam", "pin": "2222"})
    form = client.post("/api/v1/tables", data={"name": "T", "profile": "classic"})
    assert form.status_code == 415
    text = client.post(
        "/api/v1/tables", data='{"name": "T", "profile": "classic"}', content_type="text/plain"
    )
    assert text.status_code == 415
    empty = client.post("/api/v1/tables/1/collections")
    assert empty.status_code == 415
    assert (
        client.post("/api/v1/tables", json={"name": "T", "profile": "classic"}).status_code == 201
    )


def test_every_role_in_people_can_sign_in(people: Flask) -> None:
    client = people.test_client()
    for role, (name, pin) in PEOPLE.items():
        answer = client.post("/api/v1/session", json={"name": name, "pin": pin})
        assert answer.get_json()["user"]["role"] == role


def test_the_api_is_exempt_from_the_csrf_token_of_html_forms(people: Flask, floor: Api) -> None:
    """With Flask-WTF's CSRF on, JSON calls still work: their own guard is the JSON type."""
    people.config["WTF_CSRF_ENABLED"] = True
    floor.table()
    client = people.test_client()
    table = {"name": "T", "profile": "classic"}
    assert client.post("/api/v1/session", json={"name": "Sam", "pin": "2222"}).status_code == 200
    assert client.post("/api/v1/tables", json=table).status_code == 201
    assert client.post("/api/v1/tables", data=table).status_code == 415


def test_a_cookie_whose_user_is_not_text_is_signed_out(people: Flask) -> None:
    """A cookie signed with the key whose user field is a number, a list or a map (never one
    the app made): treated as no sign-in at all, a 401 in words, never a 500."""
    from flask.sessions import SecureCookieSessionInterface

    serializer = SecureCookieSessionInterface().get_signing_serializer(people)
    assert serializer is not None
    for odd in (7, ["x"], {"token": "x"}, None, True, 1.5):
        client = people.test_client()
        client.set_cookie("session", str(serializer.dumps({"_user_id": odd, "_fresh": True})))
        answer = client.get("/api/v1/tables/1")
        assert answer.status_code == 401, odd
        assert answer.get_json()["error"]["code"] == "not_signed_in"
        screen = client.get("/tables")
        assert screen.status_code in (302, 303), odd
        assert "/sign-in" in screen.headers["Location"]


#: Cookies signed with the server's key but of no sign-in's shape.
ODD_COOKIES: list[object] = [
    ["a", "list"],
    7,
    "text",
    {"_flashes": 3},
    {"_flashes": [["notice"]]},
    {"_flashes": [[1, 2]]},
    {"seen": "yesterday"},
    {"kept": 3},
    {"kept": {"action": "/tables", "fields": 5}},
    {"_fresh": "yes"},
    {"something": "else"},
]


def test_a_signed_cookie_of_another_shape_is_signed_out_never_a_500(
    people: Flask, floor: Api
) -> None:
    """A cookie signed with the key whose content the app never writes (a list as the whole
    cookie, flashed messages that are a number ...), even beside a live sign-in's token: read
    as no cookie at every address, the health check and the static files included."""
    from flask.sessions import SecureCookieSessionInterface

    people.testing = False  # an error is answered as served (500), not raised into the test
    serializer = SecureCookieSessionInterface().get_signing_serializer(people)
    assert serializer is not None
    for odd in ODD_COOKIES:
        shapes = [odd] + ([{"_user_id": floor.token, **odd}] if isinstance(odd, dict) else [])
        for shape in shapes:
            client = people.test_client()
            client.set_cookie("session", str(serializer.dumps(shape)))
            assert client.get("/healthz").status_code == 200, shape
            assert client.get("/static/app.css").status_code == 200, shape
            assert client.get("/").status_code == 200, shape
            assert client.get("/sign-in").status_code == 200, shape
            answer = client.get("/api/v1/tables")
            assert answer.status_code == 401, (shape, answer.status_code)
            screen = client.get("/tables")
            assert screen.status_code in (302, 303), (shape, screen.status_code)
            assert "/sign-in" in screen.headers["Location"]
            assert client.post("/sign-out").status_code in (302, 303), shape
