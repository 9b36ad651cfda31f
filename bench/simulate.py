"""A simulated room: tables of players who play legal Pan, and dealers who enter it in the API.

Each table (`bench.room.table`) deals from a real shuffled shoe under the classic or the card
room profile; its players keep their hands hidden and play by the rules engine
(`bench.room.players`); its dealer sends what a dealer would enter, every POST with an
Idempotency-Key and sent again on a lost answer or a 503 (`bench.room.transport`). Every
answer's payments are checked against the engine's, every hand's net must sum to zero, and at
the end every table's chips are counted and the ledger verified.

Two ways to drive a room:

- **compressed** (the default): every table's entries are sent in simulated-time order, each
  as soon as the one before is answered, by one client. Simulated time is the tables' own
  clock (`Pace`: an entry every 2-8 s during a hand, 20-40 s between hands); the app stamps
  each entry with the real time it arrives, so a shift's timestamps keep its order and
  interleaving, compressed by the factor printed at the end (simulated / real seconds).
- **live** (``--live``): one thread per table, each sleeping its table's pace (divided by
  ``--speed``) between entries, for ``--seconds`` of wall time; this is what `bench.floor`
  measures.

    python -m bench.simulate --tables 40 --hours 8                  # fill bench/out/room.sqlite3
    python -m bench.simulate --tables 40 --hours 8 --database postgresql://...
    python -m bench.simulate --tables 10 --url http://127.0.0.1:8000 [--live --seconds 60]

``--database`` is migrated and given the simulation's people: a supervisor ("Sam Sim") and one
dealer per table ("Dee T001", ...: a dealer holds one table's session at a time), their PINs
hashed with a light scrypt so that hundreds sign in within seconds. Against ``--url``, prepare
the server's database first with ``--prepare-only --database URL``. Other benchmarks import
`Room`, `prepare_database`, `play_compressed` and `play_live`.
"""

from __future__ import annotations

import argparse
import heapq
import os
import random
import statistics
import threading
import time
from collections import Counter
from collections.abc import Callable, Generator, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.room.server import migrate
from bench.room.table import Answer, Entry, Mishaps, Pace, Refused, TableDealer
from bench.room.transport import (
    Figures,
    HttpTransport,
    InProcessTransport,
    Request,
    Transport,
    Unanswered,
    sign_in,
)

REPO = Path(__file__).resolve().parent.parent
DEFAULT_DATABASE = f"sqlite:///{REPO / 'bench' / 'out' / 'room.sqlite3'}"
FLOOR = {"name": "Sam Sim", "pin": "2468"}
PROFILES = ("classic", "cardroom")
#: Light enough that a few hundred dealers sign in within seconds (the app's is far slower).
LIGHT_PIN_HASH = "scrypt:1024:8:1"
#: The simulation's app is not a test app: it needs a SECRET_KEY that start-up accepts.
SIMULATION_KEY = "a key for a simulated room that lives for one run"


def dealer_of(number: int) -> dict[str, str]:
    """The dealer at table ``number``."""
    return {"name": f"Dee T{number:03d}", "pin": "1357"}


def prepare_database(uri: str, tables: int) -> None:
    """Migrate ``uri`` (`flask db upgrade`); add the supervisor and the dealers of tables
    1..``tables``."""
    from dealer import create_app
    from dealer.extensions import db
    from dealer.people.users import add_user
    from dealer.transactions import writing

    migrate(uri)
    config = {"SQLALCHEMY_DATABASE_URI": uri, "SECRET_KEY": SIMULATION_KEY}
    app = create_app({**config, "PIN_HASH_METHOD": LIGHT_PIN_HASH})
    with app.app_context():
        with writing(db.session()) as session:
            add_user(session, FLOOR["name"], "supervisor", FLOOR["pin"])
            for number in range(1, tables + 1):
                add_user(session, dealer_of(number)["name"], "dealer", dealer_of(number)["pin"])
        for engine in db.engines.values():
            engine.dispose()


def make_tables(
    count: int,
    *,
    seed: int = 1,
    profile: str = "both",
    pace: Pace | None = None,
    mishaps: Mishaps | None = None,
    more: Callable[[TableDealer], bool] = lambda dealer: True,
    first: int = 1,
) -> list[TableDealer]:
    """``count`` tables named T<first>..., each with its own seeded random play."""
    tables = []
    for number in range(first, first + count):
        rng = random.Random(seed * 1_000_003 + number)
        chosen = PROFILES[number % 2] if profile == "both" else profile
        tables.append(
            TableDealer(
                f"T{number:03d}",
                chosen,
                rng,
                dealer=dealer_of(number),
                seats=rng.randint(5, 8),
                pace=pace,
                mishaps=mishaps,
                supervisor=FLOOR,
                more=more,
            )
        )
    return tables


