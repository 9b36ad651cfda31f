"""The slips for a table's 80 mm receipt printer: the hand slip and a seat's statement, line by
line in the roll's width, from the same views as the page-size documents."""

from __future__ import annotations

from xml.sax.saxutils import escape
from zoneinfo import ZoneInfo

from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Flowable, Paragraph, Spacer

from dealer.clock import zone
from dealer.reports.figures import ChipsAt, local_time, status_text
from dealer.reports.fonts import BOLD, FONT
from dealer.reports.hand_slip import (
    opening_words,
    proof_lines,
    said_lines,
    slip_decor,
    times_words,
)
from dealer.reports.layout import ALARM, alarm
from dealer.reports.pages import PrintOptions, build_pdf
from dealer.reports.statement_slip import statement_decor, statement_words
from dealer.views.documents.hand import HandSlip
from dealer.views.statement import Statement
from dealer.words.catalogue import say
from dealer.words.numbers import money_words

_LINE = ParagraphStyle("receipt", fontName=FONT, fontSize=7, leading=8.6)
_INDENT = ParagraphStyle("receipt_indent", _LINE, leftIndent=8)
_HEAD = ParagraphStyle("receipt_head", _LINE, fontName=BOLD, fontSize=8, spaceBefore=5)
_LEAD = ParagraphStyle("receipt_lead", _LINE, fontName=BOLD, fontSize=10, leading=12)
#: The ledger's proof at the roll's foot: smaller, after everything a person reads.
_PROOF = ParagraphStyle("receipt_proof", _LINE, fontSize=5.5, leading=6.8)


def _line(markup: str, indent: bool = False) -> Paragraph:
    return Paragraph(markup, _INDENT if indent else _LINE)


def _head(title: str) -> Paragraph:
    return Paragraph(escape(title), _HEAD)


def _signature(label: str) -> list[Flowable]:
    return [Spacer(1, 16), _line("_" * 44), _line(escape(label))]


def _slip_head(slip: HandSlip, options: PrintOptions, tz: ZoneInfo) -> list[Flowable]:
    """The receipt's first lines: the table and the hand, when, then the dealer, status and
    chip value."""
    chip_value = money_words(slip.chip_value_cents, options.currency)
    return [
        Paragraph(escape(opening_words(slip)), _LEAD),
        _line(escape(times_words(slip, tz))),
        _line(
            say(
                "<b>Dealer</b> {dealer} &middot; <b>status</b> {status} &middot; "
                "<b>chip value</b> {value}",
                dealer=escape(slip.dealer),
                status=escape(status_text(slip.status)),
                value=chip_value,
            )
        ),
    ]


def _settlement(slip: HandSlip, money: ChipsAt) -> list[Flowable]:
    story: list[Flowable] = [_head(say("Settlement"))]
    for s in slip.seats:
        line = say(
            "Seat {seat} {player} ({status}): {net}",
            seat=s.seat,
            player=s.player,
            status=status_text(s.status),
            net=money(s.net, signed=True),
        )
        story.append(_line(escape(line)))
    pot, house = money(slip.pot, signed=True), money(slip.house, True)
    story.append(_line(escape(say("Pot {pot}; house {house}", pot=pot, house=house))))
    total = money(slip.total_net, signed=True)
    if slip.total_net:
        off = say("<b>Total {total}</b>: the books do not balance", total=total)
        story.append(_line(f'<font color="{ALARM}">{off}</font>'))
    else:
        story.append(_line(say("<b>Total {total}</b>", total=total)))
    return story


def hand_slip_receipt(slip: HandSlip, options: PrintOptions) -> bytes:
    """The hand slip on an 80 mm roll: the same figures and sentences, one after another, in
    the page's order: the table, the hand and the settlement first, the ledger's proof last."""
    tz = zone(options.timezone)
    money = ChipsAt(slip.chip_value_cents, options.currency)
    story = [*_slip_head(slip, options, tz), *_settlement(slip, money)]
    if slip.note:
        story.append(_line(alarm(slip.note)))
    story.append(_head(say("Events and payments")))
    for event in slip.events:
        text = escape(event.text)
        if event.voided:
            text += " " + alarm(say("VOIDED"))
        story.append(_line(f"<b>#{event.seq}</b> {local_time(event.at, tz, 'time')} {text}"))
        for sentence, chips in said_lines(event):
            story.append(_line(f"{escape(sentence)} <b>{escape(money(chips))}</b>", indent=True))
    dealer = say("Dealer - {dealer}", dealer=slip.dealer)
    story += [*_signature(dealer), *_signature(say("Floor - name, date"))]
    story += [Spacer(1, 6), *(Paragraph(line, _PROOF) for line in proof_lines(slip))]
    # The receipt's alarm is shorter: its header is 80 mm wide.
    return build_pdf(story, slip_decor(slip, options, say("DOES NOT BALANCE")))


def statement_receipt(found: Statement, options: PrintOptions) -> bytes:
    """A seat's statement for a hand on an 80 mm roll."""
    tz = zone(options.timezone)
    money = ChipsAt(found.chip_value_cents, options.currency)
    story: list[Flowable] = [
        _line(
            say(
                "<b>Seat</b> {seat} {player} &middot; hand {number}",
                seat=found.seat,
                player=escape(found.player),
                number=found.number,
            )
        ),
        _line(
            say(
                "<b>Paid</b> {paid} &middot; <b>received</b> {received}",
                paid=escape(money(found.paid)),
                received=escape(money(found.received)),
            )
        ),
        _line(
            say(
                "<b>Net for the hand</b> {net} (the ledger: {ledger})",
                net=escape(money(found.net, signed=True)),
                ledger=escape(money(found.ledger_net, signed=True)),
            )
        ),
    ]
    if not found.balanced:
        off = escape(say("The books do not balance."))
        story.append(_line(f'<font color="{ALARM}"><b>{off}</b></font>'))
    story += [_head(say("In words")), *(_line(escape(s)) for s in statement_words(found, money))]
    story += _every_chip(found, tz)
    floor = say("Floor - name")
    story += [*_signature(floor), *_signature(say("Player - seat {seat}", seat=found.seat))]
    return build_pdf(story, statement_decor(found, options))


def _every_chip(found: Statement, tz: ZoneInfo) -> list[Flowable]:
    """The statement's lines, each chip with its party, rule, event and entry."""
    story: list[Flowable] = []
    if found.lines:
        story.append(_head(say("Every chip")))
    for line in found.lines:
        at = local_time(line.at, tz, "time")
        story.append(
            _line(
                say(
                    "<b>{chips}</b> {other}: {rule} (#{seq}, entry {entry}, {at}); "
                    "after: {running}",
                    chips=f"{line.chips:+d}",
                    other=escape(line.other_words),
                    rule=escape(line.rule.name),
                    seq=line.event_seq,
                    entry=line.entry,
                    at=at,
                    running=f"{line.running:+d}",
                )
            )
        )
    return story
