"""The whole floor under load: gunicorn on PostgreSQL (and SQLite), its curve of tables at once
up to its knee.

gunicorn runs as production runs it (gunicorn.conf.py: workers and threads chosen from the
CPU count, as `make serve` starts it) on 127.0.0.1, on a fresh migrated database. The tables
are `bench.simulate`'s: bots playing legal Pan, each table a thread with its own kept-alive HTTP
connection, every POST with an Idempotency-Key. They play at a human pace: a dealer enters an
event every 2-8 s (mean 5 s) during a hand and deals the next hand 20-40 s after the last
(`bench.room.table.Pace`); so 200 tables offer about 35 events a second, plus reads and chips
between hands.

The curve: for each level of ``--levels`` (10, 50, 200, 300, 400, 500, 700, 1,000, 1,500 and
2,000 tables: close enough around today's knee that the knee read is not a level below it), the
tables are opened and seated first (untimed); every table plays 15 s to get its hands under
way, then ``--seconds`` recorded: each request is timed from sending to the last byte of the
answer, in this client (which shares the machine's cores with the server). Afterwards every
table's chips are counted and the ledger verified. Errors are refused or unanswered entries,
answers the rules engine disagrees with, 5xx, and a ledger that does not verify. The curve
stops at the first level whose p99 passes 100 ms or that has an error (``--whole`` plays every
level); a p99 read from fewer than 200 events (its slowest answer or two) does not stop it.
Then the saturated throughput: ``--saturate`` tables entering events with no pause.

Over each recorded window the CPU is metered, as a share of the whole machine (every core):
``client`` this process (the bots, their rules engine mirroring every hand, and HTTP),
``server`` gunicorn's master and workers, ``machine`` everything (PostgreSQL included). The
client shares the cores it measures: when its share is large, the curve says as much about
the client as about the server. The same CPU is also said per event (each level's line under
it: milliseconds of CPU of the machine, the server and the client for each event answered),
and, at the knee, what the target's floor would ask of this machine at that cost:
``cores_at_target``, the cores that 1,000 tables' events (the knee's events a second per table,
times 1,000) would keep busy, the client's share left out. More than the machine has means no
lock, no queue and no setting serves it: only a cheaper event does.

The floor's one serial section, as the app servers time it: each gunicorn worker (started with
``bench/room/measured.conf.py``) times every hold of the writers' lock, from the lock's
statement answered to the commit done (`bench.room.holds`), and each level says the holds' p50
and p99, the share of the window the lock was held, and ``serial_ceiling_tables``: the tables
that would keep it held all the time at this level's pace and cost of a hold (the tables over
the share). A hold is timed in the app, so it also counts the wait for a core or for Python's
interpreter lock after each round trip: under load, what every other table's write waits for.
``--servers N`` serves the floor from N gunicorns on one PostgreSQL, each table keeping to one.

``knee_tables``: the most tables played with 0 errors and p99 under 100 ms, on the last
database measured (PostgreSQL when one answers). Target (issue 25): at least 1,000 on 2 cores.

    python -m bench.floor [--levels 10,50,200,300,400,500,700,1000,1500,2000] [--seconds 30]
                          [--saturate 24] [--databases sqlite,postgresql] [--whole]
                          [--servers 1]
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import psutil

from bench.room.holds import FOLDER, pauses
from bench.room.holds import read as read_holds
from bench.room.server import (
    REPO,
    connect,
    cpu_seconds,
    gunicorn,
    postgres_database,
    server_processes,
)
from bench.room.transport import HttpTransport
from bench.simulate import Room, make_tables, play_live, prepare_database, summary
from dealer.write_locks import FLOOR_LOCK, WRITERS_LOCK


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


#: Seconds every level plays before its figures are recorded: hands are then under way.
WARM_UP = 15.0
#: A level is served when its p99 is under this and it has no error.
P99_LIMIT_MS = 100.0
#: Fewer timed events than this, and a level's p99 is its slowest answer or two: it is not
#: served when over the limit, but does not end the curve (10 tables answer about 60 events
#: in 30 s, and one slow answer among them once stopped the SQLite curve at its first level).
JUDGED_EVENTS = 200
#: The tables issue 25 asks the floor to serve on two cores.
TARGET_TABLES = 1000
#: The curve's levels, in tables: finer around the knees seen so far (400-500 on 2 cores).
LEVELS = "10,50,200,300,400,500,700,1000,1500,2000"
#: gunicorn.conf.py's settings, with each worker's holds of the writers' lock timed.
MEASURED = REPO / "bench" / "room" / "measured.conf.py"


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


#: What the server's PostgreSQL backends are doing, by the advisory lock each waits for
#: (`dealer.write_locks`), or in a transaction and not waiting for one.
QUEUES = f"""
SELECT count(*) FILTER (WHERE w.key = {WRITERS_LOCK}) AS writers,
       count(*) FILTER (WHERE w.two_keys) AS tables,
       count(*) FILTER (WHERE w.key = {FLOOR_LOCK}) AS floor,
       count(*) FILTER (WHERE w.pid IS NULL AND a.state <> 'idle') AS working
