"""Benchmark: checking a shift costs what the shift holds, not what the room has ever recorded.

The same busy shift (``bench/reports.py``'s: 40 tables x 8 hours x 30 hands, about 230,000
ledger entries) is played into two SQLite databases, on top of 1 and of 10 earlier shifts of
the same room (a shift every ``hours`` + 2 hours: no window overlaps another). After each
earlier shift the checks run and file a checked checkpoint, as that shift's report does on the
floor. Then, for the last shift, each in a forked child and the best of ``--repeat`` runs:

- ``verify``: `ledger verify` (from the last good checkpoint);
- ``shift_pdf``: the shift report as the app makes it: its checks over its window and what came
  after the last checkpoint, its figures summed by the database, the checkpoint it files, and
  the PDF (the checkpoint file is put back after each run, so every run does the same work).

Target (issue 11): ``growth = shift_pdf_10x_s / shift_pdf_1x_s <= 1.3``; ``verify_growth`` is
the same ratio for ``verify``. Wall seconds are measured (CPU seconds printed too: the machine
may be busy). It ends with a line such as
``shift_pdf_1x_s=.. shift_pdf_10x_s=.. growth=.. verify_1x_s=.. verify_10x_s=.. ...``.

    python -m bench.history [--tables 40] [--hours 8] [--per-hour 30] [--repeat 3]
                            [--out bench/out]
"""

from __future__ import annotations

import argparse
import logging
import time
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from flask_migrate import upgrade

from bench.reports import (
    START,
    Figures,
    Ids,
    bench_app,
    busy,
    chain_links,
    fresh_database,
    insert_shift,
    ledger_rows,
    measure,
    play_shift,
    seal_identities,
    shift_from_database,
)
from dealer.extensions import db
from dealer.ledger import verify
from dealer.ledger.keys import current_key
from dealer.ledger.verification import checkpoint_report
from dealer.models import ChainLink
from dealer.reports.pages import PrintOptions
from dealer.transactions import snapshot


def build_history(
    path: Path, before: int, tables: int, hours: int, per_hour: int
) -> dict[str, Any]:
    """``before`` earlier shifts, each checked and checkpointed, then the measured shift (not)."""
    app = fresh_database(path)
    spacing = timedelta(hours=hours + 2)
    entries = 0
    with app.app_context():
        logging.disable(logging.INFO)  # Alembic's "Running upgrade ..." lines
        upgrade()
        logging.disable(logging.NOTSET)
        ids = Ids()
        key = current_key(db.session())
        for n in range(before, -1, -1):  # n shifts before the measured one; 0 is the measured
            shift = play_shift(tables, hours, per_hour, START - n * spacing, ids)
            rows = ledger_rows(shift.postings, ids)
            links = chain_links(shift, rows, ids, key)
            with db.engine.begin() as connection:
                insert_shift(connection, shift, rows, links)
            seal_identities()
            entries += len(rows)
            del shift, rows, links
            if n:
                with snapshot(db.session()) as session:
                    report = verify(session)
                    if not report.ok:
                        raise RuntimeError(f"shift -{n} does not check: {report.problems[:3]}")
                    checkpoint_report(session, report, f"bench: end of shift -{n}")
                # The next shift's links go on from the chain's head: the identities' versions
                # and the checkpoint's record were linked after this shift's own links.
                head = (
                    db.session()
                    .execute(
                        sa.select(ChainLink.seq, ChainLink.hash)
                        .order_by(ChainLink.seq.desc())
                        .limit(1)
                    )
                    .one()
                )
                ids.links, ids.link_hash = head.seq, head.hash
                db.session().rollback()
        db.engine.dispose()
    return {"entries": entries, "mb": path.stat().st_size / 2**20}


def timed_verify(path: Path) -> Any:
    def build() -> tuple[bytes, dict[str, Any]]:
        app = bench_app(path)
        with app.app_context(), snapshot(db.session()) as session:
            report = verify(session)
        hands = f"{report.hands_checked} hands ({report.hands} replayed)"
        return b"", {"ok": report.ok, "links": report.links, "hands": hands}

    return build


