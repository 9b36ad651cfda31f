"""What the benchmarks and the serving test run the app on: a migrated database (a throwaway
PostgreSQL one when a server answers), and gunicorn as production runs it (gunicorn.conf.py),
on a port of its own, waited for until /healthz answers and stopped afterwards."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psutil
import psycopg
from sqlalchemy.engine import make_url

__all__ = ["cpu_seconds", "gunicorn", "migrate", "postgres_database", "server_processes"]

REPO = Path(__file__).resolve().parents[2]
POSTGRES = os.environ.get(
    "DEALER_TEST_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
)


def migrate(uri: str) -> None:
    """`flask --app dealer db upgrade` on ``uri``, in a fresh process."""
    env = {
        **os.environ,
        "DATABASE_URL": uri,
        "SECRET_KEY": "a key for a bench that lives for one run",
    }
    command = [sys.executable, "-m", "flask", "--app", "dealer", "db", "upgrade"]
    subprocess.run(command, cwd=REPO, env=env, check=True, capture_output=True)


def connect(uri: str, **options: Any) -> psycopg.Connection[Any]:
    """A psycopg connection, autocommitting, to the database a SQLAlchemy URL names."""
    url = make_url(uri)
    return psycopg.connect(
        host=url.host,
        port=url.port or 5432,
        user=url.username,
        dbname=url.database or "postgres",
        autocommit=True,
        **options,
    )


@contextmanager
def postgres_database() -> Iterator[str | None]:
    """A throwaway database on the PostgreSQL at DEALER_TEST_POSTGRES (dropped afterwards);
    None when no server answers."""
    url = make_url(POSTGRES)
    try:
        admin = connect(POSTGRES, connect_timeout=3)
    except psycopg.OperationalError as exc:
        print(f"PostgreSQL skipped: nothing answers at {POSTGRES} ({exc})")
        yield None
        return
    name = f"dealer_bench_{uuid.uuid4().hex[:8]}"
    admin.execute(f'CREATE DATABASE "{name}"')  # type: ignore[arg-type]
    try:
        yield url.set(database=name).render_as_string(hide_password=False)
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')  # type: ignore[arg-type]
        admin.close()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _wait_until_up(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"gunicorn exited ({process.returncode}): {log.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"gunicorn did not answer within 60 s: {log.read_text()[-2000:]}")


@contextmanager
def gunicorn(
    uri: str,
    log: Path,
    *,
    workers: int | None = None,
    threads: int | None = None,
    options: Sequence[str] = (),
    ledger_key: str | None = None,
    checkpoint_file: Path | None = None,
    config: Path = REPO / "gunicorn.conf.py",
    environ: dict[str, str] | None = None,
) -> Iterator[str]:
    """Serve the app on ``uri`` from 127.0.0.1 with gunicorn.conf.py; yield its base URL.

    ``workers`` and ``threads`` override the machine's choice (WEB_CONCURRENCY,
    DEALER_THREADS); ``options`` are more gunicorn flags. Its output goes to ``log``.
    ``ledger_key``: the key of whoever prepared the database in-process (its people's audit
    records are linked under it), when it is not the environment's or the instance's;
    ``checkpoint_file``: where that preparation filed its checkpoints, likewise.
    """
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": uri,
        "SECRET_KEY": os.environ.get("SECRET_KEY", "a key for a server that lives for one run"),
        "HOST": "127.0.0.1",
        "PORT": str(port),
        # Every simulated tablet signs in from 127.0.0.1: the per-source limit on sign-in
        # tries (60 a minute, for one real tablet) is lifted unless the caller sets one.
        "DEALER_SIGN_IN_ATTEMPTS_PER_MINUTE": os.environ.get(
            "DEALER_SIGN_IN_ATTEMPTS_PER_MINUTE", "0"
        ),
        **(environ or {}),
    }
    if ledger_key is not None:
        env["LEDGER_KEY"] = ledger_key
    if checkpoint_file is not None:
        env["CHECKPOINT_FILE"] = str(checkpoint_file)
    if workers is not None:
        env["WEB_CONCURRENCY"] = str(workers)
    if threads is not None:
        env["DEALER_THREADS"] = str(threads)
    command = [sys.executable, "-m", "gunicorn", "--config", str(config)]
    with log.open("wb") as out:
        process = subprocess.Popen(
            [*command, *options], cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT
        )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(url, process, log)
        yield url
    finally:
        process.send_signal(signal.SIGINT)  # a quick shutdown: nothing here needs a graceful one
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def server_processes() -> list[psutil.Process]:
    """gunicorn's master and workers: this process's children running gunicorn."""
    return [
        p for p in psutil.Process().children(recursive=True) if "gunicorn" in " ".join(p.cmdline())
    ]


def cpu_seconds(processes: list[psutil.Process]) -> float:
    """The CPU seconds (user and system) ``processes`` have used so far."""
    total = 0.0
    for process in processes:
        try:
            times = process.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += times.user + times.system
    return total
