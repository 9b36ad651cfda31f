"""Benchmark: the shift ledger PDF of a busy shift, against a bare ReportLab table of its hands.

A synthetic shift of 40 tables x 8 hours x 30 hands an hour (9,600 hands) is built as a
``ShiftReport``; each hand's figures come from the rules engine (seed 000's hand, the seats
turned). Issue 5's target: ``shift_pdf`` under 15 s and 400 MB peak, within 2x of the baseline,
a bare ``Table`` of the same rows. Each build runs in a forked child so that its peak resident
memory is its own. ``measure_shift_pdf`` takes any ``ShiftReport``: once the ledger exists, the
same timing runs on a shift read from the database.

Besides the bare table (as the issue defines it: ReportLab measures every cell and re-splits
the rest of the table at each page) it times a tuned one (column widths and row heights given),
and prints ``vs_tuned`` too: the shift PDF also holds the players, the accounts and two charts.

    python bench/reports.py [--tables 40] [--hours 8] [--per-hour 30] [--pdf bench/out/shift.pdf]
"""

from __future__ import annotations

import argparse
import io
import multiprocessing
import resource
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path

from reportlab.lib.pagesizes import letter
from reportlab.platypus import SimpleDocTemplate, Table

from dealer.reports import (
    Amount,
    ChainCheck,
    HourDrop,
    PlayerTotal,
    PrintOptions,
    ShiftHand,
    ShiftReport,
    ShiftTable,
    TrialLine,
    shift_pdf,
)
from dealer.reports.shift import hand_rows
from dealer.rules import HOUSE, Hand, action_from_dict, make_collection, make_rules

NAMES = ("Ana", "Bea", "Cruz", "Dev", "Eli", "Fay")
CHIP_VALUES = (25, 50, 100, 500)
START = datetime(2024, 5, 3, 18, 0, tzinfo=UTC)


@cache
def played(winner: int, dropper: int) -> dict[object, int]:
    """The nets of seed 000's hand with ``winner`` going out and ``dropper`` dropping."""
    hand = Hand(
        make_rules("classic"), range(1, 7), make_collection({"kind": "per_hand", "chips": 1})
    )
    hand.apply(action_from_dict({"type": "drop", "seat": dropper}))
    for cards in (["5S", "5S", "5S"], ["JH", "QH", "KH"], ["2C", "3C", "4C", "5C", "6C"]):
        hand.apply(action_from_dict({"type": "meld", "seat": winner, "cards": cards}))
    hand.apply(action_from_dict({"type": "go_out", "seat": winner}))
    return {**hand.net, "payments": len(hand.payments)}


def synthetic_shift(tables: int = 40, hours: int = 8, per_hour: int = 30) -> ShiftReport:
    """A shift of ``tables`` x ``hours`` x ``per_hour`` hands, six players a table."""
    table_lines, hand_lines, players, trial = [], [], [], []
    by_hour = [Amount() for _ in range(hours)]
    entries = 0
    gap = timedelta(minutes=60 / per_hour)
    for t in range(1, tables + 1):
        name, value = f"Table {t:02d}", CHIP_VALUES[t % len(CHIP_VALUES)]
        net = dict.fromkeys(range(1, 7), 0)
        drop = voids = number = 0
        for hour in range(hours):
            for k in range(per_hour):
                number += 1
                at = START + timedelta(hours=hour) + gap * (k + 1)
                if number % 50 == 0:  # a misdeal now and then: voided, nothing moves
                    voids += 1
                    hand_lines.append(ShiftHand(name, number, None, "void", None, 6, 0, 0))
                    continue
                winner, dropper = (number + t) % 6 + 1, (number + t + 3) % 6 + 1
                result = played(winner, dropper)
                for seat in net:
                    net[seat] += result[seat]
                drop += result[HOUSE]
                entries += result["payments"]
                by_hour[hour] += Amount.of(result[HOUSE], value)
                who = f"{winner} {NAMES[winner - 1]} T{t}"
                hand_lines.append(
                    ShiftHand(name, number, at, "settled", who, 6, result[winner], result[HOUSE])
                )
        table_lines.append(ShiftTable(name, value, number, drop, voids))
        for seat, chips in net.items():
            buy_in = 1000
            players.append(
                PlayerTotal(
                    f"{NAMES[seat - 1]} T{t}",
                    (name,),
                    number - voids,
                    Amount.of(buy_in, value),
                    Amount.of(buy_in + chips, value),
                    Amount.of(chips, value),
                )
            )
            won, lost = max(chips, 0), max(-chips, 0)
            trial.append(TrialLine(f"{name} seat {seat}", won, lost))
        trial.append(TrialLine(f"{name} house", drop, 0))
    return ShiftReport(
        window_from=START,
        window_to=START + timedelta(hours=hours),
        tables=tuple(table_lines),
        players=tuple(players),
        drop_by_hour=tuple(
            HourDrop(START + timedelta(hours=h), amount) for h, amount in enumerate(by_hour)
        ),
        trial_balance=tuple(trial),
        chain=ChainCheck(ok=True, entries=entries, head="5e" * 32),
        hands=tuple(hand_lines),
    )


