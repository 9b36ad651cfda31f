"""The table session: one dealer's down at one table, seat by seat and hand by hand."""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape
from zoneinfo import ZoneInfo

from reportlab.platypus import Flowable, Spacer

from dealer.clock import zone
from dealer.reports.checkpoint import (
    checked_text,
    checkpoint_section,
    checks_banner,
    verdict_text,
)
from dealer.reports.count import count_section
from dealer.reports.dispute_table import dispute_count, disputes_story
from dealer.reports.figures import ChipsAt, local_time, status_text
from dealer.reports.layout import (
    PagedTable,
    alarm,
    cell,
    grid,
    note,
    pairs,
    section,
    signatures,
)
from dealer.reports.pages import PageDecor, PrintOptions, build_pdf, frame_width
from dealer.views.documents.down import DownReport
from dealer.words.catalogue import say, say_n
from dealer.words.checks import failed_short
from dealer.words.numbers import money_words
from dealer.words.tables import hands_dealt, hands_dealt_label


def down_pdf(report: DownReport, options: PrintOptions | None = None) -> bytes:
    """The table session report as a PDF."""
    options = options or PrintOptions()
    tz = zone(options.timezone)
    width = frame_width(options)
    money = ChipsAt(report.chip_value_cents, options.currency)

    seats_net = sum(s.net for s in report.seats)
    balance = seats_net + report.house_drop + report.pot
    summary = _summary(report, money, tz)
    story: list[Flowable] = [
        *checks_banner(report.problems, width),
        pairs(summary, width),
        *section(say("Seats")),
        _seats(report, width, money),
    ]
    if balance:
        off = say_n(
            "The players' nets, the house drop and the pot total {n} chip, not zero: "
            "the books do not balance.",
            "The players' nets, the house drop and the pot total {n} chips, not zero: "
            "the books do not balance.",
            balance,
        )
        story.append(note(alarm(off)))
    story += [
        *count_section(
            report.count,
            report.chip_value_cents,
            width,
            tz,
            options.currency,
            money(report.house_drop),
        ),
        *section(say("Voids and corrections")),
        _corrections(report, width, money, tz),
        *section(say("Hands")),
        _hands(report, width, money, tz),
        *disputes_story(report.disputes, width, tz, with_hand=True),
        *_checks(report, tz, width),
        Spacer(1, 12),
        signatures(
            say("Dealer signature - {dealer}", dealer=report.dealer),
            say("Supervisor signature - name"),
            width,
        ),
    ]
    warning = failed_short() if report.problems else say("NETS DO NOT BALANCE") if balance else None
    subject = say(
        "{table} - session {session} - dealer {dealer}",
        table=report.table,
        session=report.down_id,
        dealer=report.dealer,
    )
    decor = PageDecor(say("Table session"), subject, options, report.reprint, alarm=warning)
    return build_pdf(story, decor)


def _checks(report: DownReport, tz: ZoneInfo, width: float) -> list[Flowable]:
    """What the ledger checks run before the report found and covered, then the checkpoint
    filed."""
    story = checkpoint_section(report.checkpoint, tz, width)
    if report.chain is not None:
        story += [note(escape(verdict_text(report.chain, report.checkpoint)))]
        story += [note(escape(checked_text(report.chain, tz)))]
    story += [note(escape(line)) for line in report.engine_changed]
    return story


def _summary(report: DownReport, money: ChipsAt, tz: ZoneInfo) -> list[tuple[str, str]]:
    cur = money.currency
    value = report.chip_value_cents
    played = hands_dealt(len(report.hands), report.hands_void)
    opened = local_time(report.opened_at, tz)
    if report.opened_by_dealing:
        opened = say("{at} (by dealing a hand: no session was open)", at=opened)
    return [
        (say("table"), report.table),
        (say("session"), str(report.down_id)),
        (say("dealer"), report.dealer),
        (say("chip value"), say("{money} a chip", money=money_words(value, cur))),
        (say("opened"), opened),
        (say("closed"), local_time(report.closed_at, tz) or say("still open")),
        (say("close confirmed by"), report.close_confirmed_by or say("not confirmed")),
        (hands_dealt_label(), played),
        (say("house drop"), money(report.house_drop)),
        (say("voids and corrections"), str(len(report.corrections))),
        (say("disputes"), dispute_count(report.disputes)),
    ]