FROM pg_stat_activity a
LEFT JOIN (
    SELECT pid, (classid::bigint << 32) | objid::bigint AS key, objsubid = 2 AS two_keys
    FROM pg_locks WHERE locktype = 'advisory' AND NOT granted
) w ON w.pid = a.pid
WHERE a.datname = current_database() AND a.backend_type = 'client backend'
  AND a.pid <> pg_backend_pid()
"""


class Queues:
    """How many of the server's writes wait, on average over the recorded window, for the
    writers' lock, a table's lock or the floor's, and how many transactions are open and not
    waiting for a lock (sampled every 50 ms from pg_stat_activity and pg_locks; PostgreSQL
    only). Where the queue stands says what bends the curve."""

    NAMES = ("writers", "tables", "floor", "working")

    def __init__(self, uri: str) -> None:
        self.uri = uri if uri.startswith("postgresql") else None
        self.sums = dict.fromkeys(self.NAMES, 0)
        self.samples = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __call__(self, opening: bool) -> None:
        if self.uri is None:
            return
        if opening:
            self._thread = threading.Thread(target=self._sample, daemon=True)
            self._thread.start()
        else:
            self._stop.set()
            if self._thread is not None:
                self._thread.join(5)

    def _sample(self) -> None:
        assert self.uri is not None
        with connect(self.uri) as connection:
            while not self._stop.wait(0.05):
                row = connection.execute(QUEUES).fetchone()
                if row is not None:
                    self.samples += 1
                    for name, count in zip(self.NAMES, row, strict=True):
                        self.sums[name] += count

    def means(self) -> dict[str, float]:
        if not self.samples:
            return {}
        return {f"waiting_{n}": self.sums[n] / self.samples for n in self.NAMES}


def level(
    urls: list[str], tables: int, first: int, seconds: float, speed: float, uri: str, holds: Path
) -> dict[str, Any]:
    """``tables`` new tables playing for ``seconds`` against the app servers at ``urls`` (on
    the database at ``uri``, timing their holds of the writers' lock into ``holds``); their
    figures."""
    room = Room(HttpTransport(urls), make_tables(tables, seed=first, first=first))
    room.sign_in()
    meter, queues = Meter(), Queues(uri)
    times: list[float] = []

    def window(opening: bool) -> None:
        times.append(time.monotonic())
        meter(opening)
        queues(opening)

    played = play_live(room, seconds, speed, warm_up=WARM_UP if speed else 0.0, window=window)
    report = room.finish()
    shown = summary(room.transport.figures, played)
    shown.update(
        tables=tables,
        seconds=played,
        errors=len(room.errors) + shown["failed"],
        verify=report.get("ok", False),
        first_error=room.errors[0] if room.errors else "",
        load=load(),
        **{f"{name}_cpu_pct": share for name, share in meter.shares.items()},
        **queues.means(),
        **serial(read_holds(holds, *times), times[1] - times[0], tables),
        **collector(pauses(holds, *times)),
    )
    return shown


def collector(passes: list[float]) -> dict[str, float]:
    """The workers' collector's full passes over the window, each a stop of every thread of
    its worker: how many, and the longest (ms)."""
    return {"full_passes": len(passes), "full_pass_max_ms": max(passes, default=0.0)}


#: The serial section's figures a level says (`serial`), as the last line names them.
SERIAL = ("serial_p50_ms", "serial_p99_ms", "serial_busy_pct", "serial_ceiling_tables")
#: The collector's figures a level says (`collector`).
COLLECTOR = ("full_passes", "full_pass_max_ms")


def serial(held: list[float], seconds: float, tables: int) -> dict[str, float]:
    """The floor's one serial section over a window of ``seconds``, from its holds of the
    writers' lock (ms): their median and p99, the share of the window it was held
    (``serial_busy_pct``), and ``serial_ceiling_tables``, the tables it would admit held all
    the time at this level's pace and cost of a hold (``tables`` over the share held)."""
    if not held or seconds <= 0:
        return {}
    held = sorted(held)
    busy = sum(held) / 1000.0 / seconds
    return {
        "serial_p50_ms": held[len(held) // 2],
        "serial_p99_ms": held[max(0, math.ceil(0.99 * len(held)) - 1)],
        "serial_holds": len(held),
        "serial_busy_pct": 100.0 * busy,
        "serial_ceiling_tables": tables / busy if busy else 0.0,
    }


def served(shown: dict[str, Any]) -> bool:
    """Whether a level was served: no error and p99 under the limit."""
    return not shown["errors"] and shown["p99_ms"] < P99_LIMIT_MS


def ends_curve(shown: dict[str, Any]) -> bool:
    """Whether a level ends the curve: an error, or a p99 over the limit read from enough
    events to say so (`JUDGED_EVENTS`)."""
    if shown["errors"]:
        return True
    return not served(shown) and shown["events"] >= JUDGED_EVENTS


def row(kind: str, shown: dict[str, Any], pace: str) -> str:
    return (
        f"{kind:<10} {pace:<9} {shown['tables']:>6} {shown['events_per_s']:>9.1f} "
        f"{shown['p50_ms']:>7.1f} {shown['p99_ms']:>7.1f} {shown['requests_per_s']:>9.1f} "
        f"{shown['errors']:>6} {shown['retries']:>7} "
        f"{shown.get('client_cpu_pct', 0):>6.0f} {shown.get('server_cpu_pct', 0):>6.0f} "
        f"{shown.get('machine_cpu_pct', 0):>7.0f}  {shown['load']}"
    ) + level_notes(shown)


def per_event(shown: dict[str, Any]) -> dict[str, float]:
    """Milliseconds of CPU for each event answered over the level's window: the machine's,
    the server's and the client's (their shares of every core, over the events a second)."""
    events = shown["events_per_s"]
    if not events or "machine_cpu_pct" not in shown:
        return {}
    cores = os.cpu_count() or 1
    return {
        f"{name}_ms_per_event": shown[f"{name}_cpu_pct"] / 100.0 * cores * 1000.0 / events
        for name in ("machine", "server", "client")
    }


def cores_at_target(shown: dict[str, Any]) -> float:
    """The cores `TARGET_TABLES` tables would keep busy at this level's cost of an event and
    its events a second per table (both as measured at a human pace): the machine's CPU less
    the client's, which a real floor's tablets do not put on the server."""
    costs = per_event(shown)
    if not costs or not shown["tables"]:
        return 0.0
    offered = shown["events_per_s"] / shown["tables"] * TARGET_TABLES
    served = costs["machine_ms_per_event"] - costs["client_ms_per_event"]
    return served * offered / 1000.0


def level_notes(shown: dict[str, Any]) -> str:
    """The level's CPU an event (`per_event`) and its queues (`Queues`), if sampled, each a
    line of its own."""
    lines = ""
    costs = per_event(shown)
    if costs:
        lines += (
            f"\n  CPU an event: machine {costs['machine_ms_per_event']:.1f} ms, server "
            f"{costs['server_ms_per_event']:.1f} ms, client {costs['client_ms_per_event']:.1f} ms"
        )
    if "serial_p50_ms" in shown:
        lines += (
            f"\n  writers' lock held {shown['serial_p50_ms']:.2f} ms a write (p99 "
            f"{shown['serial_p99_ms']:.2f}), {shown['serial_busy_pct']:.1f} % of the window: "
            f"{shown['serial_ceiling_tables']:,.0f} tables would keep it held all the time"
        )
    if "full_passes" in shown:
        lines += (
            f"\n  the collector's full passes {shown['full_passes']}, the longest "
            f"{shown['full_pass_max_ms']:.1f} ms (each stops every thread of its worker)"
        )
    if "waiting_writers" in shown:
        lines += (
            f"\n  writes waiting for the writers' lock {shown['waiting_writers']:.1f}, for a "
            f"table's {shown['waiting_tables']:.1f}, for the floor's "
            f"{shown['waiting_floor']:.1f}; transactions at work "
            f"{shown['waiting_working']:.1f} (means over the window)"
        )
    return lines


def measure(
    kind: str,
    uri: str,
    levels: list[int],
    seconds: float,
    saturate: int,
    whole: bool,
    servers: int = 1,
) -> list[dict]:
    prepare_database(uri, sum(levels) + saturate)
    results = []
    with tempfile.TemporaryDirectory() as folder, contextlib.ExitStack() as stack:
        holds = Path(folder)
        urls = [
            stack.enter_context(
                gunicorn(
                    uri,
                    holds / f"gunicorn-{n}.log",
                    config=MEASURED,
                    environ={FOLDER: str(holds)},
                )
            )
            for n in range(servers)
        ]
        first = 1
        for tables in levels:
            shown = level(urls, tables, first, seconds, 1.0, uri, holds)
            print(row(kind, shown, "human"), flush=True)
            if shown["first_error"]:
                print(f"  first error: {shown['first_error'][:300]}")
            results.append({"kind": kind, "pace": "human", **shown})
            first += tables
            if not served(shown) and not ends_curve(shown):
                print(f"  {shown['events']} events: too few for this p99 to end the curve")
            if not whole and ends_curve(shown):
                break  # the knee is passed: a larger floor would only be slower
        if saturate:
            shown = level(urls, saturate, first, seconds, 0.0, uri, holds)
            print(row(kind, shown, "none"), flush=True)
            results.append({"kind": kind, "pace": "none", **shown})
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default=LEVELS)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--saturate", type=int, default=24, help="tables with no pause (0: none)")
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--whole", action="store_true", help="play every level, past the knee too")
    parser.add_argument(
        "--servers", type=int, default=1, help="app servers on one database (PostgreSQL only)"
    )
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
                    "postgresql",
                    pg_uri,
                    levels,
                    args.seconds,
                    args.saturate,
                    args.whole,
                    args.servers,
                )
    errors = sum(r["errors"] for r in results)
    saturated = {r["kind"]: r["events_per_s"] for r in results if r["pace"] == "none"}
    busy = {r["kind"]: r.get("machine_cpu_pct", 0) for r in results if r["pace"] == "none"}
    last_kind = [r for r in results if r["pace"] == "human"][-1]["kind"]
    curve = [r for r in results if r["pace"] == "human" and r["kind"] == last_kind]
    knee = max((r["tables"] for r in curve if served(r)), default=0)
    at_knee = next((r for r in curve if r["tables"] == knee), curve[0])
    past = curve[-1]
    costs = per_event(at_knee)
    print(
        f"name=floor database={last_kind} knee_tables={knee} "
        f"events_per_s={at_knee['events_per_s']:.1f} p50_ms={at_knee['p50_ms']:.1f} "
        f"p99_ms={at_knee['p99_ms']:.1f} last_tables={past['tables']} "
        f"last_p99_ms={past['p99_ms']:.1f} "
        f"client_cpu_pct={past.get('client_cpu_pct', 0):.0f} "
        f"server_cpu_pct={past.get('server_cpu_pct', 0):.0f} "
        f"machine_cpu_pct={past.get('machine_cpu_pct', 0):.0f} "
        + "".join(f"{k}={past[k]:.1f} " for k in sorted(past) if k.startswith("waiting_"))
        + "".join(f"{k}={v:.1f} " for k, v in costs.items())
        + "".join(f"{k}={at_knee[k]:.2f} " for k in SERIAL if k in at_knee)
        + "".join(f"{k}={at_knee[k]:.1f} " for k in COLLECTOR if k in at_knee)
        + f"cores_at_target={cores_at_target(at_knee):.2f} cores={os.cpu_count()} "
        + f"servers={args.servers} "
        + " ".join(f"saturated_{k}={v:.0f}" for k, v in saturated.items())
        + "".join(f" saturated_{k}_machine_cpu_pct={v:.0f}" for k, v in busy.items())
        + f" errors={errors} target_knee={TARGET_TABLES} "
        + f"met={'yes' if knee >= TARGET_TABLES else 'no'}"
    )


if __name__ == "__main__":
    main()
