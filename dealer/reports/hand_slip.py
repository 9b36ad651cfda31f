"""The hand slip: one hand, event by event, as the floor prints it in a dispute."""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape
from zoneinfo import ZoneInfo

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Flowable, Paragraph, Spacer, Table

from dealer.clock import zone
from dealer.reports.dispute_table import dispute_count, disputes_story
from dealer.reports.figures import ChipsAt, local_time, status_text
from dealer.reports.fonts import BOLD
from dealer.reports.layout import (
    alarm,
    cell,
    grid,
    heading,
    note,
    pairs,
    signatures,
    small,
)
from dealer.reports.pages import PageDecor, PrintOptions, build_pdf, frame_width
from dealer.views.documents.hand import HandSlip
from dealer.views.events import EventView
from dealer.words.catalogue import say, say_n
from dealer.words.numbers import money_words

#: The slip's first line: the table and the hand, larger and bold.
LEAD = ParagraphStyle("slip_lead", fontName=BOLD, fontSize=12.5, leading=15, spaceAfter=1)
EVENT_FILL = colors.Color(0.93, 0.95, 0.98)
VOID_GREY = "#777777"
#: Rows set closer than the other documents' tables: a slip fits one page.
TIGHT = (("TOPPADDING", (0, 0), (-1, -1), 0.4), ("BOTTOMPADDING", (0, 0), (-1, -1), 0.6))


def hand_slip_pdf(slip: HandSlip, options: PrintOptions | None = None) -> bytes:
    """The hand slip as a PDF, read top-down as a manager reads it: the table, the hand, its
    times and the settlement first; then the events; the ledger's proof (its entries, head
    hash and the rules in force) last, smaller. One page for a typical hand (up to about 20
    events)."""
    options = options or PrintOptions()
    tz = zone(options.timezone)
    width = frame_width(options)
    cur = options.currency
    value = slip.chip_value_cents

    money = ChipsAt(value, cur)
    story: list[Flowable] = [
        Paragraph(escape(opening_words(slip)), LEAD),
        note(escape(times_words(slip, tz))),
        *heading(say("Settlement")),
        _settlement(slip, width, money),
    ]
    if slip.total_net:
        off = say_n(
            "The nets total {n} chip, not zero: the books do not balance.",
            "The nets total {n} chips, not zero: the books do not balance.",
            slip.total_net,
        )
        story.append(note(alarm(off)))
    story += _head(slip, width, say("{money} a chip", money=money_words(value, cur)))
    if slip.note:
        story.append(note(alarm(slip.note)))
    story += [*heading(say("Events and payments")), _events(slip, width, money, tz)]
    if slip.rules_applied:
        story += [*heading(say("The rules these payments follow"))]
        story += [
            small(f"<b>{escape(name)}</b>: {escape(words)}", size=6.5)
            for name, words in slip.rules_applied
        ]
    if slip.disputes:
        story += disputes_story(slip.disputes, width, tz, with_hand=False)
    story += [
        Spacer(1, 2),
        signatures(
            say("Dealer signature - {dealer}", dealer=slip.dealer),
            say("Floor signature - name"),
            width,
            compact=True,
        ),
        Spacer(1, 4),
        *[small(line, size=6.5) for line in proof_lines(slip)],
    ]
    return build_pdf(story, slip_decor(slip, options, say("NETS DO NOT BALANCE")))


def opening_words(slip: HandSlip) -> str:
    """A slip's first line, on a page and a receipt: the table and the hand."""
    return say("{table} · hand {number}", table=slip.table, number=slip.number)


def times_words(slip: HandSlip, tz: ZoneInfo) -> str:
    """A slip's second line: when the hand was dealt and settled, and who won."""
    opened = local_time(slip.opened_at, tz)
    if slip.settled_at is None:
        return say(
            "Dealt {opened} · {status}, not settled", opened=opened, status=status_text(slip.status)
        )
    winner = next((s for s in slip.seats if s.seat == slip.winner), None)
    return say(
        "Dealt {opened} · settled {settled} · winner {winner}",
        opened=opened,
        settled=local_time(slip.settled_at, tz),
        winner=winner_words(winner.seat, winner.player) if winner else say("none"),
    )


def proof_lines(slip: HandSlip) -> list[str]:
    """The ledger's proof, in markup, for the foot of a slip: its entries and head hash, and
    the rules in force."""
    if slip.ledger_first_seq is None:
        entries = say("none yet")
    else:
        entries = say(
            "seq {first} to {last}", first=slip.ledger_first_seq, last=slip.ledger_last_seq
        )
    ledger = say(
        "<b>Ledger entries</b> {entries}; <b>head hash</b> {hash}",
        entries=escape(entries),
        hash=escape(slip.head_hash or say("none")),
    )
    rules = (
        "<b>"
        + escape(say("RULES IN FORCE"))
        + "</b> - "
        + " &middot; ".join(f"<b>{escape(k)}</b>: {escape(v)}" for k, v in slip.rules_words)
    )
    return [ledger, rules]


