"""The disputes a document lists (the hand slip, the session and shift reports): how many, how
many still open, and each one with its ruling."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from xml.sax.saxutils import escape
from zoneinfo import ZoneInfo

from reportlab.platypus import Flowable

from dealer.reports.figures import local_time
from dealer.reports.layout import ALARM, cell, grid, note, section
from dealer.views.documents.model import DisputeLine

__all__ = ["dispute_count", "disputes_story"]


def dispute_count(lines: Sequence[DisputeLine]) -> str:
    """ "none", or "2 (1 open)": a summary line's figure."""
    if not lines:
        return "none"
    return f"{len(lines)} ({sum(1 for d in lines if d.is_open)} open)"


def disputes_story(
    lines: Sequence[DisputeLine], width: float, tz: ZoneInfo, *, with_hand: bool = True
) -> list[Flowable]:
    """A "Disputes" section; with none, one line saying so."""
    still_open = sum(1 for d in lines if d.is_open)
    title = f"Disputes ({len(lines)}, {still_open} open)" if lines else "Disputes"
    story: list[Flowable] = [*section(title)]
    if not lines:
        story.append(note("No dispute was put on the record."))
        return story
    fractions = (0.06, 0.14, 0.40, 0.40) if with_hand else (0.06, 0.0, 0.47, 0.47)
    rows: list[list[Any]] = []
    for d in lines:
        claim = f"<b>{escape(d.raised_by)}</b>: {escape(d.claim)}"
        if d.entry is not None:
            claim += f" (ledger entry {d.entry})"
        claim += (
            f'<br/><font size="6.5" color="#555555">opened by {escape(d.opened_by)}, '
            f"{escape(local_time(d.opened_at, tz, 'minute'))}</font>"
        )
        if d.is_open:
            ruling = f'<font color="{ALARM}"><b>OPEN</b></font>: awaiting a supervisor\'s ruling'
        else:
            ruling = f"<b>{escape(d.outcome.upper())}</b>: {escape(d.reason or '')}"
            if d.led_to:
                ruling += f"<br/>led to the {escape(d.led_to)}"
            ruling += (
                f'<br/><font size="6.5" color="#555555">ruled by {escape(d.ruled_by or "?")}, '
                f"{escape(local_time(d.ruled_at, tz, 'minute'))}</font>"
            )
        row: list[Any] = [str(d.id), f"{d.table} hand {d.hand_number}"]
        row += [cell(claim, markup=True), cell(ruling, markup=True)]
        rows.append(row if with_hand else [row[0], *row[2:]])
    header = ["#", "Hand", "Claim", "Ruling"] if with_hand else ["#", "Claim", "Ruling"]
    widths = [f * width for f in fractions if f]
    return [*story, grid(header, rows, widths, right=(0,))]