@dataclass
class Run:
    """The best of the repeats of one measurement, and what the last one sent back."""

    seconds: float
    cpu_seconds: float
    peak_mb: float
    extra: dict[str, Any]


def best(build: Any, repeat: int, checkpoints: Path) -> Run:
    """``build`` run ``repeat`` times, the checkpoint file put back after each; the fastest."""
    kept = checkpoints.read_bytes()
    runs: list[Figures] = []
    for _ in range(repeat):
        runs.append(measure(build))
        checkpoints.write_bytes(kept)
    fastest = min(runs, key=lambda f: f.seconds)
    return Run(
        fastest.seconds,
        min(f.cpu_seconds for f in runs),
        max(f.peak_mb for f in runs),
        runs[-1].extra,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--hours", type=int, default=8)
    parser.add_argument("--per-hour", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", default="bench/out", help="where the databases are built")
    args = parser.parse_args()
    started = time.perf_counter()
    out = Path(args.out).resolve()
    window = (START - timedelta(minutes=30), START + timedelta(hours=args.hours, minutes=30))
    figures: dict[str, float] = {}
    for before in (1, 10):
        path = out / f"history-{before}x.sqlite3"
        checkpoints = path.with_name(path.name + ".checkpoints.jsonl")
        size = (args.tables, args.hours, args.per_hour)
        built = measure(lambda: (b"", build_history(path, before, *size)))  # noqa: B023
        history = built.extra
        print(
            f"{before:2d}x: {before} earlier shift(s) and the measured one: "
            f"{history['entries']} ledger entries, {history['mb']:.0f} MB, built and "
            f"checkpointed in {built.seconds:.0f} s"
        )
        checked = best(timed_verify(path), args.repeat, checkpoints)
        report = best(shift_from_database(path, window, PrintOptions()), args.repeat, checkpoints)
        shift = report.extra["report"]
        print(
            f"     verify: {checked.seconds:6.2f} s ({checked.cpu_seconds:5.2f} s CPU) over "
            f"{checked.extra['links']} links, {checked.extra['hands']}; "
            f"{'OK' if checked.extra['ok'] else 'PROBLEMS'}"
        )
        print(
            f"     shift_pdf: {report.seconds:6.2f} s ({report.cpu_seconds:5.2f} s CPU), peak "
            f"{report.peak_mb:.0f} MB: {len(shift.hands)} hands, chain "
            f"{'OK' if shift.chain.ok else 'FAILED'}, {len(shift.problems)} problems, "
            f"gathering {report.extra['gather_s']:.2f} s"
        )
        figures[f"verify_{before}x_s"] = checked.seconds
        figures[f"verify_{before}x_cpu_s"] = checked.cpu_seconds
        figures[f"shift_pdf_{before}x_s"] = report.seconds
        figures[f"shift_pdf_{before}x_cpu_s"] = report.cpu_seconds
        figures[f"entries_{before}x"] = history["entries"]
    growth = figures["shift_pdf_10x_s"] / figures["shift_pdf_1x_s"]
    verify_growth = figures["verify_10x_s"] / figures["verify_1x_s"]
    cpu_growth = figures["shift_pdf_10x_cpu_s"] / figures["shift_pdf_1x_cpu_s"]
    verdict = "met" if growth <= 1.3 else "MISSED"
    print(f"target (the shift report grows <= 1.3 from 1x to 10x history): {verdict}")
    busy()
    print(
        f"shift_pdf_1x_s={figures['shift_pdf_1x_s']:.2f} "
        f"shift_pdf_10x_s={figures['shift_pdf_10x_s']:.2f} growth={growth:.2f} "
        f"verify_1x_s={figures['verify_1x_s']:.2f} verify_10x_s={figures['verify_10x_s']:.2f} "
        f"verify_growth={verify_growth:.2f} cpu_growth={cpu_growth:.2f} "
        f"entries_1x={figures['entries_1x']:.0f} entries_10x={figures['entries_10x']:.0f} "
        f"run_s={time.perf_counter() - started:.0f}"
    )


if __name__ == "__main__":
    main()
