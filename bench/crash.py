"""SIGKILL the server under a load of retrying tablets: is every acknowledged write there,
exactly once, and does the ledger verify? (issue 10)

gunicorn serves the app as a floor runs it (gunicorn.conf.py), on SQLite and on PostgreSQL
(when one answers at DEALER_TEST_POSTGRES). ``--tablets`` threads buy chips in at a seat
each, through `bench.room.transport`'s client: every POST carries an Idempotency-Key, and a
tablet that gets no answer sends the same request again, same key, until the server is back
(as dealer.js's Resend does). Every ``--every`` seconds or so the whole server (master and
workers, its process group) is killed with SIGKILL, mid-write, and started again.

After each restart, in one read snapshot of the database:

- **lost**: a buy-in acknowledged (201) before the kill whose key has no record (the key's
  record is written in the same transaction as the ledger entry);
- **duplicated**: buy-in entries beyond the keys recorded for them (a retried request
  recorded twice would leave an entry without a key of its own);

and ``flask ledger verify`` (the chain, balances, every check) must answer ok.

    python -m bench.crash [--kills 12] [--every 2] [--tablets 4] [--database sqlite|postgresql|both]

Ends with ``kills=.. acked=.. lost=0 duplicated=0 verify=ok``.
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.orm import Session

from bench.room.server import REPO, free_port, migrate, postgres_database
from bench.room.transport import HttpTransport, Request, Unanswered, sign_in
from dealer.transactions import install, snapshot

OUT = Path(__file__).resolve().parent / "out"
FLOOR = {"name": "Cass Crash", "pin": "7391"}
#: How long a tablet keeps resending one entry before the run is called broken.
GIVE_UP = 120.0


class Server:
    """gunicorn on ``uri``, in a process group of its own so that a kill takes every worker."""

    def __init__(self, uri: str, env: dict[str, str], log: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {**env, "DATABASE_URL": uri, "HOST": "127.0.0.1", "PORT": str(self.port)}
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = [sys.executable, "-m", "gunicorn", "--config", str(REPO / "gunicorn.conf.py")]
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                command,
                cwd=REPO,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + 60
        import urllib.request

        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited: {self.log.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=2) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("gunicorn did not come up within 60 s")

    def kill(self) -> None:
        """SIGKILL the master and every worker at once: no graceful anything."""
        assert self.process is not None
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()


@dataclass
class Tablets:
    """``count`` tablets buying in at one seat each, keeping what was acknowledged."""

    url: str
    token: str
    table: int
    count: int
    acked: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)

    def run(self, tablet: int) -> None:
        transport = HttpTransport(self.url, timeout=10)
        transport.figures.recording = False
        try:
            self.buy_in(transport, tablet)
        finally:
            transport.close()

    def buy_in(self, transport: HttpTransport, tablet: int) -> None:
        sent = 0
        while not self.stop.is_set():
            sent += 1
            key = f"t{tablet}-{sent}-{secrets.token_hex(4)}"
            body = {"kind": "buy_in", "amount": 1 + sent % 25}
            path = f"/tables/{self.table}/seats/{tablet}/chips"
            request = Request("POST", path, body, self.token, "chips", key)
            deadline = time.monotonic() + GIVE_UP
            while True:
                try:
                    status, answer = transport.send(request)
                except Unanswered:
                    if time.monotonic() > deadline:
                        self.errors.append(f"{key}: no answer for {GIVE_UP:.0f} s")
                        return
                    time.sleep(0.2)  # the server is down: the same entry, same key, again
                    continue
                break
            if status != 201:
                self.errors.append(f"{key}: {status} {answer}")
                return
            self.acked.append(key)

    @contextmanager
    def running(self) -> Iterator[Tablets]:
        threads = [
            threading.Thread(target=self.run, args=(n,), daemon=True)
            for n in range(1, self.count + 1)
        ]
        for thread in threads:
            thread.start()
        try:
            yield self
        finally:
            self.stop.set()
            for thread in threads:
                thread.join(timeout=GIVE_UP + 30)


def count(uri: str, acked: list[str]) -> tuple[int, int]:
    """``(lost, duplicated)`` in one read snapshot: acknowledged keys with no record, and
    buy-in entries beyond the keyed buy-ins recorded."""
    # The app's own snapshot: REPEATABLE READ on PostgreSQL, and on SQLite a BEGIN of its
    # own (pysqlite begins none for a SELECT, and buy-ins made between two reads would count
    # as duplicates).
    engine = sa.create_engine(uri)
    install(engine)
    try:
        with Session(engine) as opened, snapshot(opened) as session:
            keys = set(
                session.scalars(
                    sa.text(
                        "SELECT key FROM idempotency_records WHERE method = 'POST' "
                        "AND (path LIKE '%/chips' OR path LIKE '%/seats')"
                    )
                )
            )
            entries = session.scalar(
                sa.text("SELECT count(*) FROM ledger_entries WHERE from_account = 'cage'")
            )
    finally:
        engine.dispose()
    lost = sum(1 for key in acked if key not in keys)
    return lost, int(entries or 0) - len(keys)


def verify(uri: str, env: dict[str, str]) -> bool:
    command = [sys.executable, "-m", "flask", "--app", "dealer", "ledger", "verify"]
    result = subprocess.run(
        command, cwd=REPO, env={**env, "DATABASE_URL": uri}, capture_output=True, text=True
    )
    if result.returncode != 0:
        print(result.stdout[-2000:], result.stderr[-2000:])
    return result.returncode == 0


def add_floor(uri: str, env: dict[str, str]) -> None:
    command = [sys.executable, "-m", "flask", "--app", "dealer", "users", "add"]
    command += [FLOOR["name"], "--role", "supervisor", "--pin", FLOOR["pin"]]
    env = {**env, "DATABASE_URL": uri}
    subprocess.run(command, cwd=REPO, env=env, check=True, capture_output=True)


@dataclass
class Outcome:
    kills: int = 0
    acked: int = 0
    lost: int = 0
    duplicated: int = 0
    verified: bool = True
    errors: list[str] = field(default_factory=list)


def crash(uri: str, label: str, kills: int, every: float, tablets: int) -> Outcome:
    """``kills`` SIGKILLs of the server on ``uri`` under ``tablets`` tablets' buy-ins."""
    env = {
        **os.environ,
        "SECRET_KEY": secrets.token_hex(32),
        "LEDGER_KEY": secrets.token_hex(32),
        "CHECKPOINT_FILE": str(OUT / f"crash-{label}-checkpoints.jsonl"),
    }
    OUT.mkdir(exist_ok=True)
    log = OUT / f"crash-{label}.log"
    log.write_bytes(b"")
    Path(env["CHECKPOINT_FILE"]).unlink(missing_ok=True)
    migrate(uri)
    add_floor(uri, env)
    server = Server(uri, env, log)
    outcome = Outcome()
    server.start()
    try:
        transport = HttpTransport(server.url, timeout=10)
        token = sign_in(transport, FLOOR)
        status, table = transport.send(
            Request("POST", "/tables", {"name": "Crash", "profile": "classic"}, token)
        )
        assert status == 201, table
        for seat in range(1, tablets + 1):
            body = {"seat": seat, "player": f"Player {seat}", "buy_in": 100}
            path = f"/tables/{table['id']}/seats"
            status, answer = transport.send(Request("POST", path, body, token))
            assert status == 201, answer
        transport.close()
        load = Tablets(server.url, token, table["id"], tablets)
        with load.running():
            for _ in range(kills):
                time.sleep(every * random.uniform(0.5, 1.5))
                acked_before = list(load.acked)
                server.kill()
                outcome.kills += 1
                server.start()
                lost, duplicated = count(uri, acked_before)
                outcome.lost += lost
                outcome.duplicated = max(outcome.duplicated, duplicated)
                outcome.verified &= verify(uri, env)
                print(
                    f"  {label} kill {outcome.kills}: acked {len(acked_before)} "
                    f"lost {lost} duplicated {duplicated}",
                    flush=True,
                )
            time.sleep(every / 2)
        lost, duplicated = count(uri, list(load.acked))
        outcome.lost = max(outcome.lost, lost)
        outcome.duplicated = max(outcome.duplicated, duplicated)
        outcome.verified &= verify(uri, env)
        outcome.acked = len(load.acked)
        outcome.errors = load.errors
    finally:
        server.stop()
    return outcome