def _seats(report: DownReport, width: float, money: ChipsAt) -> Flowable:
    fractions = (0.05, 0.11, 0.19, 0.19, 0.19, 0.20, 0.07)
    widths = [f * width for f in fractions]
    rows: list[list[Any]] = [
        [
            str(s.seat),
            s.player,
            money(s.buy_ins),
            money(s.cash_outs),
            money(s.net, signed=True),
            money(s.conditions),
            str(s.hands_won),
        ]
        for s in report.seats
    ]
    seats_net = sum(s.net for s in report.seats)
    rows.append(["", say("house (drop)"), "", "", money(report.house_drop, signed=True), "", ""])
    if report.pot:
        pot = money(report.pot, signed=True)
        rows.append(["", say("pot (hand in play)"), "", "", pot, "", ""])
    rows.append(
        [
            "",
            say("Total"),
            money(sum(s.buy_ins for s in report.seats)),
            money(sum(s.cash_outs for s in report.seats)),
            money(seats_net + report.house_drop + report.pot, signed=True),
            money(sum(s.conditions for s in report.seats)),
            str(sum(s.hands_won for s in report.seats)),
        ]
    )
    header = [say("Seat"), say("Player"), say("Buy-ins"), say("Cash-outs"), say("Net")]
    header += [say("Conditions"), say("Won")]
    return grid(header, rows, widths, right=(0, 2, 3, 4, 5, 6), total=True)


def _corrections(report: DownReport, width: float, money: ChipsAt, tz: ZoneInfo) -> Flowable:
    if not report.corrections:
        return note(escape(say("None.")))
    fractions = (0.1, 0.06, 0.08, 0.21, 0.14, 0.09, 0.09, 0.23)
    widths = [f * width for f in fractions]
    rows: list[list[Any]] = [
        [
            local_time(c.at, tz, "short"),
            "" if c.hand_number is None else str(c.hand_number),
            _kind_words(c.kind),
            cell(c.text),
            money(c.chips),
            cell(c.recorded_by),
            cell(c.approved_by or "-"),
            cell(c.reason),
        ]
        for c in report.corrections
    ]
    header = [say("Time"), say("Hand"), say("Kind"), say("What"), say("Chips")]
    header += [say("Recorded"), say("Approved"), say("Why")]
    return grid(header, rows, widths, right=(1, 4))


def _kind_words(kind: str) -> str:
    """A correction's kind in words (a kind the words do not know is printed as it is)."""
    words = {"void": say("void"), "void_hand": say("void hand"), "foul": say("foul")}
    words |= {"penalty": say("penalty"), "correction": say("correction")}
    return words.get(kind, kind)


def _hands(report: DownReport, width: float, money: ChipsAt, tz: ZoneInfo) -> Flowable:
    if not report.hands:
        return note(escape(say("No hands were played.")))
    fractions = (0.06, 0.08, 0.16, 0.08, 0.2, 0.06, 0.19, 0.17)
    widths = [f * width for f in fractions]
    rows = [
        [
            str(h.number),
            str(h.id),
            local_time(h.settled_at, tz, "short"),
            status_text(h.status),
            h.winner_words,
            str(h.seats),
            money(h.won, signed=True) if h.winner else "",
            money(h.drop),
        ]
        for h in report.hands
    ]
    header = [say("Hand"), say("Id"), say("Settled"), say("Status"), say("Winner")]
    header += [say("Seats"), say("Won"), say("Drop")]
    return PagedTable(header, rows, widths, right=(0, 1, 5, 6, 7))
