"""The statement slip: one seat's chips in and out over one hand, printed for a dispute.

The same statement the screen and the API show (`dealer.views.statement`), computed once; the
slip only lays it out: the sentences, each party's net, then every line in the ledger's order
with its event's sentence and the running total, and the seat's net held to the ledger's sum.
"""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape
from zoneinfo import ZoneInfo

from reportlab.platypus import Flowable, Spacer

from dealer.reports.figures import local_time, zone
from dealer.reports.layout import ALARM, cell, grid, note, pairs, section, signatures
from dealer.reports.pages import PageDecor, build_pdf, frame_width
from dealer.views.documents.model import PrintOptions
from dealer.views.statement import Statement

__all__ = ["statement_decor", "statement_pdf"]


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def statement_pdf(found: Statement, options: PrintOptions | None = None) -> bytes:
    """Seat ``found.seat``'s statement for its hand, as a PDF."""
    options = options or PrintOptions()
    tz = zone(options.timezone)
    width = frame_width(options)
    summary = [
        ("table", found.table_name),
        ("hand", f"{found.number}, {found.status}"),
        ("seat", f"{found.seat} {found.player}"),
        ("paid", str(found.paid)),
        ("received", str(found.received)),
        ("net for the hand", _signed(found.net)),
        ("the ledger's sum", _signed(found.ledger_net)),
    ]
    story: list[Flowable] = [pairs(summary, width)]
    if not found.balanced:
        story.append(
            note(
                f'<font color="{ALARM}"><b>The lines add up to {_signed(found.net)}, the ledger '
                f"to {_signed(found.ledger_net)}: the books do not balance.</b></font>"
            )
        )
    story += [*section("In words")]
    story += [note(escape(s)) for s in found.sentences] or [
        note("No chips moved to or from this seat in this hand.")
    ]
    story += [note(escape(f"With {p.label}: {_signed(p.net)}.")) for p in found.parties]
    story += _every_chip(found, width, tz)
    story += [
        Spacer(1, 18),
        signatures("Floor signature - name", f"Player - seat {found.seat}", width),
    ]
    return build_pdf(story, statement_decor(found, options))


def statement_decor(found: Statement, options: PrintOptions) -> PageDecor:
    """What every page of a seat's statement carries, on any paper: the seat, and the alarm
    when its books do not balance."""
    return PageDecor(
        "Statement",
        f"{found.table_name} - hand {found.number} - seat {found.seat}",
        options,
        alarm=None if found.balanced else "DOES NOT BALANCE",
    )


def _every_chip(found: Statement, width: float, tz: ZoneInfo) -> list[Flowable]:
    """The statement's lines, each chip with its party, rule, event and entry."""
    fractions = (0.09, 0.15, 0.2, 0.3, 0.14, 0.12)
    widths = [f * width for f in fractions]
    rows: list[list[Any]] = []
    for line in found.lines:
        what = line.detail
        if line.voided_by:
            what += f" (event void, by #{line.voided_by})"
        rows.append(
            [
                _signed(line.chips),
                cell(line.other_words),
                cell(
                    f"{'paid' if line.chips < 0 else 'received'}: {line.rule.name}"
                    + (f" (rule {line.rule.section})" if line.rule.section else "")
                    + (f", {what}" if what else "")
                ),
                cell(f"#{line.event_seq}: {line.event_text}"),
                f"{line.entry}, {local_time(line.at, tz, 'time')}",
                _signed(line.running),
            ]
        )
    if not rows:
        return []
    header = ["Chips", "With", "Rule", "Event", "Entry, time", "Seat after"]
    return [*section("Every chip, in the ledger's order"), grid(header, rows, widths, right=(0, 5))]
