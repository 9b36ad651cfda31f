"""Fixtures for the web screens: people, a signed-in browser-like client, tables set up quickly.

Set-up goes through the JSON API (`tests.helpers.Api`), which is already tested;
what a test asks about goes through the screens.
"""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from tests.helpers import PEOPLE, Api


class Web:
    """A test client signed in through the sign-in screen, as a tablet would be."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client

    @classmethod
    def sign_in(cls, app: Flask, role: str) -> Web:
        name, pin = PEOPLE[role]
        client = app.test_client()
        answer = client.post("/sign-in", data={"name": name, "pin": pin})
        assert answer.status_code == 303, answer.get_data(as_text=True)
        return cls(client)

    def get(self, path: str, status: int = 200) -> str:
        response = self.client.get(path)
        assert response.status_code == status, (response.status_code, text_of(response))
        return response.get_data(as_text=True)

    def post(self, path: str, data: dict[str, Any], status: int | None = 303) -> TestResponse:
        response = self.client.post(path, data=data)
        if status is not None:
            assert response.status_code == status, (response.status_code, text_of(response))
        return response

    def follow(self, response: TestResponse) -> str:
        """The page a 303 leads to."""
        return self.get(response.headers["Location"])


def text_of(response: TestResponse) -> str:
    """A page's visible words, whitespace squeezed: what a test reads like a dealer."""
    return words(response.get_data(as_text=True))


def words(html: str) -> str:
    """The visible words of a page; the typographic minus sign of figures read as ``-``."""
    html = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", html, flags=re.S)
    text = unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip())
    return text.replace("\u2212", "-")


def settlement_of(html: str) -> dict[int, list[str]]:
    """The settlement as drawn: each seat's figures (going out, conditions again, pot, rake, at
    going out, hand net, stack), the typographic minus read as ``-``."""
    seats = re.findall(r'<li class="settle-seat[^"]*" data-seat="(\d+)">(.*?)</li>', html, re.S)
    return {
        int(seat): [words(f) for f in re.findall(r"<dd data-money[^>]*>(.*?)</dd>", card, re.S)]
        for seat, card in seats
    }


@pytest.fixture
def dealer(people: Flask) -> Web:
    return Web.sign_in(people, "dealer")


@pytest.fixture
def supervisor(people: Flask) -> Web:
    return Web.sign_in(people, "supervisor")


@pytest.fixture
def admin(people: Flask) -> Web:
    return Web.sign_in(people, "admin")


@pytest.fixture
def floor_api(people: Flask) -> Api:
    return Api.sign_in(people, "supervisor")


@pytest.fixture
def dealer_api(people: Flask) -> Api:
    return Api.sign_in(people, "dealer")


def six_seated(floor_api: Api, profile: str = "classic", **fields: Any) -> int:
    """A table with players P1..P6 in seats 1-6, 100 chips each."""
    table = floor_api.table(profile, **fields)
    for seat in range(1, 7):
        floor_api.seat(table["id"], seat, f"P{seat}", 100)
    return int(table["id"])


@pytest.fixture
def table_id(floor_api: Api) -> int:
    return six_seated(floor_api)


@pytest.fixture
def hand_id(floor_api: Api, table_id: int) -> int:
    """Seed 000's hand just dealt at `table_id`: seat 5 has dropped."""
    return int(floor_api.hand(table_id, dropped=[5])["id"])
