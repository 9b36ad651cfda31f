"""A buy-in's latency while wrong PINs flood the sign-in (issue 10, finding 3).

The app is served as a floor runs it: gunicorn with gunicorn.conf.py, on SQLite and on
PostgreSQL (when one answers at DEALER_TEST_POSTGRES), with the production PIN hash
(werkzeug's scrypt). One tablet sends buy-ins one after another (a bearer token, an
Idempotency-Key each) and times them, in ``--rounds`` alternate rounds: quietly, then while
``--flooders`` threads post wrong PINs as fast as they are answered. Each phase lasts
``--seconds`` in all, split over the rounds.

The flood is the hardest one the app can be sent: every wrong PIN comes from an address of
its own (X-Forwarded-For, with DEALER_PROXY_HOPS=1 so the app believes it) and names a name
nobody has, so no per-source limit or wait refuses it early and every one is hashed (the
decoy hash) and its failure written. What the figures show is whether a PIN's hash check
ever makes a ledger write wait. A flood from one address, as a tablet would send it, is
also measured (``one_source``): the per-source limit refuses it after a few tries, unhashed.

    python -m bench.signin_flood [--seconds 12] [--rounds 4] [--flooders 2]

Ends with ``quiet_p99_ms=.. flood_p99_ms=.. ratio=..``: the worse database's figures.
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

from bench.room.server import gunicorn, migrate, postgres_database
from bench.room.transport import HttpTransport, Request, open_table

OUT = Path(__file__).resolve().parent / "out"
FLOOR = {"name": "Flo Flood", "pin": "4826"}
SEATS = 8


@dataclass
class Phase:
    """The buy-ins' times in one phase, and what the flood got meanwhile."""

    times: list[float]
    flood_answers: dict[int, int]

    @property
    def p99(self) -> float:
        return percentile(self.times, 99)

    @property
    def median(self) -> float:
        return statistics.median(self.times) if self.times else 0.0


def percentile(values: list[float], pct: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(pct / 100 * (len(ordered) - 1)))]


def add_floor(uri: str) -> None:
    """The supervisor who buys in, added with the production PIN hash."""
    from dealer import create_app
    from dealer.extensions import db
    from dealer.people.users import add_user
    from dealer.transactions import writing

    app = create_app({"SQLALCHEMY_DATABASE_URI": uri, "SECRET_KEY": secrets.token_hex(32)})
    with app.app_context():
        with writing(db.session()) as session:
            add_user(session, FLOOR["name"], "supervisor", FLOOR["pin"])
        db.session.remove()
        for engine in db.engines.values():
            engine.dispose()


class Flood:
    """``threads`` threads posting wrong PINs until stopped."""

    def __init__(self, url: str, threads: int, spoofed: bool) -> None:
        self.transport = HttpTransport(url, timeout=60)
        self.transport.figures.recording = False
        self.url = url
        self.spoofed = spoofed
        self.stop = threading.Event()
        self.answers: dict[int, int] = {}
        self.threads = [threading.Thread(target=self.run, daemon=True) for _ in range(threads)]

    def run(self) -> None:
        import http.client
        import json
        from urllib.parse import urlsplit

        parts = urlsplit(self.url)
        connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=60)
        while not self.stop.is_set():
            headers = {"Content-Type": "application/json"}
            if self.spoofed:
                headers["X-Forwarded-For"] = (
                    f"10.{secrets.randbelow(250)}.{secrets.randbelow(250)}.{secrets.randbelow(250)}"
                )
            body = json.dumps({"name": f"nobody-{uuid.uuid4().hex[:8]}", "pin": "0000"})
            try:
                connection.request("POST", "/api/v1/session", body=body, headers=headers)
                response = connection.getresponse()
                response.read()
            except (OSError, http.client.HTTPException):
                connection.close()
                connection = http.client.HTTPConnection(parts.hostname or "", parts.port)
                continue
            self.answers[response.status] = self.answers.get(response.status, 0) + 1
        connection.close()

    @contextmanager
    def running(self) -> Iterator[Flood]:
        for thread in self.threads:
            thread.start()
        time.sleep(0.5)  # the flood under way before the first timed buy-in
        try:
            yield self
        finally:
            self.stop.set()
            for thread in self.threads:
                thread.join(timeout=60)


