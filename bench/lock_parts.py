"""What an event does while it holds the writers' lock, part by part.

`bench.api` gives the whole hold (``lock_held_ms``) and splits off the driver's time; on a
busy machine two runs of it differ by more than one part's worth. This times each part
itself around its call (`time.perf_counter`) over `bench.api`'s event rounds (hands of a
deal, three melds and a going out, each post keyed), on PostgreSQL (SQLite with
``--database sqlite``), and gives each part's milliseconds per post:

- ``place_ms``: the lock taken and the event's id and the chains' heads read (on PostgreSQL
  one round trip), its time read and its row queued;
- ``shift_ms``: the shift's beginning sealed (`seal_shift_end`: the event's own call; its
  links' call is in ``links_ms``);
- ``marks_ms``: the screens' live marks queued (`live.touch`);
- ``entries_ms``: the entries' seqs and sha256 chain (`post.chain`);
- ``links_ms``: the keyed links' HMACs (`link_event`);
- ``answer_ms``: the answer drawn before the lock, its late numbers put in (`Late.filled`);
- ``commit_ms``: every row queued sent with the commit (`write_behind`: on PostgreSQL one
  round trip, the commit's own wait included).

    python -m bench.lock_parts [--hands 60] [--database postgresql|sqlite]

A hand's start (a write of its own) is counted in the posts; its parts are in the figures.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bench.api import EventPath
from bench.room.server import migrate, postgres_database
from dealer import live, write_behind
from dealer.hands import rows
from dealer.views.recorded import Late

#: Each part: its name, and where its function is looked up when called (module or class,
#: attribute). Each is timed around one call site, so no time is counted twice.
PARTS: dict[str, tuple[Any, str]] = {
    "place": (rows, "_insert_event"),
    "shift": (rows, "seal_shift_end"),
    "marks": (live, "touch"),
    "entries": (rows, "chain"),
    "links": (rows, "link_event"),
    "answer": (Late, "filled"),
    # The queue sent with the commit (`write_behind._before_commit`), not a read's pipeline.
    "commit": (write_behind, "_sent"),
}
#: A part timed only on the calls that are it.
ONLY = {"commit": lambda *args, commit=False: commit}


@contextmanager
def timing(spent: dict[str, float]) -> Iterator[None]:
    """Add each part's seconds to ``spent`` while inside."""
    saved = [(owner, name, getattr(owner, name)) for owner, name in PARTS.values()]
    for part, (owner, name) in PARTS.items():
        setattr(owner, name, _timed(getattr(owner, name), part, spent))
    try:
        yield
    finally:
        for owner, name, real in saved:
            setattr(owner, name, real)


def _timed(real: Callable[..., Any], part: str, spent: dict[str, float]) -> Callable[..., Any]:
    counted = ONLY.get(part, lambda *args, **kwargs: True)

    def timed(*args: Any, **kwargs: Any) -> Any:
        if not counted(*args, **kwargs):
            return real(*args, **kwargs)
        started = time.perf_counter()
        try:
            return real(*args, **kwargs)
        finally:
            spent[part] += time.perf_counter() - started

    return timed


def measure(uri: str, hands: int) -> dict[str, float]:
    """Each part's milliseconds per post over ``hands`` hands played on ``uri``."""
    migrate(uri)
    path = EventPath(uri)
    try:
        path.hands(3)  # warm up: imports, first connections, compiled statements
        spent = dict.fromkeys(PARTS, 0.0)
        with timing(spent):
            posts = path.hands(hands)
    finally:
        path.close()
    return {part: 1000 * seconds / posts for part, seconds in spent.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=60)
    parser.add_argument("--database", choices=("postgresql", "sqlite"), default="postgresql")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder, postgres_database() as server:
        if args.database == "sqlite":
            server = f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        if server is None:
            print("name=lock_parts skipped=no_postgresql")
            return
        parts = measure(server, args.hands)
    for part, ms in parts.items():
        print(f"{part:>8}: {ms:.3f} ms a post")
    python = sum(ms for part, ms in parts.items() if part not in ("place", "commit"))
    print(
        f"name=lock_parts database={args.database} hands={args.hands} "
        + " ".join(f"{part}_ms={ms:.3f}" for part, ms in parts.items())
        + f" python_parts_ms={python:.3f}"
    )


if __name__ == "__main__":
    main()
