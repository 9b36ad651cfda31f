"""Two tablets at once: events never double-apply or interleave, keys record once.

Runs on a file-backed SQLite database (WAL, BEGIN IMMEDIATE) and on PostgreSQL
(the writers' advisory lock), with real threads each using its own client.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from flask import Flask

from tests.helpers import Api

ROUNDS = 6


def at_once(*calls: Callable[[], Any]) -> list[Any]:
    """Run ``calls`` in threads released together; return their results in order."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)
    errors: list[BaseException] = []

    def run(i: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait(timeout=10)
            results[i] = call()
        except BaseException as exc:  # reported by the main thread
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors
    return results


def two_tablets(app: Flask) -> tuple[Api, Api]:
    return Api.sign_in(app, "dealer"), Api.sign_in(app, "supervisor")


def test_two_tablets_post_to_one_hand_at_once(api: Api, floor: Api) -> None:
    one, two = two_tablets(api.client.application)
    table = floor.table()
    for seat in range(1, 5):
        api.seat(table["id"], seat, f"P{seat}")
    hand = api.hand(table["id"])["id"]
    path = f"/hands/{hand}/events"
    ranks = "A23A23"
    for i in range(ROUNDS):
        # Rounds 0-2: seats 1 and 2 meld at once; rounds 3-5: seats 3 and 4.
        seat = 1 if i < 3 else 3
        mine = {"type": "meld", "seat": seat, "cards": [ranks[i] + "C"] * 3}
        theirs = {"type": "meld", "seat": seat + 1, "cards": [ranks[i] + "D"] * 3}
        first, second = at_once(
            lambda mine=mine: one.call("POST", path, mine),
            lambda theirs=theirs: two.call("POST", path, theirs),
        )
        assert first.status_code == second.status_code == 201, first.get_json()
        seqs = {first.get_json()["event"]["seq"], second.get_json()["event"]["seq"]}
        assert seqs == {2 + 2 * i, 3 + 2 * i}
        assert len(first.get_json()["payments"]) == len(second.get_json()["payments"]) == 3
    final = api.get(path.removesuffix("/events"))
    assert [e["seq"] for e in final["events"]] == list(range(1, 2 + 2 * ROUNDS))
    assert sum(final["net"].values()) == 0
    entries = api.get(f"/tables/{table['id']}/ledger")["entries"]
    assert [e["seq"] for e in entries] == list(range(1, len(entries) + 1))
    # Each event's entries sit together: no event's entries interleave with another's.
    order = [e["event"] for e in entries if e["event"] is not None]
    runs = [ev for i, ev in enumerate(order) if i == 0 or order[i - 1] != ev]
    assert len(runs) == len(set(runs)) == 2 * ROUNDS
    assert floor.get("/ledger/verify")["ok"] is True


def test_the_same_key_from_two_threads_records_once(api: Api, floor: Api) -> None:
    table = floor.table()
    api.seat(table["id"], 1, "Ana")
    api.seat(table["id"], 2, "Ben")
    hand = api.hand(table["id"])["id"]
    other = Api(api.client.application.test_client(), api.token)  # same user, second tablet
    for i in range(ROUNDS // 2):
        key = f"tap-{i}"
        body = {"type": "meld", "seat": 1 + i % 2, "cards": [["KS"] * 3, ["QH"] * 3, ["JD"] * 3][i]}
        first, second = at_once(
            lambda body=body, key=key: api.call("POST", f"/hands/{hand}/events", body, key=key),
            lambda body=body, key=key: other.call("POST", f"/hands/{hand}/events", body, key=key),
        )
        assert first.status_code == second.status_code == 201
        assert first.get_data() == second.get_data()
    assert len(api.get(f"/hands/{hand}")["events"]) == 1 + ROUNDS // 2
    assert floor.get("/ledger/verify")["ok"] is True


def test_two_tablets_start_a_hand_at_once(api: Api, floor: Api) -> None:
    one, two = two_tablets(api.client.application)
    table = floor.table()
    for seat in (1, 2, 3):
        api.seat(table["id"], seat, f"P{seat}")
    answers = at_once(
        lambda: one.call("POST", f"/tables/{table['id']}/hands", {}),
        lambda: two.call("POST", f"/tables/{table['id']}/hands", {}),
    )
    assert sorted(a.status_code for a in answers) == [201, 409]


def test_two_players_take_one_seat_at_once(api: Api, floor: Api) -> None:
    one, two = two_tablets(api.client.application)
    table = floor.table()
    answers = at_once(
        lambda: one.call(
            "POST", f"/tables/{table['id']}/seats", {"seat": 4, "player": "Ana", "buy_in": 10}
        ),
        lambda: two.call(
            "POST", f"/tables/{table['id']}/seats", {"seat": 4, "player": "Ben", "buy_in": 10}
        ),
    )
    assert sorted(a.status_code for a in answers) == [201, 409]
    assert len(api.get(f"/tables/{table['id']}/ledger")["entries"]) == 1
