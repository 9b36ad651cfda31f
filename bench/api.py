"""Events per second through the JSON API, one writer at a time, on SQLite and PostgreSQL.

Each hand: four seats, the deal, three melds that collect and a going out, all
posted through the API in-process (Flask's test client) on a database built by
the real migrations. Writes are serialised (BEGIN IMMEDIATE / the advisory lock)
and every event replays its hand, so this is the app's own ceiling per table.
PostgreSQL is measured only when one answers at DEALER_TEST_POSTGRES.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import psycopg
from sqlalchemy.engine import make_url

from dealer import create_app
from dealer.extensions import db
from dealer.people import add_user
from dealer.transactions import writing

REPO = Path(__file__).resolve().parent.parent
HANDS = int(os.environ.get("BENCH_HANDS", "40"))
MELDS = [["5S", "5S", "5S"], ["JH", "QH", "KH"], ["2C", "3C", "4C", "5C", "6C"]]


def migrate(uri: str) -> None:
    env = {**os.environ, "DATABASE_URL": uri, "SECRET_KEY": "bench"}
    subprocess.run(
        [sys.executable, "-m", "flask", "--app", "dealer", "db", "upgrade"],
        cwd=REPO,
        env=env,
        check=True,
        capture_output=True,
    )


def measure(uri: str, kind: str) -> None:
    migrate(uri)
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": uri})
    with app.app_context(), writing(db.session()) as session:
        add_user(session, "Bench", "supervisor", "1234")
    client = app.test_client()
    token = client.post("/api/v1/session", json={"name": "Bench", "pin": "1234"}).get_json()
    headers = {"Authorization": f"Bearer {token['token']}"}

    def post(path: str, body: dict[str, object]) -> dict[str, object]:
        answer = client.post("/api/v1" + path, json=body, headers=headers)
        assert answer.status_code in (200, 201), answer.get_json()
        result: dict[str, object] = answer.get_json()
        return result

    table = post("/tables", {"name": "Bench", "profile": "classic"})["id"]
    for seat in (1, 2, 3, 4):
        post(f"/tables/{table}/seats", {"seat": seat, "player": f"P{seat}", "buy_in": 100_000})
    events = 0
    started = time.perf_counter()
    for _ in range(HANDS):
        hand = post(f"/tables/{table}/hands", {})["id"]
        for cards in MELDS:
            post(f"/hands/{hand}/events", {"type": "meld", "seat": 1, "cards": cards})
        post(f"/hands/{hand}/events", {"type": "go_out", "seat": 1})
        events += 1 + len(MELDS) + 1
    seconds = time.perf_counter() - started
    report = client.get("/api/v1/ledger/verify", headers=headers).get_json()
    assert report["ok"], report["problems"]
    with app.app_context():
        for engine in db.engines.values():
            engine.dispose()
    print(
        f"name=api_events database={kind} hands={HANDS} events={events} "
        f"entries={report['entries']} seconds={seconds:.2f} "
        f"events_per_second={events / seconds:.0f}"
    )


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        measure(f"sqlite:///{Path(folder) / 'bench.sqlite3'}", "sqlite")
    url = make_url(
        os.environ.get(
            "DEALER_TEST_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
        )
    )
    try:
        admin = psycopg.connect(
            host=url.host,
            port=url.port or 5432,
            user=url.username,
            dbname=url.database or "postgres",
            autocommit=True,
            connect_timeout=3,
        )
    except psycopg.OperationalError as exc:
        print(f"name=api_events database=postgresql skipped=unreachable ({exc})")
        return
    name = f"dealer_bench_{uuid.uuid4().hex[:8]}"
    admin.execute(f'CREATE DATABASE "{name}"')  # type: ignore[arg-type]
    try:
        measure(url.set(database=name).render_as_string(hide_password=False), "postgresql")
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')  # type: ignore[arg-type]
        admin.close()


if __name__ == "__main__":
    main()
