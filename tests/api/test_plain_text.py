"""Issue 10, finding 9: names with control characters are refused by the API exactly as by
the forms, and a JSON 405 says what is Allowed."""

from __future__ import annotations

import pytest
from flask import Flask

from dealer.bounds import PLAIN_TEXT_WORDS, is_plain
from tests.helpers import Api

UNPRINTABLE = ["Ann\x07", "\x1b[31mAnn", "Ann\u202e", "\u2066Ann", "A\x85nn", "Ann\u2028"]


@pytest.mark.parametrize("name", UNPRINTABLE)
def test_the_api_refuses_control_characters_in_names(floor: Api, admin: Api, name: str) -> None:
    table = floor.post("/tables", {"name": name, "profile": "classic"}, status=422)
    assert PLAIN_TEXT_WORDS in table["error"]["message"]
    real = floor.table()
    seat = {"seat": 1, "player": name, "buy_in": 100}
    assert floor.post(f"/tables/{real['id']}/seats", seat, status=422)["error"]["message"]
    user = {"name": name, "role": "dealer", "pin": "1234"}
    assert admin.post("/users", user, status=422)["error"]["code"] == "invalid_name"


@pytest.mark.parametrize("name", UNPRINTABLE)
def test_the_forms_refuse_the_same_names(people: Flask, name: str) -> None:
    from tests.screens.conftest import Web, words

    floor = Web.sign_in(people, "supervisor")
    answer = floor.client.post("/floor/tables", data={"name": name, "profile": "classic"})
    assert answer.status_code == 422
    assert PLAIN_TEXT_WORDS in words(answer.get_data(as_text=True))


@pytest.mark.parametrize("name", ["Δημήτρης", "Łukasz", "Zoë O'Neil-Ávila", "Ann"])
def test_names_people_have_are_taken(floor: Api, name: str) -> None:
    assert is_plain(name)
    assert floor.table(name=name)["name"] == name


def test_a_json_405_says_what_is_allowed(people: Flask) -> None:
    answer = people.test_client().put("/api/v1/session", json={})
    assert answer.status_code == 405
    assert answer.get_json()["error"]["code"] == "method_not_allowed"
    assert set(answer.headers["Allow"].replace(" ", "").split(",")) >= {"POST", "DELETE"}
