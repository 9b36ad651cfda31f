"""The disputes a document lists (the hand slip, the session and shift reports): how many, how
many still open, and each one with its ruling."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from xml.sax.saxutils import escape
from zoneinfo import ZoneInfo

from reportlab.platypus import Flowable

from dealer.reports.figures import local_time
from dealer.reports.layout import alarm, cell, grid, note, section
from dealer.views.disputes import DisputeLine
from dealer.words.catalogue import say


def dispute_count(lines: Sequence[DisputeLine]) -> str:
    """ "none", or "2 (1 open)": a summary line's figure."""
    if not lines:
        return say("none")
    return say("{n} ({open} open)", n=len(lines), open=sum(1 for d in lines if d.is_open))


def disputes_story(
    lines: Sequence[DisputeLine], width: float, tz: ZoneInfo, *, with_hand: bool = True
) -> list[Flowable]:
    """A "Disputes" section; with none, one line saying so."""
    still_open = sum(1 for d in lines if d.is_open)
    if lines:
        title = say("Disputes ({n}, {open} open)", n=len(lines), open=still_open)
    else:
        title = say("Disputes")
    story: list[Flowable] = [*section(title)]
    if not lines:
        story.append(note(escape(say("No dispute was put on the record."))))
        return story
    fractions = (0.06, 0.14, 0.40, 0.40) if with_hand else (0.06, 0.0, 0.47, 0.47)
    rows: list[list[Any]] = []
    for d in lines:
        row: list[Any] = [
            str(d.id),
            say("{table} hand {number}", table=d.table_name, number=d.hand_number),
        ]
        row += [cell(_claim(d, tz), markup=True), cell(_ruling(d, tz), markup=True)]
        rows.append(row if with_hand else [row[0], *row[2:]])
    header = ["#", say("Hand"), say("Claim"), say("Ruling")]
    if not with_hand:
        del header[1]
    widths = [f * width for f in fractions if f]
    return [*story, grid(header, rows, widths, right=(0,))]


def _grey(text: str) -> str:
    """A small grey line under a cell's words: who did it, and when."""
    return f'<br/><font size="6.5" color="#555555">{escape(text)}</font>'


def _claim(d: DisputeLine, tz: ZoneInfo) -> str:
    """Who claimed what (and about which payment, in words), and who opened it when, as
    markup."""
    who = f"<b>{escape(d.said.who)}</b>"
    if d.said.about is not None:
        who += f": {escape(d.said.about)}"
    at = local_time(d.at, tz, "minute")
    return f"{who}: {escape(d.claim)}" + _grey(say("opened by {who}, {at}", who=d.opener, at=at))


def _ruling(d: DisputeLine, tz: ZoneInfo) -> str:
    """OPEN and awaiting a ruling, or the ruling, what it led to, and who ruled when, as
    markup."""
    if d.ruling is None:
        stamp = alarm(say("OPEN"))
        return say("{open}: awaiting a supervisor's ruling", open=stamp)
    ruling = f"<b>{escape(d.outcome.upper())}</b>: {escape(d.ruling.reason)}"
    if d.led_to:
        ruling += "<br/>" + escape(say("led to the {what}", what=d.led_to))
    at = local_time(d.ruling.at, tz, "minute")
    return ruling + _grey(say("ruled by {who}, {at}", who=d.ruler or "?", at=at))
