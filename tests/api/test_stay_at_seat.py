"""An entry made at a seat names the stay it was made for (the seat's ``seating``): sent after
that player left, it is refused in words and nothing lands on whoever sits there now. A call
that names no stay is for whoever sits in the seat when it arrives, as before."""

from __future__ import annotations

from typing import Any

from tests.helpers import Api


def _cy_left_and_zed_sat(api: Api, floor: Api) -> tuple[int, int, dict[str, Any]]:
    """Cy sat in seat 3 with 200, then left; Zed sits there now with 300."""
    table = floor.table()["id"]
    cy = api.seat(table, 3, "Cy", 200)["seating"]
    api.delete(f"/tables/{table}/seats/3", status=200)
    zed = api.seat(table, 3, "Zed", 300)
    return table, cy, zed


def test_a_cash_out_made_for_a_stay_that_ended_is_refused_and_zed_keeps_his_chips(
    api: Api, floor: Api
) -> None:
    table, cy, zed = _cy_left_and_zed_sat(api, floor)
    before = api.get(f"/tables/{table}/ledger")["entries"]
    for kind in ("cash_out", "buy_in"):
        body = {"kind": kind, "amount": 150, "seating": cy}
        error = api.post(f"/tables/{table}/seats/3/chips", body, status=409)["error"]
        assert error == {
            "code": "seating_ended",
            "message": "This entry was made for Cy in seat 3, who has left; Zed sits there "
            "now: nothing was recorded on Zed.",
        }
    assert api.get(f"/tables/{table}/ledger")["entries"] == before
    assert api.get(f"/tables/{table}/balances")["seats"]["3"]["stack"] == 300
    # Made for Zed's own stay, it is his; a call naming no stay (API.md's shape, as an existing
    # client sends it) is for whoever sits in the seat when it arrives.
    body = {"kind": "cash_out", "amount": 150, "seating": zed["seating"]}
    assert api.post(f"/tables/{table}/seats/3/chips", body, status=201)["stack"] == 150
    body = {"kind": "cash_out", "amount": 100}
    assert api.post(f"/tables/{table}/seats/3/chips", body, status=201)["stack"] == 50


def test_leaving_and_sitting_out_named_for_a_stay_that_ended_are_refused(
    api: Api, floor: Api
) -> None:
    table, cy, zed = _cy_left_and_zed_sat(api, floor)
    error = api.delete(f"/tables/{table}/seats/3?seating={cy}", status=409)["error"]
    assert error["code"] == "seating_ended"
    api.delete(f"/tables/{table}/seats/3?seating=Cy", status=422)
    error = api.post(f"/tables/{table}/seats/3/pause", {"paused": True, "seating": cy}, status=409)
    assert error["error"]["code"] == "seating_ended"
    seat = api.get(f"/tables/{table}")["seats"]["3"]
    assert (seat["player"], seat["stack"], seat["paused"]) == ("Zed", 300, False)
    # The seat empty: still refused (409, not "nobody is sitting"), the stay named.
    left = api.delete(f"/tables/{table}/seats/3?seating={zed['seating']}", status=200)
    assert left["cashed_out"] == 300
    body = {"kind": "buy_in", "amount": 50, "seating": zed["seating"]}
    error = api.post(f"/tables/{table}/seats/3/chips", body, status=409)["error"]
    assert (
        error["message"]
        == "This entry was made for Zed in seat 3, who has left: nothing was recorded."
    )


def test_a_stay_that_is_not_this_seats_is_refused(api: Api, floor: Api) -> None:
    table = floor.table()["id"]
    ana = api.seat(table, 1, "Ana", 40)["seating"]
    api.seat(table, 2, "Ben", 40)
    body = {"kind": "buy_in", "amount": 5, "seating": ana}
    error = api.post(f"/tables/{table}/seats/2/chips", body, status=409)["error"]
    assert error["message"] == (
        "This entry was made for another stay in seat 2; Ben sits there now: "
        "nothing was recorded on Ben."
    )
    api.post(f"/tables/{table}/seats/2/chips", {**body, "seating": 0}, status=422)
    api.post(f"/tables/{table}/seats/2/chips", {**body, "seating": "1"}, status=422)
