"""The health check beside the floor's writes: no write answered 500, and no growth (issue 41).

The app is served as a floor runs it: gunicorn with gunicorn.conf.py, on SQLite and on
PostgreSQL (when one answers at DEALER_TEST_POSTGRES). Three phases on each:

1. ``--writers`` tablets send buy-ins one after another for ``--seconds`` (a bearer token, a
   fresh Idempotency-Key each), while a load balancer asks ``GET /healthz`` once a second.
2. The same writers for ``--flood-seconds`` while ``--checkers`` threads ask ``/healthz`` as
   fast as they are answered (the flood that failed 27 of 100 buy-ins with a 500 before).
3. ``--checks`` health checks and nothing else (from ``--checkers`` threads, unsigned, as
   anyone may send them), the database's size taken before and after: SQLite's pages (its
   log's included), PostgreSQL's whole database (``pg_database_size``, after a VACUUM of
   what the writes left, so that no autovacuum of their tables lands in the figure) and its
   ``health_checks`` table.

Every answer is counted by its status: a 500 anywhere is a failure, as is a database that grew
by more than a page or two.

    python -m bench.health [--seconds 60] [--flood-seconds 10] [--checks 20000]
                           [--writers 3] [--checkers 4]

Ends with ``answers_500=.. writes=.. checks=.. sqlite_grew_bytes=.. postgresql_grew_bytes=..
ok=yes|no``.
"""

from __future__ import annotations

import argparse
import http.client
import json
import secrets
import sqlite3
import tempfile
import threading
import uuid
from collections import Counter
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from flask import Flask
from sqlalchemy.engine import make_url

from bench.room.server import connect, gunicorn, migrate, postgres_database
from bench.room.transport import open_table as open_floor_table

OUT = Path(__file__).resolve().parent / "out"
FLOOR = {"name": "Hal Health", "pin": "4826"}
#: What a database may grow by over the checks and still be flat: a page or two (PostgreSQL's
#: free space and visibility maps of a table written just before are made as it likes).
FLAT_BYTES = 64 * 1024


@dataclass
class Phase:
    """What one phase's writes and checks were answered."""

    writes: Counter[int] = field(default_factory=Counter)
    checks: Counter[int] = field(default_factory=Counter)

    @property
    def server_errors(self) -> int:
        return self.writes[500] + self.checks[500]


@dataclass
class Result:
    """One database's phases and its size around the checks."""

    phases: dict[str, Phase]
    size_before: int
    size_after: int
    #: PostgreSQL's ``health_checks`` table and index, before and after (None on SQLite).
    table_before: int | None = None
    table_after: int | None = None

    @property
    def grew(self) -> int:
        return self.size_after - self.size_before

    @property
    def server_errors(self) -> int:
        return sum(phase.server_errors for phase in self.phases.values())


def add_floor(app: Flask) -> None:
    """The supervisor who buys in, added through ``app`` (its PIN hash, its ledger key)."""
    from dealer.extensions import db
    from dealer.people.users import add_user
    from dealer.transactions import writing

    with app.app_context():
        with writing(db.session()) as session:
            add_user(session, FLOOR["name"], "supervisor", FLOOR["pin"])
        db.session.remove()
        for engine in db.engines.values():
            engine.dispose()


def prepare(uri: str) -> None:
    """A fresh database at ``uri``, migrated, with the floor added (the production PIN hash)."""
    from dealer import create_app

    migrate(uri)
    add_floor(create_app({"SQLALCHEMY_DATABASE_URI": uri, "SECRET_KEY": secrets.token_hex(32)}))


def database_bytes(uri: str) -> tuple[int, int | None]:
    """The database's size: SQLite's pages as a new connection sees them (the log's pages
    not yet copied back included), PostgreSQL's whole database; and PostgreSQL's
    ``health_checks`` table with its index (None on SQLite)."""
    url = make_url(uri)
    if url.get_backend_name() == "sqlite":
        with sqlite3.connect(str(url.database)) as sqlite:
            (pages,) = sqlite.execute("PRAGMA page_count").fetchone()
            (size,) = sqlite.execute("PRAGMA page_size").fetchone()
        return int(pages) * int(size), None
    with connect(uri) as postgres:
        row = postgres.execute(
            "SELECT pg_database_size(current_database()), pg_total_relation_size('health_checks')"
        ).fetchone()
        assert row is not None
        return int(row[0]), int(row[1])


def settle(uri: str) -> None:
    """Before the checks are sized: PostgreSQL's VACUUM of what the writes left (their tables'
    free space and visibility maps made now, not by an autovacuum during the checks)."""
    if make_url(uri).get_backend_name() == "postgresql":
        with connect(uri) as postgres:
            postgres.execute("VACUUM")


