"""Production serving: does gunicorn, as gunicorn.conf.py runs it, with two workers on one
PostgreSQL database, play one hand through both workers without a conflict?

Every entry of seed 000's hand (and a few more melds) is sent twice at once, on two new
connections under one Idempotency-Key, as a tablet that double-taps on a flaky network: the
two workers take them as they come. Each entry must be recorded once and both sends answered
alike; the access log says which worker (pid) answered each request.
"""

from __future__ import annotations

import http.cookiejar
import json
import re
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from bench.room.server import gunicorn
from bench.room.transport import HttpTransport, Request, sign_in
from dealer import create_app
from dealer.extensions import db
from tests.helpers import PEOPLE, add_people
from tests.postgres import PostgresServer
from tests.reports.test_routes import window

pytestmark = pytest.mark.postgres

BUY_IN = 100
#: Seed 000's hand, with more melds from the seats that stay: (seat, event body).
ENTRIES: list[dict[str, Any]] = [
    {"type": "drop", "seat": 5},
    {"type": "meld", "seat": 1, "cards": ["5S", "5S", "5S"]},
    {"type": "meld", "seat": 2, "cards": ["7D", "7H", "7C"]},
    {"type": "meld", "seat": 1, "cards": ["JH", "QH", "KH"]},
    {"type": "meld", "seat": 3, "cards": ["AH", "AH", "AD"]},
    {"type": "meld", "seat": 4, "cards": ["2D", "3D", "4D"]},
    {"type": "meld", "seat": 1, "cards": ["2C", "3C", "4C", "5C", "6C"]},
    {"type": "go_out", "seat": 1},
]


@pytest.fixture
def served(
    postgres_server: PostgresServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[str, Path]]:
    """gunicorn with two workers (two threads each) on a fresh, migrated PostgreSQL database."""
    name = postgres_server.new_database()
    uri = postgres_server.uri(name)
    checkpoints = tmp_path / "checkpoints.jsonl"
    app = create_app(
        {"TESTING": True, "SQLALCHEMY_DATABASE_URI": uri, "CHECKPOINT_FILE": str(checkpoints)}
    )
    add_people(app)
    with app.app_context():
        db.engine.dispose()
    log = tmp_path / "gunicorn.log"
    monkeypatch.setenv("DEALER_BUILDS_DIR", str(tmp_path / "builds"))
    access = ["--access-logformat", "%(p)s %(m)s %(U)s %(s)s"]
    try:
        key = app.config["LEDGER_KEY"]
        served = gunicorn(
            uri,
            log,
            workers=2,
            threads=2,
            options=access,
            ledger_key=key,
            checkpoint_file=checkpoints,
        )
        with served as url:
            yield url, log
    finally:
        postgres_server.drop(name)


def test_two_workers_play_one_hand_without_conflict(served: tuple[str, Path]) -> None:
    url, log = served
    http = HttpTransport(url, keep_alive=False)
    name, pin = PEOPLE["dealer"]
    dealer = sign_in(http, {"name": name, "pin": pin})
    name, pin = PEOPLE["supervisor"]
    floor = sign_in(http, {"name": name, "pin": pin})

    def ok(method: str, path: str, body: Any = None, token: str = dealer) -> Any:
        status, answer = http.send(Request(method, path, body, token))
        assert status in (200, 201), (path, status, answer)
        return answer

    table = ok("POST", "/tables", {"name": "Served", "profile": "classic"}, floor)["id"]
    # The dealer takes the table, as at the start of a down: a dealer acts only at their own.
    ok("POST", f"/tables/{table}/sessions", {})
    for seat in range(1, 7):
        ok("POST", f"/tables/{table}/seats", {"seat": seat, "player": f"P{seat}", "buy_in": BUY_IN})
    hand = ok("POST", f"/tables/{table}/hands", {})["id"]

    with ThreadPoolExecutor(2) as pool:
        for number, body in enumerate(ENTRIES):
            key = f"served-{hand}-{number}"
            send = Request("POST", f"/hands/{hand}/events", body, dealer, "event", key)
            sends = [pool.submit(http.send, send) for _ in range(2)]
            (first, one), (second, other) = (send.result(timeout=60) for send in sends)
            assert first == second == 201, (body, one, other)
            assert one == other

    played = ok("GET", f"/hands/{hand}")
    assert [e["seq"] for e in played["events"]] == list(range(1, len(ENTRIES) + 2))
    assert played["status"] == "settled" and played["winner"] == 1
    assert sum(played["net"].values()) == 0
    balances = ok("GET", f"/tables/{table}/balances")
    stacks = sum(seat["stack"] for seat in balances["seats"].values())
    assert stacks + balances["house"] + balances["pot"] == 6 * BUY_IN
    report = ok("GET", "/ledger/verify", token=floor)
    assert report["ok"] is True, report["problems"]

    answered = re.findall(rf"<(\d+)> POST /api/v1/hands/{hand}/events 201", log.read_text())
    assert len(answered) == 2 * len(ENTRIES)
    assert len(set(answered)) == 2, "one worker answered every event"


def test_a_document_built_by_one_worker_is_answered_by_both(served: tuple[str, Path]) -> None:
    """The floor's shift ledger asked of one worker: every poll, whichever worker takes it, says
    where the build is; the PDF is handed over once, by either."""
    url, log = served
    cookies = http.cookiejar.CookieJar()
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(cookies))

    def page(path: str, form: dict[str, str] | None = None) -> str:
        data = urllib.parse.urlencode(form).encode() if form is not None else None
        with browser.open(url + path, data=data, timeout=60) as answer:
            return str(answer.read().decode("utf-8"))

    def csrf(html: str) -> str:
        found = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', html)
        assert found, html[:300]
        return found.group(1)

    name, pin = PEOPLE["supervisor"]
    page("/sign-in", {"name": name, "pin": pin, "csrf_token": csrf(page("/sign-in"))})
    asked = json.loads(page(f"/print/builds/shift?{window()}", {"csrf_token": csrf(page("/"))}))
    seen: list[dict[str, Any]] = []
    for _ in range(40):  # a new connection each time: the workers take them as they come
        seen.append(json.loads(page(asked["status"])))
        if seen[-1]["state"] != "building" and len(seen) >= 12:
            break
        time.sleep(0.05)
    assert seen[-1]["state"] == "ready", seen[-1]
    with browser.open(url + seen[-1]["download"], timeout=60) as answer:
        assert answer.read().startswith(b"%PDF")
    with pytest.raises(urllib.error.HTTPError) as again:
        browser.open(url + seen[-1]["download"], timeout=60)
    again.value.close()
    assert again.value.code == 409  # handed over once
    polled = re.findall(r"<(\d+)> GET /print/builds/[^ .]+ 200", log.read_text())
    assert len(polled) == len(seen)
    assert len(set(polled)) == 2, "one worker answered every poll"
