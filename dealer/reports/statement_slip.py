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

from dealer.clock import zone
from dealer.reports.figures import ChipsAt, local_time, status_text
from dealer.reports.layout import alarm, cell, grid, note, pairs, section, signatures
from dealer.reports.pages import PageDecor, PrintOptions, build_pdf, frame_width
from dealer.views.statement import Statement, StatementLine
from dealer.words.catalogue import say


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def statement_pdf(found: Statement, options: PrintOptions | None = None) -> bytes:
    """Seat ``found.seat``'s statement for its hand, as a PDF."""
    options = options or PrintOptions()
    tz = zone(options.timezone)
    width = frame_width(options)
    money = ChipsAt(found.chip_value_cents, options.currency)
    summary = [
        (say("table"), found.table_name),
        (say("hand"), f"{found.number}, {status_text(found.status)}"),
        (say("seat"), f"{found.seat} {found.player}"),
        (say("paid"), money(found.paid)),
        (say("received"), money(found.received)),
        (say("net for the hand"), money(found.net, signed=True)),
        (say("the ledger's sum"), money(found.ledger_net, signed=True)),
    ]
    story: list[Flowable] = [pairs(summary, width)]
    if not found.balanced:
        off = say(
            "The lines add up to {lines}, the ledger to {ledger}: the books do not balance.",
            lines=_signed(found.net),
            ledger=_signed(found.ledger_net),
        )
        story.append(note(alarm(off)))
    story += [*section(say("In words")), *(note(escape(s)) for s in statement_words(found, money))]
    story += _every_chip(found, width, tz)
    story += [
        Spacer(1, 18),
        signatures(
            say("Floor signature - name"), say("Player - seat {seat}", seat=found.seat), width
        ),
    ]
    return build_pdf(story, statement_decor(found, options))


def statement_words(found: Statement, money: ChipsAt) -> list[str]:
    """The statement in sentences, on a page and a receipt: how the chips went, then the
    seat's net with each party."""
    said = found.sentences or [say("No chips moved to or from this seat in this hand.")]
    with_each = (
        say("With {party}: {net}.", party=p.label, net=money(p.net, True)) for p in found.parties
    )
    return [*said, *with_each]


def statement_decor(found: Statement, options: PrintOptions) -> PageDecor:
    """What every page of a seat's statement carries, on any paper: the seat, and the alarm
    when its books do not balance."""
    table, number, seat = found.table_name, found.number, found.seat
    subject = say("{table} - hand {number} - seat {seat}", table=table, number=number, seat=seat)
    alarm = None if found.balanced else say("DOES NOT BALANCE")
    return PageDecor(say("Statement"), subject, options, alarm=alarm)


def _every_chip(found: Statement, width: float, tz: ZoneInfo) -> list[Flowable]:
    """The statement's lines, each chip with its party, rule, event and entry."""
    fractions = (0.09, 0.15, 0.2, 0.3, 0.14, 0.12)
    widths = [f * width for f in fractions]
    rows: list[list[Any]] = [
        [
            _signed(line.chips),
            cell(line.other_words),
            cell(_rule_words(line)),
            cell(f"#{line.event_seq}: {line.event_text}"),
            f"{line.entry}, {local_time(line.at, tz, 'time')}",
            _signed(line.running),
        ]
        for line in found.lines
    ]
    if not rows:
        return []
    header = [say("Chips"), say("With"), say("Rule"), say("Event"), say("Entry, time")]
    header += [say("Seat after")]
    title = section(say("Every chip, in the ledger's order"))
    return [*title, grid(header, rows, widths, right=(0, 5))]


def _rule_words(line: StatementLine) -> str:
    """``paid: Tops (rule 4.2), seat 3's meld``: which way the chip went, under which rule,
    and for what (an event voided since says by which)."""
    rule = line.rule.name
    if line.rule.section:
        rule = say("{rule} (rule {section})", rule=rule, section=line.rule.section)
    words = say("paid: {rule}", rule=rule) if line.chips < 0 else say("received: {rule}", rule=rule)
    what = line.detail
    if line.voided_by:
        what = say("{what} (event void, by #{seq})", what=what, seq=line.voided_by)
    return f"{words}, {what}" if what else words
