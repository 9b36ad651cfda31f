"""Finding 2 of the security review: money limits as table settings, and the time collection
refused until it is due unless a supervisor overrides (and the override is recorded)."""

from __future__ import annotations

from typing import Any

from dealer.bounds import APPROVAL_ABOVE, MAX_BUY_IN, MIN_BUY_IN
from tests.helpers import Api

SAM = {"name": "Sam", "pin": "2222"}


def seated(floor: Api, api: Api, **limits: Any) -> int:
    table = int(floor.table(**limits)["id"])
    api.seat(table, 1, "Ana", 100)
    return table


def error(answer: Any, code: str) -> str:
    assert answer["error"]["code"] == code, answer
    return str(answer["error"]["message"])


def entries(api: Api, table: int) -> list[dict[str, Any]]:
    return list(api.get(f"/tables/{table}/ledger")["entries"])


def test_a_table_has_the_default_limits_until_the_floor_sets_its_own(floor: Api) -> None:
    limits = {"min_buy_in": MIN_BUY_IN, "max_buy_in": MAX_BUY_IN, "approval_above": APPROVAL_ABOVE}
    assert floor.table()["limits"] == limits
    own = {"min_buy_in": 20, "max_buy_in": 500, "approval_above": 300}
    assert floor.table(**own)["limits"] == own


def test_a_buy_in_above_the_most_is_refused_and_nothing_moves(floor: Api, api: Api) -> None:
    """The review bought a seat in for 1,000,000: now a 422 in the table's words."""
    table = seated(floor, api)
    before = entries(api, table)
    said = error(
        api.post(
            f"/tables/{table}/seats/1/chips", {"kind": "buy_in", "amount": 1_000_000}, status=422
        ),
        "above_max_buy_in",
    )
    assert said == "The most a seat may buy in for at this table is 2,000 chips."
    body = {"seat": 2, "player": "Ben", "buy_in": 5000}
    error(api.post(f"/tables/{table}/seats", body, status=422), "above_max_buy_in")
    assert entries(api, table) == before
    # Not even a supervisor buys in above the table's most: the floor changes the limit.
    error(
        floor.post(
            f"/tables/{table}/seats/1/chips", {"kind": "buy_in", "amount": 2001}, status=422
        ),
        "above_max_buy_in",
    )


def test_a_buy_in_below_the_least_is_refused(floor: Api, api: Api) -> None:
    table = int(floor.table(min_buy_in=40)["id"])
    said = error(
        api.post(f"/tables/{table}/seats", {"seat": 1, "player": "A", "buy_in": 39}, status=422),
        "below_min_buy_in",
    )
    assert said == "The least a seat may buy in for at this table is 40 chips."
    api.seat(table, 1, "A", 0)  # seated with no chips yet: a buy-in comes later
    api.seat(table, 2, "B", 40)


def test_above_the_threshold_a_supervisors_name_and_pin_approve(floor: Api, api: Api) -> None:
    table = seated(floor, api, approval_above=500)
    path = f"/tables/{table}/seats/1/chips"
    said = error(api.post(path, {"kind": "buy_in", "amount": 501}, status=403), "needs_supervisor")
    assert "above this table's 500" in said and "supervisor's name and PIN" in said
    wrong = {"kind": "buy_in", "amount": 501, "supervisor": {"name": "Sam", "pin": "0000"}}
    error(api.post(path, wrong, status=403), "supervisor_not_approved")
    assert (
        api.post(path, {"kind": "buy_in", "amount": 501, "supervisor": SAM}, status=201)["stack"]
        == 601
    )
    assert entries(api, table)[-1]["reason"] == "Ana in seat 1 buys in for 501 (approved by Sam)"
    # Cashing out above it too; at or below it, the dealer alone.
    error(api.post(path, {"kind": "cash_out", "amount": 600}, status=403), "needs_supervisor")
    api.post(path, {"kind": "cash_out", "amount": 500}, status=201)
    api.post(path, {"kind": "buy_in", "amount": 500}, status=201)
    seat = {"seat": 2, "player": "Ben", "buy_in": 800, "supervisor": SAM}
    api.post(f"/tables/{table}/seats", seat, status=201)
    assert entries(api, table)[-1]["reason"].endswith("(approved by Sam)")