def bare_table_pdf(report: ShiftReport, options: PrintOptions, tuned: bool = False) -> bytes:
    """The baseline: the shift's hand rows as one bare ReportLab table, header repeated.

    ``tuned`` gives ReportLab the column widths and row heights, which spares it measuring
    every cell: the fastest one plain table can be.
    """
    header, rows = hand_rows(report, options)
    data = [header, *rows]
    sizes = {"colWidths": [72, 30, 60, 40, 80, 28, 90, 70], "rowHeights": 12} if tuned else {}
    out = io.BytesIO()
    SimpleDocTemplate(out, pagesize=letter).build([Table(data, repeatRows=1, **sizes)])
    return out.getvalue()


@dataclass(frozen=True)
class Figures:
    seconds: float
    peak_mb: float
    size_kb: float


def _child(build: Callable[[], bytes], pipe: object, keep: str | None) -> None:
    started = time.perf_counter()
    data = build()
    seconds = time.perf_counter() - started
    if keep:
        Path(keep).parent.mkdir(parents=True, exist_ok=True)
        Path(keep).write_bytes(data)
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    pipe.send(Figures(seconds, peak_kb / 1024, len(data) / 1024))  # type: ignore[attr-defined]


def measure(build: Callable[[], bytes], keep: str | None = None) -> Figures:
    """Time ``build`` in a forked child; its peak resident memory is the build's own high-water."""
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_child, args=(build, send, keep))
    child.start()
    figures: Figures = receive.recv()
    child.join()
    return figures


def measure_shift_pdf(
    report: ShiftReport, options: PrintOptions | None = None, keep: str | None = None
) -> tuple[Figures, Figures, Figures]:
    """Figures for the shift PDF, the bare table and the tuned bare table, for any shift."""
    options = options or PrintOptions()
    ours = measure(lambda: shift_pdf(report, options), keep)
    baseline = measure(lambda: bare_table_pdf(report, options))
    tuned = measure(lambda: bare_table_pdf(report, options, tuned=True))
    return ours, baseline, tuned


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--hours", type=int, default=8)
    parser.add_argument("--per-hour", type=int, default=30)
    parser.add_argument("--pdf", help="keep the shift PDF here (bench/out/ is git-ignored)")
    args = parser.parse_args()

    started = time.perf_counter()
    report = synthetic_shift(args.tables, args.hours, args.per_hour)
    made = time.perf_counter() - started
    size = f"{len(report.hands)} hands, {len(report.players)} players"
    print(f"synthetic shift: {size}, {len(report.trial_balance)} accounts in {made:.1f} s")
    ours, baseline, tuned = measure_shift_pdf(report, keep=args.pdf)
    ratio = ours.seconds / baseline.seconds
    for name, f in (("shift_pdf", ours), ("bare table", baseline), ("tuned table", tuned)):
        print(f"{name + ':':12} {f.seconds:6.2f} s  peak {f.peak_mb:5.0f} MB  {f.size_kb:6.0f} KB")
    ok = ours.seconds < 15 and ours.peak_mb < 400 and ratio <= 2
    print(f"target (< 15 s, < 400 MB, <= 2x the bare table): {'met' if ok else 'MISSED'}")
    print(
        f"hands={len(report.hands)} shift_pdf_s={ours.seconds:.1f} peak_mb={ours.peak_mb:.0f} "
        f"vs_baseline={ratio:.2f} baseline_s={baseline.seconds:.1f} "
        f"vs_tuned={ours.seconds / tuned.seconds:.2f}"
    )


if __name__ == "__main__":
    main()
