"""Names compared by what a person sees, on the screens: a user, a table or a tablet whose
name reads as an existing one is refused in words naming it, the form keeping what was typed."""

from __future__ import annotations

from flask import Flask

from tests.screens.conftest import Web, words
from tests.screens.test_floor import OPEN, tables


def test_a_look_alike_users_name_is_refused_and_kept_in_the_form(admin: Web) -> None:
    for name in ("S\u0430m", "\u0405am", "Sarn"):
        form = {"name": name, "role": "dealer", "pin": "4321", "pin_again": "4321"}
        page = admin.post("/floor/people", form, status=409).get_data(as_text=True)
        assert f"“{name}” looks like the existing user Sam: choose another name." in words(page)
        assert f'value="{name}"' in page
    admin.post(
        "/floor/people", {"name": "Mae Lee", "role": "dealer", "pin": "4321", "pin_again": "4321"}
    )
    twice = {"name": "Mae  Lee", "role": "dealer", "pin": "4321", "pin_again": "4321"}
    page = admin.post("/floor/people", twice, status=409).get_data(as_text=True)
    assert "looks like the existing user Mae Lee" in words(page)


def test_a_second_table_1_is_refused_and_the_form_kept(people: Flask, supervisor: Web) -> None:
    supervisor.post("/floor/tables", {**OPEN, "name": "Table 1", "key": "open-1"})
    again = supervisor.post(
        "/floor/tables", {**OPEN, "name": "Table 1", "key": "open-2"}, status=409
    )
    assert "There is already a table called Table 1." in words(again.get_data(as_text=True))
    alike = {**OPEN, "name": "T\u0430ble  1", "key": "open-3"}
    page = supervisor.post("/floor/tables", alike, status=409).get_data(as_text=True)
    said = "“T\u0430ble 1” looks like the existing table Table 1: choose another name."
    assert said in words(page)  # the words as read: the run of spaces shows as one
    assert 'value="T\u0430ble  1"' in page and 'value="25"' in page
    assert [t.name for t in tables(people)] == ["Table 1"]


def test_a_look_alike_tablet_name_is_refused_and_kept_in_the_form(people: Flask) -> None:
    cage = Web.sign_in(people, "supervisor")
    cage.post("/floor/devices", {"name": "Cage tablet"})
    other = Web.sign_in(people, "supervisor")
    full_width = "\uff23\uff41\uff47\uff45 tablet"
    page = other.post("/floor/devices", {"name": full_width}, status=409).get_data(as_text=True)
    assert f"“{full_width}” looks like the tablet in use Cage tablet" in words(page)
    assert f'value="{full_width}"' in page
    assert "This tablet is not registered" in words(page)
    other.post("/floor/devices", {"name": "Table 4 tablet"})
    renamed = other.post("/floor/devices/2/rename", {"name": "C\u0430ge tablet"}, status=409)
    page = renamed.get_data(as_text=True)
    assert "looks like the tablet in use Cage tablet" in words(page)
    assert 'id="name-2" name="name" maxlength="40" value="C\u0430ge tablet"' in page
    assert 'id="name-1" name="name" maxlength="40" value="Cage tablet"' in page