class Client:
    """One keep-alive connection to the server, counting each answer's status."""

    def __init__(self, url: str, answers: Counter[int]) -> None:
        parts = urlsplit(url)
        self.host, self.port = parts.hostname or "", parts.port
        self.answers = answers
        self.connection = http.client.HTTPConnection(self.host, self.port, timeout=120)

    def ask(self, method: str, path: str, body: object = None, token: str | None = None) -> int:
        headers = {"Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body)
            headers |= {"Content-Type": "application/json", "Idempotency-Key": uuid.uuid4().hex}
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        try:
            self.connection.request(method, path, body=data, headers=headers)
            response = self.connection.getresponse()
            response.read()
        except (OSError, http.client.HTTPException):
            self.connection.close()
            self.connection = http.client.HTTPConnection(self.host, self.port, timeout=120)
            self.answers[0] += 1  # no answer: counted apart, never as a status
            return 0
        self.answers[response.status] += 1
        return response.status

    def close(self) -> None:
        self.connection.close()


def write(url: str, token: str, table: int, seat: int, stop: threading.Event, phase: Phase) -> None:
    """Buy-ins at ``seat`` one after another until ``stop``."""
    client = Client(url, phase.writes)
    path = f"/api/v1/tables/{table}/seats/{seat}/chips"
    while not stop.is_set():
        client.ask("POST", path, {"kind": "buy_in", "amount": 10}, token)
    client.close()


def check(
    url: str, stop: threading.Event, phase: Phase, every: float, left: threading.Semaphore | None
) -> None:
    """``GET /healthz`` every ``every`` seconds (0: back to back) until ``stop``, or until no
    check is ``left`` (shared by every checker of the phase: each check takes one)."""
    client = Client(url, phase.checks)
    while not stop.is_set() and (left is None or left.acquire(blocking=False)):
        client.ask("GET", "/healthz")
        if every:
            stop.wait(every)
    client.close()


def run_phase(threads: list[threading.Thread], stop: threading.Event, seconds: float) -> None:
    for thread in threads:
        thread.start()
    stop.wait(seconds)
    stop.set()
    for thread in threads:
        thread.join(timeout=180)


def open_table(url: str, writers: int) -> tuple[str, int]:
    """Signed in as the floor, a table with a seat for each writer."""
    return open_floor_table(url, FLOOR, "Health", writers)


def measure(
    uri: str,
    label: str,
    *,
    seconds: float,
    flood_seconds: float,
    checks: int,
    writers: int,
    checkers: int,
    **served: Any,
) -> Result:
    """The three phases against gunicorn serving the database at ``uri`` (`prepare`d).
    ``served``: more of `gunicorn`'s arguments (the ledger key and checkpoint file of whoever
    prepared it in-process)."""
    OUT.mkdir(exist_ok=True)
    phases = {"writes": Phase(), "flood": Phase(), "checks": Phase()}
    with gunicorn(uri, OUT / f"health-{label}.log", **served) as url:
        token, table = open_table(url, writers)

        def writing(phase: Phase, stop: threading.Event) -> list[threading.Thread]:
            return [
                threading.Thread(target=write, args=(url, token, table, seat, stop, phase))
                for seat in range(1, writers + 1)
            ]

        stop = threading.Event()
        balancer = threading.Thread(target=check, args=(url, stop, phases["writes"], 1.0, None))
        run_phase([*writing(phases["writes"], stop), balancer], stop, seconds)
        stop = threading.Event()
        flood = [
            threading.Thread(target=check, args=(url, stop, phases["flood"], 0.0, None))
            for _ in range(checkers)
        ]
        run_phase([*writing(phases["flood"], stop), *flood], stop, flood_seconds)
        settle(uri)
        before = database_bytes(uri)
        stop = threading.Event()
        left = threading.Semaphore(checks)
        only = [
            threading.Thread(target=check, args=(url, stop, phases["checks"], 0.0, left))
            for _ in range(checkers)
        ]
        for thread in only:
            thread.start()
        for thread in only:
            thread.join()
        after = database_bytes(uri)
    return Result(phases, before[0], after[0], before[1], after[1])


def report(label: str, result: Result) -> None:
    print(f"{label}:")
    for name, phase in result.phases.items():
        print(
            f"  {name:<7} writes {dict(sorted(phase.writes.items()))} "
            f"checks {dict(sorted(phase.checks.items()))}"
        )
    checks = result.phases["checks"].checks.total()
    print(
        f"  size before {checks:,} checks {result.size_before:,} bytes, after "
        f"{result.size_after:,} bytes (grew {result.grew:,})"
    )
    if result.table_before is not None:
        print(f"  health_checks {result.table_before:,} bytes, after {result.table_after:,}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="writes, a check a second")
    parser.add_argument("--flood-seconds", type=float, default=10.0, help="writes, a flood")
    parser.add_argument("--checks", type=int, default=20_000, help="checks alone, sized")
    parser.add_argument("--writers", type=int, default=3, help="tablets sending buy-ins")
    parser.add_argument("--checkers", type=int, default=4, help="threads of the floods")
    args = parser.parse_args()
    shape = {
        "seconds": args.seconds,
        "flood_seconds": args.flood_seconds,
        "checks": args.checks,
        "writers": args.writers,
        "checkers": args.checkers,
    }
    results: dict[str, Result] = {}
    with ExitStack() as stack:
        folder = stack.enter_context(tempfile.TemporaryDirectory())
        sqlite = f"sqlite:///{folder}/health.sqlite3"
        prepare(sqlite)
        results["sqlite"] = measure(sqlite, "sqlite", **shape)
        report("sqlite", results["sqlite"])
        postgres = stack.enter_context(postgres_database())
        if postgres is not None:
            prepare(postgres)
            results["postgresql"] = measure(postgres, "postgresql", **shape)
            report("postgresql", results["postgresql"])
    errors = sum(result.server_errors for result in results.values())
    writes = sum(p.writes.total() for r in results.values() for p in r.phases.values())
    checks = sum(p.checks.total() for r in results.values() for p in r.phases.values())
    grew = " ".join(f"{label}_grew_bytes={r.grew}" for label, r in results.items())
    ok = errors == 0 and all(r.grew <= FLAT_BYTES for r in results.values())
    print(f"answers_500={errors} writes={writes} checks={checks} {grew} ok={'yes' if ok else 'no'}")


if __name__ == "__main__":
    main()
