"""Admins manage people: list, add and deactivate users; pausing a seat."""

from __future__ import annotations

from tests.helpers import Api


def test_admin_lists_and_adds_users(admin: Api, api: Api, floor: Api) -> None:
    names = [u["name"] for u in admin.get("/users")["users"]]
    assert names == ["Ada", "Dee", "Sam"]
    user = admin.post("/users", {"name": "Rui", "role": "dealer", "pin": "5555"}, status=201)
    assert (user["name"], user["role"], user["active"]) == ("Rui", "dealer", True)
    assert Api.sign_in_as(admin.client.application, "Rui", "5555").token
    for body in (
        {"name": "Rui", "role": "dealer", "pin": "5555"},
        {"name": "X", "role": "boss", "pin": "5555"},
        {"name": "X", "role": "dealer", "pin": "55"},
        {"name": "X", "role": "dealer"},
    ):
        assert admin.call("POST", "/users", body).status_code in (409, 422)
    api.call("GET", "/users", status=403)
    floor.call("POST", "/users", {"name": "Y", "role": "admin", "pin": "1234"}, status=403)


def test_deactivating_a_user_ends_their_sign_ins(admin: Api, api: Api) -> None:
    dee = next(u for u in admin.get("/users")["users"] if u["name"] == "Dee")
    assert admin.delete(f"/users/{dee['id']}", status=200)["active"] is False
    api.call("GET", "/users", status=401)
    answer = api.client.post("/api/v1/session", json={"name": "Dee", "pin": "1111"})
    assert answer.status_code == 401
    admin.delete("/users/999", status=404)


def test_the_last_admin_stays(admin: Api) -> None:
    ada = next(u for u in admin.get("/users")["users"] if u["name"] == "Ada")
    assert admin.delete(f"/users/{ada['id']}", status=409)["error"]["code"] == "last_admin"


def test_a_paused_seat_is_not_dealt_in_nor_charged_time(api: Api, floor: Api) -> None:
    table = floor.table("classic", collection={"kind": "time", "chips": 1, "minutes": 30})
    for seat in (1, 2, 3):
        api.seat(table["id"], seat, f"P{seat}", 10)
    paused = api.post(f"/tables/{table['id']}/seats/2/pause", {"paused": True}, status=200)
    assert paused["paused"] is True
    hand = api.hand(table["id"])
    assert set(hand["seats"]) == {"1", "3"}
    taken = api.post(f"/tables/{table['id']}/collections", status=201)
    assert [p["from"] for p in taken["payments"]] == ["1", "3"]
    api.post(f"/tables/{table['id']}/seats/2/pause", {"paused": False}, status=200)
    api.post(f"/tables/{table['id']}/seats/2/pause", {"paused": "no"}, status=422)
    api.post(f"/tables/{table['id']}/seats/4/pause", {"paused": True}, status=404)


def test_a_name_that_looks_like_a_users_is_refused(admin: Api) -> None:
    """Another case, or full-width letters, look the same on a screen and in the audit trail:
    "SAM", or Sam in full-width letters, cannot be added beside Sam, to pass for him."""
    for name in ("SAM", "sam", "\uff33\uff41\uff4d", "\uff33am"):
        body = {"name": name, "role": "admin", "pin": "5555"}
        refused = admin.post("/users", body, status=409)["error"]
        assert refused == {
            "code": "user_exists",
            "message": f"“{name}” looks like the existing user Sam: choose another name.",
        }
    assert [u["name"] for u in admin.get("/users")["users"]] == ["Ada", "Dee", "Sam"]
