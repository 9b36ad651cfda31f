"""How long each write of a served floor holds the writers' lock (`dealer.write_locks`), timed
inside gunicorn's workers: from the lock's statement answered to the commit done (or the
rollback), as `bench.api` times it for one writer, but kept per thread, since a worker serves
many writes at once. An event's lock statement is answered in one round trip with the read of
its place that follows it (`dealer.transactions.writers_first`): that read, a few index
lookups, is held but not timed.

`bench.floor` starts gunicorn with ``measured.conf.py`` (gunicorn.conf.py's settings and a
hook that calls `install` in each worker) and DEALER_BENCH_HOLDS naming a folder; each worker
appends a line per hold to ``holds-PID.txt`` there: the hold's end on the machine's monotonic
clock (which the bench's own ``time.monotonic()`` reads too) and its length in milliseconds.
`read` gives a window's holds back.
"""

from __future__ import annotations

import gc
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from dealer.write_locks import TAKE_WRITERS

__all__ = ["FOLDER", "install", "pauses", "read"]

#: The environment variable naming the folder the workers write their holds to.
FOLDER = "DEALER_BENCH_HOLDS"
#: The statements that take the writers' lock: the advisory lock on PostgreSQL, SQLite's
#: BEGIN IMMEDIATE.
LOCKS = (TAKE_WRITERS, "BEGIN IMMEDIATE")


def install(folder: str) -> Callable[[], None]:
    """Time this process's holds of the writers' lock, and its collector's full passes (every
    thread of the process stopped), into ``folder``; returns what stops it."""
    out = (Path(folder) / f"holds-{os.getpid()}.txt").open("a", buffering=1)
    passes = (Path(folder) / f"pauses-{os.getpid()}.txt").open("a", buffering=1)
    writing = threading.Lock()
    local = threading.local()
    began = [0.0]

    def collecting(phase: str, info: dict[str, int]) -> None:
        # Called with the GIL held, in whichever thread set the pass off: no other runs.
        now = time.monotonic()
        if phase == "start":
            began[0] = now
        elif info["generation"] == 2:
            passes.write(f"{now:.6f} {1000 * (now - began[0]):.3f}\n")

    def answered(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        # Taken once a transaction (`dealer.transactions.require_writing`): a hold begins each
        # time, so a write that ended unseen (a connection cut and thrown away) times nothing.
        if any(lock in statement for lock in LOCKS):
            local.locked = time.monotonic()

    def ended(_session: Session) -> None:
        locked, local.locked = getattr(local, "locked", None), None
        if locked is not None:
            now = time.monotonic()
            with writing:
                out.write(f"{now:.6f} {1000 * (now - locked):.3f}\n")

    listeners = [
        (sa.engine.Engine, "after_cursor_execute", answered),
        (Session, "after_commit", ended),
        (Session, "after_rollback", ended),
    ]
    for listener in listeners:
        sa.event.listen(*listener)
    gc.callbacks.append(collecting)

    def stop() -> None:
        for listener in listeners:
            sa.event.remove(*listener)
        gc.callbacks.remove(collecting)
        out.close()
        passes.close()

    return stop


def read(folder: Path, start: float, end: float, kind: str = "holds") -> list[float]:
    """The lengths (ms) of the holds that ended between ``start`` and ``end``, every worker's
    (``kind`` "pauses": of the collector's full passes)."""
    held = []
    for path in folder.glob(f"{kind}-*.txt"):
        for line in path.read_text().splitlines():
            at, ms = line.split()
            if start <= float(at) <= end:
                held.append(float(ms))
    return held


def pauses(folder: Path, start: float, end: float) -> list[float]:
    """The lengths (ms) of the collector's full passes that ended between ``start`` and
    ``end``, every worker's."""
    return read(folder, start, end, "pauses")
