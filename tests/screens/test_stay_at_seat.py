"""A form drawn at a seat is made for the player sitting there then: sent after they left, it is
refused in words, the entry kept, and nothing lands on the player who sits there now."""

from __future__ import annotations

import re

import pytest

from tests.conftest import Database
from tests.helpers import Api
from tests.screens.conftest import Web, text_of, words


@pytest.fixture
def database_uri(database: Database) -> str:
    """On SQLite and PostgreSQL alike."""
    return database.uri


def _stay_in(form: str) -> str:
    found = re.search(r'name="seating" type="hidden" value="(\d+)"', form)
    assert found, form
    return found.group(1)


def _form(page: str, action: str) -> str:
    found = re.search(rf'<form[^>]*action="{re.escape(action)}"[^>]*>(.*?)</form>', page, re.S)
    assert found, action
    return found.group(1)


def test_a_cash_out_drawn_for_cy_is_refused_once_zed_sits_in_his_seat(
    dealer: Web, floor_api: Api
) -> None:
    table = floor_api.table()["id"]
    cy = floor_api.seat(table, 3, "Cy", 200)["seating"]
    page = dealer.get(f"/tables/{table}/seats/3")
    chips = f"/tables/{table}/seats/3/chips"
    assert _stay_in(_form(page, chips)) == str(cy)
    assert _stay_in(_form(page, f"/tables/{table}/seats/3/leave")) == str(cy)
    # Meanwhile, on another device: Cy leaves and Zed sits in seat 3.
    floor_api.delete(f"/tables/{table}/seats/3", status=200)
    floor_api.seat(table, 3, "Zed", 300)
    typed = {"kind": "cash_out", "amount": "150", "key": "web-cy-out", "seating": str(cy)}
    refused = dealer.post(chips, typed, status=409)
    assert (
        "This entry was made for Cy in seat 3, who has left; Zed sits there now: nothing was "
        "recorded on Zed." in text_of(refused)
    )
    again = refused.get_data(as_text=True)
    assert 'value="150"' in _form(again, chips)  # the entry kept as typed
    assert _stay_in(_form(again, chips)) == str(cy)  # and still Cy's
    leave = {"key": "web-cy-leaves", "seating": str(cy)}
    dealer.post(f"/tables/{table}/seats/3/leave", leave, status=409)
    seat = floor_api.get(f"/tables/{table}")["seats"]["3"]
    assert (seat["player"], seat["stack"]) == ("Zed", 300)
    assert [e["rule"] for e in floor_api.get(f"/tables/{table}/ledger")["entries"]] == [
        "buy_in",
        "cash_out",
        "buy_in",
    ]


def test_the_hand_screens_buy_in_is_for_the_stay_the_hand_dealt_in(
    dealer: Web, floor_api: Api, table_id: int, hand_id: int
) -> None:
    seats = floor_api.get(f"/tables/{table_id}")["seats"]
    page = dealer.get(f"/hands/{hand_id}?seat=4")
    form = re.search(r'<section class="panel buy-in-here"[^>]*>(.*?)</section>', page, re.S)
    assert form and _stay_in(form.group(1)) == str(seats["4"]["seating"])
    # Each seat's stay on the board: the page's script makes the buy-in for the seat tapped.
    for seat in ("1", "6"):
        assert f'data-seat-panel="{seat}"' in page
        panel = re.search(rf'data-seat-panel="{seat}"[^>]*data-seating="(\d+)"', page)
        assert panel and panel.group(1) == str(seats[seat]["seating"])
    assert "seating" not in words(page)
