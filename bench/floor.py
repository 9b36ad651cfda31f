"""The whole floor under load: gunicorn on SQLite and on PostgreSQL, 10, 50 and 200 tables at once.

gunicorn runs as production runs it (gunicorn.conf.py: workers and threads chosen from the
CPU count) on 127.0.0.1, on a fresh migrated database. The tables are `bench.simulate`'s: bots
playing legal Pan, each table a thread with its own kept-alive HTTP connection, every POST with
an Idempotency-Key. They play at a human pace: a dealer enters an event every 2-8 s (mean 5 s)
during a hand and deals the next hand 20-40 s after the last (`bench.room.table.Pace`); so 200
tables offer about 35 events a second, plus reads and chips between hands.

For each level, the tables are opened and seated first (untimed); every table plays 15 s to get
its hands under way, then ``--seconds`` recorded: each request is timed from sending to the
last byte of the answer, in this client (which shares the machine's cores with the server).
Afterwards every table's chips are counted and the ledger verified. Errors are refused or
unanswered entries, answers the rules engine disagrees with, 5xx, and a ledger that does not
verify. Then the saturated throughput: ``--saturate`` tables entering events with no pause.

Targets (issue 14): 0 errors, p99 under 100 ms at 200 tables on PostgreSQL.

    python -m bench.floor [--levels 10,50,200] [--seconds 30] [--saturate 24]
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path
from typing import Any

from bench.room.server import gunicorn, postgres_database
from bench.room.transport import HttpTransport
from bench.simulate import Room, make_tables, play_live, prepare_database, summary


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


#: Seconds every level plays before its figures are recorded: hands are then under way.
WARM_UP = 15.0


def level(url: str, tables: int, first: int, seconds: float, speed: float) -> dict[str, Any]:
    """``tables`` new tables playing for ``seconds`` against ``url``; their figures."""
    room = Room(HttpTransport(url), make_tables(tables, seed=first, first=first))
    room.sign_in()
    window = play_live(room, seconds, speed, warm_up=WARM_UP if speed else 0.0)
    report = room.finish()
    shown = summary(room.transport.figures, window)
    shown.update(
        tables=tables,
        seconds=window,
        errors=len(room.errors) + shown["failed"],
        verify=report.get("ok", False),
        first_error=room.errors[0] if room.errors else "",
        load=load(),
    )
    return shown


def row(kind: str, shown: dict[str, Any], pace: str) -> str:
    return (
        f"{kind:<10} {pace:<9} {shown['tables']:>6} {shown['events_per_s']:>9.1f} "
        f"{shown['p50_ms']:>7.1f} {shown['p99_ms']:>7.1f} {shown['requests_per_s']:>9.1f} "
        f"{shown['errors']:>6} {shown['retries']:>7}  {shown['load']}"
    )


def measure(kind: str, uri: str, levels: list[int], seconds: float, saturate: int) -> list[dict]:
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
            if saturate:
                shown = level(url, saturate, first, seconds, speed=0.0)
                print(row(kind, shown, "none"), flush=True)
                results.append({"kind": kind, "pace": "none", **shown})
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default="10,50,200")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--saturate", type=int, default=24, help="tables with no pause (0: none)")
    parser.add_argument("--databases", default="sqlite,postgresql")
    args = parser.parse_args()
    kinds = args.databases.split(",")
    levels = [int(n) for n in args.levels.split(",")]
    cores = os.cpu_count()
    print(f"{cores} cores; load average {load()}; {args.seconds:.0f} s a level")
    print(
        f"{'database':<10} {'pace':<9} {'tables':>6} {'events/s':>9} {'p50 ms':>7} {'p99 ms':>7} "
        f"{'req/s':>9} {'errors':>6} {'retries':>7}  load"
    )
    results: list[dict[str, Any]] = []
    if "sqlite" in kinds:
        with tempfile.TemporaryDirectory() as folder:
            uri = f"sqlite:///{Path(folder) / 'floor.sqlite3'}"
            results += measure("sqlite", uri, levels, args.seconds, args.saturate)
    if "postgresql" in kinds:
        with postgres_database() as pg_uri:
            if pg_uri is not None:
                results += measure("postgresql", pg_uri, levels, args.seconds, args.saturate)
    errors = sum(r["errors"] for r in results)
    saturated = {r["kind"]: r["events_per_s"] for r in results if r["pace"] == "none"}
    top = max(levels)
    last = [r for r in results if r["pace"] == "human" and r["tables"] == top][-1]
    print(
        f"name=floor database={last['kind']} tables={top} events_per_s={last['events_per_s']:.1f} "
        f"p50_ms={last['p50_ms']:.1f} p99_ms={last['p99_ms']:.1f} "
        + " ".join(f"saturated_{k}={v:.0f}" for k, v in saturated.items())
        + f" errors={errors}"
    )


if __name__ == "__main__":
    main()