def buy_ins(url: str, token: str, table: int, seconds: float) -> list[float]:
    """Buy-ins one after another for ``seconds``; each one's time in ms."""
    transport = HttpTransport(url, timeout=60)
    times: list[float] = []
    deadline = time.monotonic() + seconds
    seat = 0
    while time.monotonic() < deadline:
        seat = seat % SEATS + 1
        body = {"kind": "buy_in", "amount": 10}
        started = time.perf_counter()
        status, answer = transport.send(
            Request("POST", f"/tables/{table}/seats/{seat}/chips", body, token, "chips")
        )
        times.append((time.perf_counter() - started) * 1000)
        if status != 201:
            raise RuntimeError(f"a buy-in was refused: {status} {answer}")
    transport.close()
    return times


def measure(uri: str, label: str, seconds: float, flooders: int, rounds: int) -> dict[str, Phase]:
    migrate(uri)
    add_floor(uri)
    OUT.mkdir(exist_ok=True)
    phases: dict[str, Phase] = {}
    os.environ["DEALER_PROXY_HOPS"] = "1"
    # The production limit, for the one-source flood (bench.room.server lifts it otherwise).
    os.environ["DEALER_SIGN_IN_ATTEMPTS_PER_MINUTE"] = "60"
    with gunicorn(uri, OUT / f"signin-flood-{label}.log") as url:
        token, table_id = open_table(url, FLOOR, "Flood", SEATS)
        buy_ins(url, token, table_id, 1.0)  # warm up
        # Quiet and flooded in alternate rounds: the database grows as the run goes on (every
        # buy-in is a ledger entry, every wrong PIN a count and an audit record), and a
        # busy machine comes and goes, so each phase sees the same conditions on average.
        quiet: list[float] = []
        flooded: list[float] = []
        answers: dict[int, int] = {}
        for _ in range(rounds):
            quiet += buy_ins(url, token, table_id, seconds / rounds)
            with Flood(url, flooders, spoofed=True).running() as flood:
                flooded += buy_ins(url, token, table_id, seconds / rounds)
            for status, count in flood.answers.items():
                answers[status] = answers.get(status, 0) + count
        phases["quiet"] = Phase(quiet, {})
        phases["flood"] = Phase(flooded, answers)
        with Flood(url, flooders, spoofed=False).running() as flood:
            times = buy_ins(url, token, table_id, seconds / rounds)
        phases["one_source"] = Phase(times, flood.answers)
    return phases


def report(label: str, phases: dict[str, Phase]) -> tuple[float, float]:
    quiet = phases["quiet"].p99
    print(f"{label}:")
    for name, phase in phases.items():
        flood = (
            f"  flood answers {dict(sorted(phase.flood_answers.items()))}"
            if phase.flood_answers
            else ""
        )
        print(
            f"  {name:<12} buy-ins={len(phase.times):5d} median={phase.median:7.1f} ms "
            f"p99={phase.p99:7.1f} ms{flood}"
        )
    return quiet, phases["flood"].p99


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--seconds", type=float, default=12.0, help="the quiet and the flooded phases' length"
    )
    parser.add_argument("--rounds", type=int, default=4, help="quiet and flooded rounds")
    parser.add_argument("--flooders", type=int, default=2, help="threads posting wrong PINs")
    args = parser.parse_args()
    results: dict[str, tuple[float, float]] = {}
    shape = (args.seconds, args.flooders, args.rounds)
    with ExitStack() as stack:
        folder = stack.enter_context(tempfile.TemporaryDirectory())
        sqlite = f"sqlite:///{folder}/flood.sqlite3"
        results["sqlite"] = report("sqlite", measure(sqlite, "sqlite", *shape))
        postgres = stack.enter_context(postgres_database())
        if postgres is not None:
            phases = measure(postgres, "postgresql", *shape)
            results["postgresql"] = report("postgresql", phases)
    figures = []
    for label, (quiet, flood) in results.items():
        ratio = flood / quiet if quiet else float("inf")
        figures.append((ratio, quiet, flood, label))
        print(f"{label}: quiet_p99_ms={quiet:.1f} flood_p99_ms={flood:.1f} ratio={ratio:.2f}")
    ratio, quiet, flood, label = max(figures)
    print(f"quiet_p99_ms={quiet:.1f} flood_p99_ms={flood:.1f} ratio={ratio:.2f} worse={label}")


if __name__ == "__main__":
    main()
