"""The statement slip: one seat's chips in and out over one hand, printed for a dispute.

The same statement the screen and the API show (`dealer.disputes.statements`), computed once;
the slip only lays it out: the sentences, then each party's lines with running totals, then
the seat's net held to the ledger's own sum.
"""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

from reportlab.platypus import Flowable, Spacer

from dealer.disputes.statements import Statement
from dealer.reports.figures import local_time, zone
from dealer.reports.layout import ALARM, cell, grid, note, pairs, section, signatures
from dealer.reports.model import PrintOptions
from dealer.reports.pages import PageDecor, build_pdf, frame_width

__all__ = ["statement_pdf"]


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def statement_pdf(found: Statement, options: PrintOptions | None = None) -> bytes:
    """Seat ``found.seat``'s statement for its hand, as a PDF."""
    options = options or PrintOptions()
    tz = zone(options.timezone)
    width = frame_width(options)
    summary = [
        ("table", found.table_name),
        ("hand", f"{found.hand_number} (id {found.hand_id}), {found.status}"),
        ("seat", f"{found.seat} {found.player}"),
        ("account", found.account),
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
    story += [note(escape(s[:1].upper() + s[1:]) + ".") for s in found.sentences()] or [
        note("No chips moved to or from this seat in this hand.")
    ]
    fractions = (0.09, 0.2, 0.33, 0.1, 0.14, 0.14)
    widths = [f * width for f in fractions]
    for party in found.parties:
        story += section(
            f"With {party.label}: {_signed(party.net)} (running {_signed(party.running)})"
        )
        rows: list[list[Any]] = []
        for line in party.lines:
            what = line.detail
            if line.voided_by:
                what += f" (event void, by #{line.voided_by})"
            rows.append(
                [
                    _signed(line.chips),
                    f"{'paid' if line.chips < 0 else 'received'}: {line.rule.name}"
                    + (f" (rule {line.rule.section})" if line.rule.section else ""),
                    cell(what),
                    f"#{line.event_seq}/{line.number}",
                    f"{line.entry_seq}, {local_time(line.at, tz, 'time')}",
                    _signed(line.running),
                ]
            )
        header = ["Chips", "Rule", "For", "Payment", "Entry, time", "Seat after"]
        story.append(grid(header, rows, widths, right=(0, 5)))
    story += [
        Spacer(1, 18),
        signatures("Floor signature - name", f"Player - seat {found.seat}", width),
    ]
    decor = PageDecor(
        "Statement",
        f"{found.table_name} - hand {found.hand_number} - seat {found.seat}",
        options,
        alarm=None if found.balanced else "DOES NOT BALANCE",
    )
    return build_pdf(story, decor)