def test_leaving_with_a_stack_above_the_threshold_needs_the_floor(floor: Api, api: Api) -> None:
    """Leaving cashes out the whole stack: it cannot go round the approval."""
    table = int(floor.table(approval_above=50)["id"])
    floor.seat(table, 1, "Ana", 100)
    error(api.delete(f"/tables/{table}/seats/1", status=403), "needs_supervisor")
    left = floor.delete(f"/tables/{table}/seats/1", status=200)
    assert left["cashed_out"] == 100
    assert entries(api, table)[-1]["reason"].endswith("(a supervisor's: Sam)")


def test_the_floor_changes_a_tables_limits(floor: Api, api: Api) -> None:
    table = seated(floor, api)
    changed = floor.call("PATCH", f"/tables/{table}", {"max_buy_in": 5000}, status=200)
    assert changed.get_json()["limits"] == {
        "min_buy_in": MIN_BUY_IN,
        "max_buy_in": 5000,
        "approval_above": APPROVAL_ABOVE,
    }
    api.post(
        f"/tables/{table}/seats/1/chips",
        {"kind": "buy_in", "amount": 3000, "supervisor": SAM},
        status=201,
    )
    answer = api.call("PATCH", f"/tables/{table}", {"max_buy_in": 9}, status=403)
    assert answer.get_json()["error"]["code"] == "role_not_allowed"
    bad = floor.call("PATCH", f"/tables/{table}", {"min_buy_in": 6000}, status=422)
    assert bad.get_json()["error"]["code"] == "invalid_limits"
    assert api.get(f"/tables/{table}")["limits"]["max_buy_in"] == 5000


def time_table(floor: Api, api: Api) -> int:
    table = int(floor.table(collection={"kind": "time", "chips": 5, "minutes": 30})["id"])
    api.seat(table, 1, "Ana", 100)
    api.seat(table, 2, "Ben", 100)
    return table


def test_the_time_collection_twice_in_a_row_is_not_due(floor: Api, api: Api) -> None:
    """The review took "5 every 30 minutes" three times in one second: now once."""
    table = time_table(floor, api)
    api.post(f"/tables/{table}/collections", {}, status=201)
    before = api.stacks(table)
    said = error(api.post(f"/tables/{table}/collections", {}, status=409), "not_due")
    assert "not due yet" in said and "due again in 30 min" in said
    assert "supervisor's name and PIN" in said
    assert api.stacks(table) == before == {1: 95, 2: 95}


def test_a_supervisor_overrides_and_the_override_is_recorded(floor: Api, api: Api) -> None:
    table = time_table(floor, api)
    api.post(f"/tables/{table}/collections", {}, status=201)
    wrong = {"supervisor": {"name": "Sam", "pin": "9999"}}
    error(api.post(f"/tables/{table}/collections", wrong, status=403), "supervisor_not_approved")
    taken = api.post(f"/tables/{table}/collections", {"supervisor": SAM}, status=201)
    assert [p["chips"] for p in taken["payments"]] == [5, 5]
    assert api.stacks(table) == {1: 90, 2: 90}
    early = [e for e in entries(api, table) if "taken early" in e["reason"]]
    assert len(early) == 2
    assert all(e["reason"].endswith("min before it was due, Sam)") for e in early)
    # A supervisor taking it is their own override.
    floor.post(f"/tables/{table}/collections", {}, status=201)
    assert api.stacks(table) == {1: 85, 2: 85}


def test_approvals_overrides_limits_and_assignments_are_in_the_audit_trail(
    floor: Api, api: Api, people: Any
) -> None:
    from dealer.extensions import db
    from dealer.people.audit import audit_trail

    table = time_table(floor, api)
    api.post(
        f"/tables/{table}/seats/1/chips",
        {"kind": "buy_in", "amount": 1500, "supervisor": SAM},
        status=201,
    )
    api.post(f"/tables/{table}/collections", {}, status=201)
    api.post(f"/tables/{table}/collections", {"supervisor": SAM}, status=201)
    floor.call("PATCH", f"/tables/{table}", {"max_buy_in": 3000}, status=200)
    floor.post(f"/tables/{table}/assignments", {"dealer": "Ada"}, status=422)  # an admin
    with people.app_context():
        lines = audit_trail(db.session(), table_id=table)
        said = {line.record.kind: line.record.words for line in lines}
    assert said["supervisor_approval"] == "Sam approved a buy-in of 1,500 at Table 1."
    assert said["override"].startswith("Sam let the time collection at Table 1 be taken ")
    assert said["table_settings"] == (
        "Sam changed the limits of Table 1: largest buy-in 2,000 -> 3,000."
    )
    assert said["assignment"] == "Sam assigned Dee to Table 1."
