"""Small factories for the API and ledger tests: people, a signed-in client, tables, hands."""

from __future__ import annotations

import itertools
import json
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from dealer.extensions import db
from dealer.people.users import add_user
from dealer.transactions import writing

PEOPLE = {
    "dealer": ("Dee", "1111"),
    "supervisor": ("Sam", "2222"),
    "admin": ("Ada", "3333"),
}


def add_people(app: Flask) -> None:
    """One user of each role (see PEOPLE)."""
    with app.app_context(), writing(db.session()) as session:
        for role, (name, pin) in PEOPLE.items():
            add_user(session, name, role, pin)


class Api:
    """A test client signed in with a bearer token, speaking JSON."""

    def __init__(self, client: FlaskClient, token: str | None = None) -> None:
        self.client = client
        self.token = token

    @classmethod
    def sign_in(cls, app: Flask, role: str) -> Api:
        return cls.sign_in_as(app, *PEOPLE[role])

    @classmethod
    def sign_in_as(cls, app: Flask, name: str, pin: str) -> Api:
        client = app.test_client()
        answer = client.post("/api/v1/session", json={"name": name, "pin": pin})
        assert answer.status_code == 200, answer.get_json()
        return cls(client, answer.get_json()["token"])

    def headers(self, extra: dict[str, str] | None) -> dict[str, str]:
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        return {**headers, **(extra or {})}

    def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        status: int | None = None,
        key: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> TestResponse:
        extra = dict(headers or {})
        if key is not None:
            extra["Idempotency-Key"] = key
        kwargs: dict[str, Any] = {"headers": self.headers(extra)}
        if body is not None:
            kwargs["data"] = json.dumps(body)
            kwargs["content_type"] = "application/json"
        response = self.client.open("/api/v1" + path, method=method, **kwargs)
        if status is not None:
            assert response.status_code == status, (response.status_code, response.get_json())
        return response

    def get(self, path: str, **kw: Any) -> Any:
        return self.call("GET", path, status=kw.pop("status", 200), **kw).get_json()

    def post(self, path: str, body: Any = None, **kw: Any) -> Any:
        return self.call("POST", path, body if body is not None else {}, **kw).get_json()

    def delete(self, path: str, **kw: Any) -> Any:
        return self.call("DELETE", path, **kw).get_json()

    # ------------------------------------------------------------ factories

    def table(
        self, profile: str = "classic", *, dealer: str | None = "Dee", **fields: Any
    ) -> dict[str, Any]:
        """A table opened by this (supervisor's) client, with ``dealer`` assigned to it: the
        tests' one dealer deals every table unless told otherwise (``dealer=None``). Unnamed,
        it is the next "Table N" (the first "Table 1"): no two tables read alike."""
        if "name" not in fields:
            taken = {t["name"] for t in self.get("/tables")["tables"]}
            fields["name"] = next(
                f"Table {n}" for n in itertools.count(1) if f"Table {n}" not in taken
            )
        body = {"name": fields.pop("name"), "profile": profile, **fields}
        table: dict[str, Any] = self.post("/tables", body, status=201)
        if dealer is not None:
            self.post(f"/tables/{table['id']}/assignments", {"dealer": dealer}, status=201)
        return table

    def seat(self, table: int, seat: int, player: str, buy_in: int = 100) -> dict[str, Any]:
        body = {"seat": seat, "player": player, "buy_in": buy_in}
        answer: dict[str, Any] = self.post(f"/tables/{table}/seats", body, status=201)
        return answer

    def hand(self, table: int, dropped: list[int] | None = None) -> dict[str, Any]:
        body = {"dropped": dropped} if dropped is not None else {}
        hand: dict[str, Any] = self.post(f"/tables/{table}/hands", body, status=201)
        return hand

    def event(self, hand: int, body: dict[str, Any], status: int = 201, **kw: Any) -> Any:
        return self.post(f"/hands/{hand}/events", body, status=status, **kw)

    def stacks(self, table: int) -> dict[int, int]:
        seats = self.get(f"/tables/{table}/balances")["seats"]
        return {int(seat): value["stack"] for seat, value in seats.items()}


SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def shown(cards: str) -> str:
    """Cards as a person reads them: ``5S 5S 5S`` is ``5♠ 5♠ 5♠``."""
    return " ".join(c[:-1].upper() + SUIT_SYMBOLS[c[-1].upper()] for c in cards.split())
