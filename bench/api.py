"""Events per second through the JSON API against the bare stack it stands on, one writer at a time.

Each hand: four seats, the deal, three melds that collect and a going out, all posted through
the API in-process (Flask's test client, a bearer token and an Idempotency-Key on every POST,
as a tablet sends them) on a database built by the real migrations. Writes are serialised
(BEGIN IMMEDIATE / the advisory lock) and every event replays its hand.

The baseline, in the same process and run and on the same database with the same connection
set-up (transactions.install: WAL and synchronous=FULL on SQLite): a bare Flask app whose one
route reads a JSON body, INSERTs one row, commits and answers JSON. The two run in alternate
rounds, so a busy machine slows both alike; ``vs_baseline`` is events/s over baseline
requests/s (issue 14's target: at least 0.5 on both databases).

PostgreSQL is measured only when one answers at DEALER_TEST_POSTGRES.

    python -m bench.api [--rounds 3] [--hands 40] [--profile]

``--profile`` also writes pyinstrument's call tree of the event rounds to
``bench/out/api-profile-<database>.txt``.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from flask import Flask, jsonify, request
from flask.testing import FlaskClient

from bench.room.server import migrate, postgres_database
from dealer import create_app, transactions
from dealer.extensions import db
from dealer.people import add_user
from dealer.transactions import writing

OUT = Path(__file__).resolve().parent / "out"
MELDS = [["5S", "5S", "5S"], ["JH", "QH", "KH"], ["2C", "3C", "4C", "5C", "6C"]]


class EventPath:
    """The dealer app on ``uri``, signed in, with one table of four seats."""

    def __init__(self, uri: str) -> None:
        self.app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": uri})
        with self.app.app_context(), writing(db.session()) as session:
            add_user(session, "Bench", "supervisor", "1234")
        self.client = self.app.test_client()
        answer = self.client.post("/api/v1/session", json={"name": "Bench", "pin": "1234"})
        self.headers = {"Authorization": f"Bearer {answer.get_json()['token']}"}
        # Stacks of 100,000 keep the bench's seats from running dry: the table's limits allow it.
        limits = {"max_buy_in": 100_000, "approval_above": 100_000}
        self.table = self.post("/tables", {"name": "Bench", "profile": "classic", **limits})["id"]
        for seat in (1, 2, 3, 4):
            body = {"seat": seat, "player": f"P{seat}", "buy_in": 100_000}
            self.post(f"/tables/{self.table}/seats", body)

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        headers = {**self.headers, "Idempotency-Key": uuid.uuid4().hex}
        answer = self.client.post("/api/v1" + path, json=body, headers=headers)
        assert answer.status_code in (200, 201), answer.get_json()
        result: dict[str, Any] = answer.get_json()
        return result

    def hands(self, count: int) -> int:
        """Play ``count`` hands; return how many events were posted."""
        events = 0
        for _ in range(count):
            hand = self.post(f"/tables/{self.table}/hands", {})["id"]
            for cards in MELDS:
                self.post(f"/hands/{hand}/events", {"type": "meld", "seat": 1, "cards": cards})
            self.post(f"/hands/{hand}/events", {"type": "go_out", "seat": 1})
            events += 2 + len(MELDS)
        return events

    def verify(self) -> dict[str, Any]:
        report: dict[str, Any] = self.client.get(
            "/api/v1/ledger/verify", headers=self.headers
        ).get_json()
        assert report["ok"], report["problems"]
        return report

    def close(self) -> None:
        with self.app.app_context():
            for engine in db.engines.values():
                engine.dispose()


class Baseline:
    """The bare stack: one Flask route, one INSERT, one commit, on the same database."""

    def __init__(self, uri: str) -> None:
        self.engine = sa.create_engine(uri)
        transactions.install(self.engine)
        metadata = sa.MetaData()
        self.rows = sa.Table(
            "bench_baseline",
            metadata,
            sa.Column("id", sa.Integer, primary_key=True),
            sa.Column("body", sa.JSON),
        )
        metadata.create_all(self.engine)
        app = Flask(__name__)

        @app.post("/rows")
        def add_row() -> Any:
            with self.engine.connect() as connection:
                row_id = connection.execute(
                    self.rows.insert().values(body=request.get_json()).returning(self.rows.c.id)
                ).scalar_one()
                connection.commit()
            return jsonify(id=row_id), 201

        self.client: FlaskClient = app.test_client()

    def requests(self, count: int) -> int:
        for n in range(count):
            answer = self.client.post("/rows", json={"type": "meld", "seat": 1, "n": n})
            assert answer.status_code == 201
        return count

    def close(self) -> None:
        self.engine.dispose()


@contextmanager
def profiled(kind: str, enabled: bool) -> Iterator[None]:
    if not enabled:
        yield
        return
    from pyinstrument import Profiler

    profiler = Profiler(interval=0.0005)
    profiler.start()
    try:
        yield
    finally:
        profiler.stop()
        OUT.mkdir(parents=True, exist_ok=True)
        path = OUT / f"api-profile-{kind}.txt"
        path.write_text(profiler.output_text(unicode=False, color=False, show_all=False))
        print(f"profile of the event rounds: {path}")


def timed(run: Callable[[], int]) -> tuple[int, float, float]:
    """``run()``'s count, wall seconds and this process's CPU seconds (steadier on a busy
    machine: another process's work does not count, though a shared core's caches still do)."""
    started, cpu = time.perf_counter(), time.process_time()
    count = run()
    return count, time.perf_counter() - started, time.process_time() - cpu


def measure(uri: str, kind: str, rounds: int, hands: int, profile: bool) -> float:
    """Alternate event rounds and baseline rounds on ``uri``; print and return vs_baseline."""
    migrate(uri)
    events, baseline = EventPath(uri), Baseline(uri)
    try:
        events.hands(2)  # warm up both: imports, first connections, compiled statements
        baseline.requests(10)
        totals = {"events": [0, 0.0, 0.0], "baseline": [0, 0.0, 0.0]}
        for _ in range(rounds):
            with profiled(kind, profile):
                count, seconds, cpu = timed(lambda: events.hands(hands))
            totals["events"][0] += count
            totals["events"][1] += seconds
            totals["events"][2] += cpu
            sent, seconds, cpu = timed(lambda n=count: baseline.requests(n))
            totals["baseline"][0] += sent
            totals["baseline"][1] += seconds
            totals["baseline"][2] += cpu
        report = events.verify()
    finally:
        events.close()
        baseline.close()
    event_rate = totals["events"][0] / totals["events"][1]
    base_rate = totals["baseline"][0] / totals["baseline"][1]
    ratio = event_rate / base_rate
    event_cpu = 1000 * totals["events"][2] / totals["events"][0]
    base_cpu = 1000 * totals["baseline"][2] / totals["baseline"][0]
    print(
        f"name=api_events database={kind} rounds={rounds} hands={rounds * hands} "
        f"events={totals['events'][0]} entries={report['entries']} "
        f"events_per_s={event_rate:.0f} event_ms={1000 / event_rate:.2f} "
        f"baseline_per_s={base_rate:.0f} baseline_ms={1000 / base_rate:.2f} "
        f"event_cpu_ms={event_cpu:.2f} baseline_cpu_ms={base_cpu:.2f} "
        f"cpu_vs_baseline={base_cpu / event_cpu:.2f} vs_baseline={ratio:.2f}"
    )
    return ratio


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--hands", type=int, default=int(os.environ.get("BENCH_HANDS", "40")))
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    ratios = {}
    with tempfile.TemporaryDirectory() as folder:
        uri = f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        ratios["sqlite"] = measure(uri, "sqlite", args.rounds, args.hands, args.profile)
    with postgres_database() as uri:
        if uri is not None:
            ratios["postgresql"] = measure(uri, "postgresql", args.rounds, args.hands, args.profile)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(
        "name=api_vs_baseline "
        + " ".join(f"{kind}={ratio:.2f}" for kind, ratio in ratios.items())
        + f" target=0.5 met={'yes' if min(ratios.values()) >= 0.5 else 'no'}"
    )


if __name__ == "__main__":
    main()
