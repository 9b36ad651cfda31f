"""The table session: one dealer's down at one table, seat by seat and hand by hand."""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape
from zoneinfo import ZoneInfo

from reportlab.platypus import Flowable, Spacer

from dealer.reports.checkpoint import (
    checked_text,
    checkpoint_section,
    checks_banner,
    verdict_text,
)
from dealer.reports.count import count_section
from dealer.reports.dispute_table import dispute_count, disputes_story
from dealer.reports.figures import ChipsAt, local_time, money_text, zone
from dealer.reports.layout import ALARM, PagedTable, cell, grid, note, pairs, section, signatures
from dealer.reports.pages import PageDecor, build_pdf, frame_width
from dealer.views.documents.model import PrintOptions, SessionReport
from dealer.words.checks import failed_short

__all__ = ["session_pdf"]

OPENED_BY_DEALING = " (by dealing a hand: no session was open)"


def session_pdf(report: SessionReport, options: PrintOptions | None = None) -> bytes:
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
        *section("Seats"),
        _seats(report, width, money),
    ]
    if balance:
        story.append(
            note(
                f'<font color="{ALARM}"><b>The players\' nets, the house drop and the pot total '
                f"{balance} chips, not zero: the books do not balance.</b></font>"
            )
        )
    story += [
        *count_section(report.count, width, tz, options.currency),
        *section("Voids and corrections"),
        _corrections(report, width, money, tz),
        *section("Hands"),
        _hands(report, width, money, tz),
        *disputes_story(report.disputes, width, tz, with_hand=True),
        *_checks(report, tz, width),
        Spacer(1, 12),
        signatures(f"Dealer signature - {report.dealer}", "Supervisor signature - name", width),
    ]
    decor = PageDecor(
        "Table session",
        f"{report.table} - session {report.session_id} - dealer {report.dealer}",
        options,
        report.reprint,
        alarm=failed_short() if report.problems else "NETS DO NOT BALANCE" if balance else None,
    )
    return build_pdf(story, decor)


def _checks(report: SessionReport, tz: ZoneInfo, width: float) -> list[Flowable]:
    """What the ledger checks run before the report found and covered, then the checkpoint
    filed."""
    story = checkpoint_section(report.checkpoint, tz, width)
    if report.chain is not None:
        story += [note(escape(verdict_text(report.chain, report.checkpoint)))]
        story += [note(escape(checked_text(report.chain, tz)))]
    story += [note(escape(line)) for line in report.engine_changed]
    return story


def _summary(report: SessionReport, money: ChipsAt, tz: ZoneInfo) -> list[tuple[str, str]]:
    """The session's figures at the head of its report."""
    cur = money.currency
    value = report.chip_value_cents
    played = f"{report.hands_played}"
    if report.hands_void:
        played += f" ({report.hands_void} void)"
    return [
        ("table", report.table),
        ("session", str(report.session_id)),
        ("dealer", report.dealer),
        ("chip value", f"{money_text(value, cur)} a chip"),
        (
            "opened",
            local_time(report.opened_at, tz)
            + (OPENED_BY_DEALING if report.opened_by_dealing else ""),
        ),
        ("closed", local_time(report.closed_at, tz) or "still open"),
        ("close confirmed by", report.close_confirmed_by or "not confirmed"),
        ("hands played", played),
        ("house drop", money(report.house_drop)),
        ("voids and corrections", str(len(report.corrections))),
        ("disputes", dispute_count(report.disputes)),
    ]


def _seats(report: SessionReport, width: float, money: ChipsAt) -> Flowable:
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
    rows.append(["", "house (drop)", "", "", money(report.house_drop, signed=True), "", ""])
    if report.pot:
        rows.append(["", "pot (hand in play)", "", "", money(report.pot, signed=True), "", ""])
    rows.append(
        [
            "",
            "Total",
            money(sum(s.buy_ins for s in report.seats)),
            money(sum(s.cash_outs for s in report.seats)),
            money(seats_net + report.house_drop + report.pot, signed=True),
            money(sum(s.conditions for s in report.seats)),
            str(sum(s.hands_won for s in report.seats)),
        ]
    )
    header = ["Seat", "Player", "Buy-ins", "Cash-outs", "Net", "Conditions", "Won"]
    return grid(header, rows, widths, right=(0, 2, 3, 4, 5, 6), total=True)


def _corrections(report: SessionReport, width: float, money: ChipsAt, tz: ZoneInfo) -> Flowable:
    if not report.corrections:
        return note("None.")
    fractions = (0.1, 0.06, 0.08, 0.21, 0.14, 0.09, 0.09, 0.23)
    widths = [f * width for f in fractions]
    rows: list[list[Any]] = [
        [
            local_time(c.at, tz, "short"),
            "" if c.hand_number is None else str(c.hand_number),
            c.kind,
            cell(c.text),
            money(c.chips),
            cell(c.recorded_by),
            cell(c.approved_by or "-"),
            cell(c.reason),
        ]
        for c in report.corrections
    ]
    header = ["Time", "Hand", "Kind", "What", "Chips", "Recorded", "Approved", "Why"]
    return grid(header, rows, widths, right=(1, 4))


def _hands(report: SessionReport, width: float, money: ChipsAt, tz: ZoneInfo) -> Flowable:
    if not report.hands:
        return note("No hands were played.")
    fractions = (0.06, 0.08, 0.16, 0.08, 0.2, 0.06, 0.19, 0.17)
    widths = [f * width for f in fractions]
    rows = [
        [
            str(h.number),
            str(h.hand_id),
            local_time(h.settled_at, tz, "short"),
            h.status,
            h.winner or "",
            str(h.seats),
            money(h.won, signed=True) if h.winner else "",
            money(h.drop),
        ]
        for h in report.hands
    ]
    header = ["Hand", "Id", "Settled", "Status", "Winner", "Seats", "Won", "Drop"]
    return PagedTable(header, rows, widths, right=(0, 1, 5, 6, 7))
