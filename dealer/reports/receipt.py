"""The slips for a table's 80 mm receipt printer: the hand slip and a seat's statement, line by
line in the roll's width, from the same views as the page-size documents."""

from __future__ import annotations

from xml.sax.saxutils import escape

from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Flowable, Paragraph, Spacer

from dealer.reports.figures import ChipsAt, local_time, money_text, zone
from dealer.reports.fonts import BOLD, FONT
from dealer.reports.hand_slip import slip_decor
from dealer.reports.layout import ALARM
from dealer.reports.pages import build_pdf
from dealer.reports.statement_slip import statement_decor
from dealer.views.documents.model import HandSlip, PrintOptions
from dealer.views.statement import Statement

__all__ = ["hand_slip_receipt", "statement_receipt"]

_LINE = ParagraphStyle("receipt", fontName=FONT, fontSize=7, leading=8.6)
_INDENT = ParagraphStyle("receipt_indent", _LINE, leftIndent=8)
_HEAD = ParagraphStyle("receipt_head", _LINE, fontName=BOLD, fontSize=8, spaceBefore=5)


def _line(markup: str, indent: bool = False) -> Paragraph:
    return Paragraph(markup, _INDENT if indent else _LINE)


def _head(title: str) -> Paragraph:
    return Paragraph(escape(title), _HEAD)


def _signature(label: str) -> list[Flowable]:
    return [Spacer(1, 16), _line("_" * 44), _line(escape(label))]


def hand_slip_receipt(slip: HandSlip, options: PrintOptions) -> bytes:
    """The hand slip on an 80 mm roll: the same figures and sentences, one after another."""
    tz = zone(options.timezone)
    money = ChipsAt(slip.chip_value_cents, options.currency)
    winner = next((s for s in slip.seats if s.seat == slip.winner), None)
    story: list[Flowable] = [
        _line(f"<b>Dealer</b> {escape(slip.dealer)} &middot; <b>status</b> {escape(slip.status)}"),
        _line(f"<b>Opened</b> {local_time(slip.opened_at, tz)}"),
        _line(f"<b>Settled</b> {local_time(slip.settled_at, tz) or 'not settled'}"),
        _line(
            f"<b>Chip value</b> {money_text(slip.chip_value_cents, options.currency)} &middot; "
            f"<b>winner</b> {escape(f'seat {winner.seat} {winner.player}' if winner else 'none')}"
        ),
    ]
    if slip.ledger_first_seq is not None:
        story.append(_line(f"<b>Ledger</b> seq {slip.ledger_first_seq} to {slip.ledger_last_seq}"))
    if slip.note:
        story.append(_line(f'<font color="{ALARM}"><b>{escape(slip.note)}</b></font>'))
    story.append(_head("Rules in force"))
    story.append(_line(" &middot; ".join(f"{escape(k)}: {escape(v)}" for k, v in slip.rules_words)))
    story.append(_head("Events and payments"))
    for event in slip.events:
        text = escape(event.text)
        if event.voided:
            text += f' <font color="{ALARM}"><b>VOIDED</b></font>'
        story.append(_line(f"<b>#{event.seq}</b> {local_time(event.at, tz, 'time')} {text}"))
        for sentence, chips in event.said:
            story.append(_line(f"{escape(sentence)} <b>{escape(money(chips))}</b>", indent=True))
    story.append(_head("Settlement"))
    for s in slip.seats:
        story.append(
            _line(f"Seat {s.seat} {escape(s.player)} ({s.status}): {money(s.net, signed=True)}")
        )
    story.append(_line(f"Pot {money(slip.pot, signed=True)}; house {money(slip.house, True)}"))
    total = f"<b>Total {money(slip.total_net, signed=True)}</b>"
    if slip.total_net:
        total = f'<font color="{ALARM}">{total}: the books do not balance</font>'
    story.append(_line(total))
    story += [*_signature(f"Dealer - {slip.dealer}"), *_signature("Floor - name, date")]
    # The receipt's alarm is shorter: its header is 80 mm wide.
    return build_pdf(story, slip_decor(slip, options, "DOES NOT BALANCE"))


def statement_receipt(found: Statement, options: PrintOptions) -> bytes:
    """A seat's statement for a hand on an 80 mm roll."""
    tz = zone(options.timezone)
    story: list[Flowable] = [
        _line(f"<b>Seat</b> {found.seat} {escape(found.player)} &middot; hand {found.number}"),
        _line(f"<b>Paid</b> {found.paid} &middot; <b>received</b> {found.received}"),
        _line(f"<b>Net for the hand</b> {found.net:+d} (the ledger: {found.ledger_net:+d})"),
    ]
    if not found.balanced:
        story.append(_line(f'<font color="{ALARM}"><b>The books do not balance.</b></font>'))
    story.append(_head("In words"))
    story += [_line(escape(s)) for s in found.sentences] or [
        _line("No chips moved to or from this seat in this hand.")
    ]
    story += [_line(escape(f"With {p.label}: {p.net:+d}.")) for p in found.parties]
    if found.lines:
        story.append(_head("Every chip"))
    for line in found.lines:
        at = local_time(line.at, tz, "time")
        story.append(
            _line(
                f"<b>{line.chips:+d}</b> {escape(line.other_words)}: {escape(line.rule.name)} "
                f"(#{line.event_seq}, entry {line.entry}, {at}); after: {line.running:+d}"
            )
        )
    story += [*_signature("Floor - name"), *_signature(f"Player - seat {found.seat}")]
    return build_pdf(story, statement_decor(found, options))