def main(argv: list[str] | None = None) -> Outcome:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=12, help="SIGKILLs per database")
    parser.add_argument("--every", type=float, default=2.0, help="seconds between kills")
    parser.add_argument("--tablets", type=int, default=4, help="tablets buying in at once")
    parser.add_argument("--database", choices=("sqlite", "postgresql", "both"), default="both")
    args = parser.parse_args(argv)
    total = Outcome()
    with ExitStack() as stack:
        runs: list[tuple[str, str]] = []
        if args.database in ("sqlite", "both"):
            folder = stack.enter_context(tempfile.TemporaryDirectory())
            runs.append(("sqlite", f"sqlite:///{folder}/crash.sqlite3"))
        if args.database in ("postgresql", "both"):
            postgres = stack.enter_context(postgres_database())
            if postgres is not None:
                runs.append(("postgresql", postgres))
        for label, uri in runs:
            outcome = crash(uri, label, args.kills, args.every, args.tablets)
            print(
                f"{label}: kills={outcome.kills} acked={outcome.acked} lost={outcome.lost} "
                f"duplicated={outcome.duplicated} verify={'ok' if outcome.verified else 'FAILED'}"
                + (f" errors={outcome.errors[:3]}" if outcome.errors else "")
            )
            total.kills += outcome.kills
            total.acked += outcome.acked
            total.lost += outcome.lost
            total.duplicated += outcome.duplicated
            total.verified &= outcome.verified
            total.errors += outcome.errors
    print(
        f"kills={total.kills} acked={total.acked} lost={total.lost} "
        f"duplicated={total.duplicated} verify={'ok' if total.verified else 'FAILED'}"
    )
    return total


if __name__ == "__main__":
    # A broken guarantee stops `make bench`: an entry lost or recorded twice, a ledger that
    # does not verify, a tablet that gave up.
    ended = main()
    sys.exit(0 if ended.verified and not (ended.lost or ended.duplicated or ended.errors) else 1)
