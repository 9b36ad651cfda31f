"""The whole floor under load: gunicorn on PostgreSQL (and SQLite), its curve of tables at once
up to its knee.

gunicorn runs as production runs it (gunicorn.conf.py: workers and threads chosen from the
CPU count, as `make serve` starts it) on 127.0.0.1, on a fresh migrated database. The tables
are `bench.simulate`'s: bots playing legal Pan, each table a thread with its own kept-alive HTTP
connection, every POST with an Idempotency-Key. They play at a human pace: a dealer enters an
event every 2-8 s (mean 5 s) during a hand and deals the next hand 20-40 s after the last
(`bench.room.table.Pace`); so 200 tables offer about 35 events a second, plus reads and chips
between hands.

The curve: for each level of ``--levels`` (10, 50, 200, 500, 1,000 and 2,000 tables), the
tables are opened and seated first (untimed); every table plays 15 s to get its hands under
way, then ``--seconds`` recorded: each request is timed from sending to the last byte of the
answer, in this client (which shares the machine's cores with the server). Afterwards every
table's chips are counted and the ledger verified. Errors are refused or unanswered entries,
answers the rules engine disagrees with, 5xx, and a ledger that does not verify. The curve
stops at the first level whose p99 passes 100 ms or that has an error (``--whole`` plays every
level). Then the saturated throughput: ``--saturate`` tables entering events with no pause.

Over each recorded window the CPU is metered, as a share of the whole machine (every core):
``client`` this process (the bots, their rules engine mirroring every hand, and HTTP),
``server`` gunicorn's master and workers, ``machine`` everything (PostgreSQL included). The
client shares the cores it measures: when its share is large, the curve says as much about
the client as about the server.

``knee_tables``: the most tables played with 0 errors and p99 under 100 ms, on the last
database measured (PostgreSQL when one answers). Target (issue 25): at least 1,000 on 2 cores.

    python -m bench.floor [--levels 10,50,200,500,1000,2000] [--seconds 30] [--saturate 24]
                          [--databases sqlite,postgresql] [--whole]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path
from typing import Any

import psutil

from bench.room.server import cpu_seconds, gunicorn, postgres_database, server_processes
from bench.room.transport import HttpTransport
from bench.simulate import Room, make_tables, play_live, prepare_database, summary


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


#: Seconds every level plays before its figures are recorded: hands are then under way.
WARM_UP = 15.0
#: A level is served when its p99 is under this and it has no error.
P99_LIMIT_MS = 100.0


class Meter:
    """CPU over the recorded window, each as a percentage of the whole machine (all cores)."""

    def __init__(self) -> None:
        self.began: tuple[float, float, float, float] | None = None
        self.shares: dict[str, float] = {}

    def _now(self) -> tuple[float, float, float, float]:
        machine = psutil.cpu_times()
        busy = machine.user + machine.nice + machine.system + machine.irq + machine.softirq
        return time.monotonic(), time.process_time(), cpu_seconds(server_processes()), busy

    def __call__(self, opening: bool) -> None:
        if opening:
            self.began = self._now()
            return
        assert self.began is not None
        ended = self._now()
        wall = (ended[0] - self.began[0]) * (os.cpu_count() or 1)
        self.shares = {
            name: 100.0 * (ended[i] - self.began[i]) / wall
            for i, name in enumerate(("", "client", "server", "machine"))
            if name
        }


def level(url: str, tables: int, first: int, seconds: float, speed: float) -> dict[str, Any]:
    """``tables`` new tables playing for ``seconds`` against ``url``; their figures."""
    room = Room(HttpTransport(url), make_tables(tables, seed=first, first=first))
    room.sign_in()
    meter = Meter()
    window = play_live(room, seconds, speed, warm_up=WARM_UP if speed else 0.0, window=meter)
    report = room.finish()
    shown = summary(room.transport.figures, window)
    shown.update(
        tables=tables,
        seconds=window,
        errors=len(room.errors) + shown["failed"],
        verify=report.get("ok", False),
        first_error=room.errors[0] if room.errors else "",
        load=load(),
        **{f"{name}_cpu_pct": share for name, share in meter.shares.items()},
    )
    return shown


def served(shown: dict[str, Any]) -> bool:
    """Whether a level was served: no error and p99 under the limit."""
    return not shown["errors"] and shown["p99_ms"] < P99_LIMIT_MS


def row(kind: str, shown: dict[str, Any], pace: str) -> str:
    return (
        f"{kind:<10} {pace:<9} {shown['tables']:>6} {shown['events_per_s']:>9.1f} "
        f"{shown['p50_ms']:>7.1f} {shown['p99_ms']:>7.1f} {shown['requests_per_s']:>9.1f} "
        f"{shown['errors']:>6} {shown['retries']:>7} "
        f"{shown.get('client_cpu_pct', 0):>6.0f} {shown.get('server_cpu_pct', 0):>6.0f} "
        f"{shown.get('machine_cpu_pct', 0):>7.0f}  {shown['load']}"
    )


def measure(
    kind: str, uri: str, levels: list[int], seconds: float, saturate: int, whole: bool
) -> list[dict]:
    prepare_database(uri, sum(levels) + saturate)
    results = []
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "gunicorn.log"
        with gunicorn(uri, log) as url:
            first = 1
            for tables in levels:
                shown = level(url, tables, first, seconds, speed=1.0)
                print(row(kind, shown, "human"), flush=True)
                if shown["first_error"]:
                    print(f"  first error: {shown['first_error'][:300]}")
                results.append({"kind": kind, "pace": "human", **shown})
                first += tables
                if not whole and not served(shown):
                    break  # the knee is passed: a larger floor would only be slower
            if saturate:
                shown = level(url, saturate, first, seconds, speed=0.0)
                print(row(kind, shown, "none"), flush=True)
                results.append({"kind": kind, "pace": "none", **shown})
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default="10,50,200,500,1000,2000")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--saturate", type=int, default=24, help="tables with no pause (0: none)")
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--whole", action="store_true", help="play every level, past the knee too")
    args = parser.parse_args()
    kinds = args.databases.split(",")
    levels = [int(n) for n in args.levels.split(",")]
    cores = os.cpu_count()
    print(f"{cores} cores; load average {load()}; {args.seconds:.0f} s a level")
    print(
        f"{'database':<10} {'pace':<9} {'tables':>6} {'events/s':>9} {'p50 ms':>7} {'p99 ms':>7} "
        f"{'req/s':>9} {'errors':>6} {'retries':>7} {'client':>6} {'server':>6} {'machine':>7}"
        "  load  (CPU: % of the whole machine)"
    )
    results: list[dict[str, Any]] = []
    if "sqlite" in kinds:
        with tempfile.TemporaryDirectory() as folder:
            uri = f"sqlite:///{Path(folder) / 'floor.sqlite3'}"
            results += measure("sqlite", uri, levels, args.seconds, args.saturate, args.whole)
    if "postgresql" in kinds:
        with postgres_database() as pg_uri:
            if pg_uri is not None:
                results += measure(
                    "postgresql", pg_uri, levels, args.seconds, args.saturate, args.whole
                )
    errors = sum(r["errors"] for r in results)
    saturated = {r["kind"]: r["events_per_s"] for r in results if r["pace"] == "none"}
    last_kind = [r for r in results if r["pace"] == "human"][-1]["kind"]
    curve = [r for r in results if r["pace"] == "human" and r["kind"] == last_kind]
    knee = max((r["tables"] for r in curve if served(r)), default=0)
    at_knee = next((r for r in curve if r["tables"] == knee), curve[0])
    past = curve[-1]
    print(
        f"name=floor database={last_kind} knee_tables={knee} "
        f"events_per_s={at_knee['events_per_s']:.1f} p50_ms={at_knee['p50_ms']:.1f} "
        f"p99_ms={at_knee['p99_ms']:.1f} last_tables={past['tables']} "
        f"last_p99_ms={past['p99_ms']:.1f} "
        f"client_cpu_pct={past.get('client_cpu_pct', 0):.0f} "
        f"server_cpu_pct={past.get('server_cpu_pct', 0):.0f} "
        f"machine_cpu_pct={past.get('machine_cpu_pct', 0):.0f} "
        + " ".join(f"saturated_{k}={v:.0f}" for k, v in saturated.items())
        + f" errors={errors} target_knee=1000 met={'yes' if knee >= 1000 else 'no'}"
    )


if __name__ == "__main__":
    main()
