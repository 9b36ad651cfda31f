"""Where the hand screen's acting seat goes after a drop, as a table's setting in the API: read
with the table, set with its other settings (PATCH /tables/{id}), by a supervisor or above."""

from __future__ import annotations

from typing import Any

from tests.helpers import Api


def test_a_table_answers_where_its_acting_seat_goes_stays_until_set(floor: Api, api: Api) -> None:
    table = floor.table()
    assert table["acting_seat"] == "stays"
    assert api.get(f"/tables/{table['id']}")["acting_seat"] == "stays"


def test_the_floor_sets_it_beside_the_limits_and_the_others_stay(floor: Api, api: Api) -> None:
    table = floor.table()["id"]
    changed = floor.call("PATCH", f"/tables/{table}", {"acting_seat": "moves_on"}, status=200)
    answer: dict[str, Any] = changed.get_json()
    assert answer["acting_seat"] == "moves_on"
    assert answer["limits"]["max_buy_in"] == 2000  # left out: stays
    both = floor.call(
        "PATCH", f"/tables/{table}", {"max_buy_in": 3000, "acting_seat": None}, status=200
    )
    assert both.get_json()["acting_seat"] == "moves_on"  # null: as left out
    assert api.get(f"/tables/{table}")["acting_seat"] == "moves_on"
    floor.call("PATCH", f"/tables/{table}", {"acting_seat": "stays"}, status=200)
    assert api.get(f"/tables/{table}")["acting_seat"] == "stays"


def test_a_dealer_may_not_set_it_and_a_way_there_is_not_is_422(floor: Api, api: Api) -> None:
    table = floor.table()["id"]
    refused = api.call("PATCH", f"/tables/{table}", {"acting_seat": "moves_on"}, status=403)
    assert refused.get_json()["error"]["code"] == "role_not_allowed"
    for bad in ("next", 1, True):
        answer = floor.call("PATCH", f"/tables/{table}", {"acting_seat": bad}, status=422)
        error = answer.get_json()["error"]
        assert "stays with the seat that acted or moves on" in error["message"], error
        assert "moves_on" not in error["message"]
    assert api.get(f"/tables/{table}")["acting_seat"] == "stays"


def test_the_served_document_describes_the_setting(api: Api) -> None:
    document = api.get("/openapi.json")
    schemas = document["components"]["schemas"]
    settings = schemas["TableSettings"]["properties"]["acting_seat"]
    ways = [part.get("enum") for part in settings.get("anyOf", [settings])]
    assert ["stays", "moves_on"] in ways
    assert "acting_seat" not in schemas["TableSettings"].get("required", [])
    assert schemas["TableView"]["properties"]["acting_seat"]["enum"] == ["stays", "moves_on"]