@dataclass
class Room:
    """Tables, the way their entries reach the app, and the two sign-ins they use."""

    transport: Transport
    tables: list[TableDealer]
    tokens: dict[str, str] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)

    def sign_in(self) -> None:
        """The floor's sign-in, and each table's dealer's."""
        self.tokens = {FLOOR["name"]: sign_in(self.transport, FLOOR)}
        for table in self.tables:
            self.tokens[table.dealer["name"]] = sign_in(self.transport, table.dealer)

    def send(self, table: TableDealer, entry: Entry) -> Answer:
        who = FLOOR["name"] if entry.who == "supervisor" else table.dealer["name"]
        request = Request(entry.method, entry.path, entry.body, self.tokens[who], entry.kind)
        return self.transport.send(request)

    def drive(self, table: TableDealer, entries: Generator[Entry, Answer, None]) -> None:
        """Send ``entries`` of ``table`` one after another, no waiting, until done."""
        try:
            entry = next(entries)
            while True:
                entry = entries.send(self.send(table, entry))
        except StopIteration:
            return
        except (Refused, Unanswered) as exc:
            self.errors.append(str(exc))

    def finish(self) -> dict[str, Any]:
        """Count every table's chips, then verify the ledger; return the verification."""
        recording = self.transport.figures.recording
        self.transport.figures.recording = False
        for table in self.tables:
            if table.table_id:
                self.drive(table, table.audit())
        verify = Request("GET", "/ledger/verify", token=self.tokens[FLOOR["name"]], kind="read")
        status, report = self.transport.send(verify)
        self.transport.figures.recording = recording
        if status != 200 or not report["ok"]:
            self.errors.append(f"ledger verify: {status} {report}")
        return report if isinstance(report, dict) else {}


def play_compressed(room: Room) -> None:
    """Every table's entries in simulated-time order, each sent once the one before is answered."""
    queue: list[tuple[float, int, Generator[Entry, Answer, None], Entry]] = []
    for index, table in enumerate(room.tables):
        entries = table.entries()
        heapq.heappush(queue, (0.0, index, entries, next(entries)))
    while queue:
        _, index, entries, entry = heapq.heappop(queue)
        try:
            following = entries.send(room.send(room.tables[index], entry))
        except StopIteration:
            continue
        except (Refused, Unanswered) as exc:
            room.errors.append(str(exc))
            continue
        heapq.heappush(queue, (room.tables[index].clock, index, entries, following))


SETUP_KINDS = frozenset(("setup", "session"))


def play_live(
    room: Room,
    seconds: float,
    speed: float = 1.0,
    warm_up: float = 0.0,
    window: Callable[[bool], None] | None = None,
) -> float:
    """One thread per table at its human pace (its gaps divided by ``speed``; 0 for none).

    Every table is set up first (untimed); they all play ``warm_up`` seconds (unrecorded, so
    that hands are under way), then ``seconds`` recorded. Return the recorded window's length.
    ``window(True)`` is called as the recorded window opens and ``window(False)`` as it closes
    (`bench.floor` meters the CPU there).
    """
    figures = room.transport.figures
    figures.recording = False
    released = threading.Event()
    ends: dict[str, float] = {}

    def release() -> None:  # run once, when every table is set up, before any goes on
        ends["end"] = time.monotonic() + warm_up + seconds
        released.set()

    ready = threading.Barrier(len(room.tables), action=release)

    def run(table: TableDealer) -> None:
        entries = table.entries()
        try:
            entry = next(entries)
            while entry.kind in SETUP_KINDS:
                entry = entries.send(room.send(table, entry))
        except (Refused, Unanswered) as exc:
            room.errors.append(str(exc))
            ready.abort()
            return
        try:
            ready.wait()
        except threading.BrokenBarrierError:
            return
        if speed:  # tables do not all start at once: each joins within one pace of the start
            time.sleep(table.rng.uniform(0, sum(table.pace.entry) / 2) / speed)
        try:
            while time.monotonic() < ends["end"]:
                if speed:
                    time.sleep(entry.after / speed)
                    if time.monotonic() >= ends["end"]:
                        break
                entry = entries.send(room.send(table, entry))
        except StopIteration:
            return
        except (Refused, Unanswered) as exc:
            room.errors.append(str(exc))

    threads = [threading.Thread(target=run, args=(t,), daemon=True) for t in room.tables]
    for thread in threads:
        thread.start()
    if released.wait(timeout=900):
        time.sleep(warm_up)
        figures.recording = True
        if window is not None:
            window(True)
        time.sleep(seconds)
        figures.recording = False
        if window is not None:
            window(False)
    for thread in threads:
        thread.join(timeout=900)
    return seconds