def slip_decor(slip: HandSlip, options: PrintOptions, alarm: str) -> PageDecor:
    """What frames every page of a hand's slip, on a page or a receipt: ``alarm`` in its
    header when the nets do not balance."""
    number, hand_id = slip.number, slip.hand_id
    subject = say("{table} - hand {number} (id {id})", table=slip.table, number=number, id=hand_id)
    shown = alarm if slip.total_net else None
    return PageDecor(say("Hand slip"), subject, options, slip.reprint, alarm=shown)


def _head(slip: HandSlip, width: float, chip_value: str) -> list[Flowable]:
    """The rest of the hand's summary: its id, dealer, status, chip value and disputes."""
    summary = [
        (say("table"), slip.table),
        (say("hand"), say("{number} (id {id})", number=slip.number, id=slip.hand_id)),
        (say("dealer"), slip.dealer),
        (say("status"), status_text(slip.status)),
        (say("chip value"), chip_value),
        (say("disputes"), dispute_count(slip.disputes)),
    ]
    return [Spacer(1, 4), pairs(summary, width, columns=3, label_share=0.32)]


def winner_words(seat: int, player: str) -> str:
    """``seat 3 Ann``: the winner on a slip."""
    return say("seat {seat} {player}", seat=seat, player=player)


def _events(slip: HandSlip, width: float, money: ChipsAt, tz: ZoneInfo) -> Table:
    fractions = (0.05, 0.09, 0.66, 0.2)
    widths = [f * width for f in fractions]
    rows: list[list[Any]] = []
    extra: list[tuple[Any, ...]] = []
    for event in slip.events:
        r = len(rows) + 1  # the header is row 0
        rows.append(
            [str(event.seq), local_time(event.at, tz, "time"), cell(_told(event), markup=True), ""]
        )
        extra += [("SPAN", (2, r), (-1, r)), ("BACKGROUND", (0, r), (-1, r), EVENT_FILL)]
        if r > 1:
            extra.append(("LINEABOVE", (0, r), (-1, r), 0.5, colors.Color(0.7, 0.7, 0.7)))
        for sentence, chips in said_lines(event) or _entry_lines(event):
            words = escape(sentence)
            if event.voided:
                words = f'<font color="{VOID_GREY}">{words}</font>'
            rows.append(["", "", cell(words, markup=True), money(chips)])
    if not rows:
        rows.append(["", "", cell(say("No events recorded.")), ""])
    header = ["#", say("Time"), say("Event, and who paid whom"), say("Chips moved")]
    # Event rows carry their own fill; stripes would fight it.
    return grid(header, rows, widths, right=(0, 3), extra=[*extra, *TIGHT], stripes=False)


def _told(event: EventView) -> str:
    """An event's line, in markup: its sentence, VOIDED if a void stands against it, and who
    recorded (and approved) it."""
    if event.supervisor:
        who = say(
            "recorded by {recorder}; approved by {approver}",
            recorder=event.user,
            approver=event.supervisor,
        )
    else:
        who = say("recorded by {recorder}", recorder=event.user)
    text = escape(event.text)
    if event.voided:
        voided = alarm(say("VOIDED"))
        text = f'<font color="{VOID_GREY}">{text}</font> {voided}'
    return text + f' <font size="6.5" color="#555555">- {escape(who)}</font>'


def said_lines(event: EventView) -> list[tuple[str, int]]:
    """An event's payments said aloud, a sentence a group, with the chips each group moved."""
    return [(g.sentence, g.chips * len(g.members)) for g in event.groups]


def _entry_lines(event: EventView) -> list[tuple[str, int]]:
    """An event's payments one by one, as its ledger entries recorded them (a hand the engine
    installed no longer replays has no sentences of its own)."""
    return [
        (say("{payer} pays {payee}: {why}", payer=p.payer, payee=p.payee, why=p.reason), p.chips)
        for p in event.payments
    ]


def _settlement(slip: HandSlip, width: float, money: ChipsAt) -> Table:
    fractions = (0.08, 0.26, 0.10, 0.18, 0.18, 0.20)
    widths = [f * width for f in fractions]
    rows: list[list[Any]] = []
    for s in slip.seats:
        rows.append(
            [
                str(s.seat),
                cell(s.player),
                status_text(s.status),
                money(s.net - s.settlement, signed=True),
                money(s.settlement, signed=True),
                money(s.net, signed=True),
            ]
        )
    pot, house = money(slip.pot, signed=True), money(slip.house, signed=True)
    pot_line = say("pot {pot}; house (drop) {house}", pot=pot, house=house)
    rows.append(["", cell(pot_line), "", "", "", ""])
    rows.append(["", say("Total"), "", "", "", money(slip.total_net, signed=True)])
    header = [say("Seat"), say("Player"), say("Status"), say("In play"), say("Settlement")]
    header += [say("Net")]
    span = ("SPAN", (1, len(rows) - 1), (-1, len(rows) - 1))  # the pot's and house's row
    return grid(header, rows, widths, right=(0, 3, 4, 5), total=True, extra=[*TIGHT, span])