def percentile(values: list[float], share: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def summary(figures: Figures, seconds: float, kinds: Iterable[str] = ("event",)) -> dict[str, Any]:
    """Events per second, latency (ms) and errors of the sends recorded in ``figures``."""
    wanted = set(kinds)
    sends = [s for s in figures.sends if s[0] in wanted]
    ms = [s[1] for s in sends if s[2]]
    failed = [s for s in figures.sends if s[2] == 0 or s[2] >= 500]
    return {
        "events": len(sends),
        "events_per_s": len(sends) / seconds if seconds else 0.0,
        "p50_ms": percentile(ms, 0.50),
        "p99_ms": percentile(ms, 0.99),
        "mean_ms": statistics.fmean(ms) if ms else 0.0,
        "requests": len(figures.sends),
        "requests_per_s": len(figures.sends) / seconds if seconds else 0.0,
        "failed": len(failed),
        "retries": figures.retries,
    }


def in_process_room(uri: str, tables: list[TableDealer]) -> tuple[Room, Callable[[], None]]:
    """A room on the app in this process, on the migrated database ``uri``; and its closer."""
    from dealer import create_app
    from dealer.extensions import db

    # Every simulated dealer signs in from the test client's one address: no per-source limit.
    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": uri,
            "SECRET_KEY": SIMULATION_KEY,
            "SIGN_IN_ATTEMPTS_PER_MINUTE": 0,
        }
    )
    room = Room(InProcessTransport(app), tables)

    def close() -> None:
        with app.app_context():
            for engine in db.engines.values():
                engine.dispose()

    return room, close


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--hours", type=float, default=8.0, help="simulated hours per table")
    parser.add_argument("--database", help=f"fill this database (default {DEFAULT_DATABASE})")
    parser.add_argument("--url", help="a live server instead, e.g. http://127.0.0.1:8000")
    parser.add_argument("--profile", choices=("both", *PROFILES), default="both")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--live", action="store_true", help="one thread per table, real pace")
    parser.add_argument("--speed", type=float, default=1.0, help="live: pace divided by this")
    parser.add_argument("--seconds", type=float, default=60.0, help="live: wall time")
    parser.add_argument("--prepare-only", action="store_true", help="migrate, add people, stop")
    args = parser.parse_args()
    if args.prepare_only:
        prepare_database(args.database or DEFAULT_DATABASE, args.tables)
        return

    limit = args.hours * 3600
    tables = make_tables(
        args.tables, seed=args.seed, profile=args.profile, more=lambda t: t.clock < limit
    )
    close: Callable[[], None] = lambda: None  # noqa: E731
    if args.url:
        room = Room(HttpTransport(args.url), tables)
        where = args.url
    else:
        uri = args.database or DEFAULT_DATABASE
        if uri == DEFAULT_DATABASE:
            path = Path(uri.removeprefix("sqlite:///"))
            path.parent.mkdir(parents=True, exist_ok=True)
            for old in path.parent.glob(path.name + "*"):
                old.unlink()
        prepare_database(uri, args.tables)
        room, close = in_process_room(uri, tables)
        where = uri
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    room.sign_in()
    started = time.monotonic()
    try:
        if args.live:
            seconds = play_live(room, args.seconds, args.speed)
        else:
            play_compressed(room)
            seconds = time.monotonic() - started
        report = room.finish()
    finally:
        close()
    real = time.monotonic() - started
    shown = summary(room.transport.figures, seconds)
    simulated = max((t.clock for t in tables), default=0.0)
    hands = sum(t.tally.hands for t in tables)
    kinds: Counter[str] = Counter()
    for table in tables:
        kinds.update(table.tally.events)
    print(f"room: {len(tables)} tables at {where}; events by type: {dict(sorted(kinds.items()))}")
    for error in room.errors[:10]:
        print("ERROR", error)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(
        f"name=simulate tables={len(tables)} hands={hands} events={shown['events']} "
        f"requests={shown['requests']} seconds={real:.1f} "
        f"events_per_s={shown['events_per_s']:.1f} p50_ms={shown['p50_ms']:.1f} "
        f"p99_ms={shown['p99_ms']:.1f} simulated_hours={simulated / 3600:.2f} "
        f"compression={simulated / real if real else 0:.0f}x retries={shown['retries']} "
        f"entries={report.get('entries', 0)} verify_ok={report.get('ok', False)} "
        f"errors={len(room.errors) + shown['failed']}"
    )


if __name__ == "__main__":
    main()
