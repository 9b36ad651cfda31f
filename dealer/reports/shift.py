"""The shift ledger: every table over a window, the players, the drop, the books' checks."""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

from reportlab.platypus import Flowable, PageBreak, Spacer

from dealer.clock import zone
from dealer.reports.charts import bar_chart
from dealer.reports.checkpoint import checkpoint_section, checks_banner
from dealer.reports.dispute_table import disputes_story
from dealer.reports.figures import amount_text, chips_text, local_time, status_text
from dealer.reports.layout import PagedTable, note, section
from dealer.reports.pages import PageDecor, PrintOptions, build_pdf, frame_width
from dealer.reports.shift_summary import summary_story
from dealer.views.documents.shift import ShiftReport
from dealer.views.documents.shift_tally import Amount
from dealer.words.catalogue import number, say
from dealer.words.checks import failed_short
from dealer.words.numbers import balance_words, money_words

CHART_HEIGHT = 150.0


def shift_pdf(report: ShiftReport, options: PrintOptions | None = None) -> bytes:
    """The shift ledger as a PDF: the summary first, then per table, then (unless left out)
    every hand as an appendix. When a check failed, a red banner lists why, and it prints."""
    options = options or PrintOptions()
    tz = zone(options.timezone)
    width = frame_width(options)
    cur = options.currency
    problems = report.all_problems()

    story: list[Flowable] = []
    story += checks_banner(problems, width)
    story += summary_story(report, width, tz, cur)
    story += [PageBreak(), *section(say("Per table"))]
    if report.engine_changed:
        story += [*section(say("Engine changes (not tampering)"))]
        story += [note(escape(line)) for line in report.engine_changed]
    charts = [
        c for c in (_hour_chart(report, width, cur, tz), _table_chart(report, width, cur)) if c
    ]
    if charts:
        story += [*section(say("Drop")), *(x for c in charts for x in (c, Spacer(1, 6)))]
    story += [
        *section(say("Tables")),
        _tables(report, width, cur),
        *section(say("Players")),
        _players(report, width, cur),
        *section(say("Trial balance (chips)")),
        _trial_balance(report, width),
        *disputes_story(report.disputes, width, tz),
        *checkpoint_section(report.checkpoint, tz, width),
    ]
    appendix = section(say("Appendix: every hand"))
    if report.with_hands:
        story += [PageBreak(), *appendix, _hands(report, width, options)]
    else:
        left_out = say("Left out of this copy: the ledger's CSV export lists every hand.")
        story += [*appendix, note(escape(left_out))]
    start, end = (local_time(t, tz, "minute") for t in (report.window_from, report.window_to))
    window = say("{start} to {end}", start=start, end=end)
    decor = PageDecor(
        say("Shift ledger"),
        say("All tables - {window}", window=window),
        options,
        report.reprint,
        alarm=failed_short() if problems else None,
    )
    return build_pdf(story, decor)


def _hour_chart(report: ShiftReport, width: float, cur: str, tz: Any) -> Flowable | None:
    """The drop hour by hour (day by day for a long window); None when nothing was dropped."""
    hours = report.drop_by_hour
    if not any(h.drop.cents or h.drop.chips for h in hours):
        return None
    # A long window is charted day by day (`shift_tally.drop_buckets`).
    by_day = len(hours) > 1 and (hours[1].start - hours[0].start).total_seconds() >= 86400
    span_days = (report.window_to - report.window_from).total_seconds() > 86400
    style = "date" if by_day else "short" if span_days else "hour"
    labels = [local_time(h.start, tz, style) for h in hours]
    values = [h.drop.cents / 100 for h in hours]
    if by_day:
        title = say("Drop by day ({currency})", currency=cur)
    else:
        title = say("Drop by hour ({currency})", currency=cur)
    return bar_chart(title, labels, values, width, CHART_HEIGHT, cur, label_values=True)


def _table_chart(report: ShiftReport, width: float, cur: str) -> Flowable | None:
    dropped = [t for t in report.tables if t.drop]
    if not dropped:
        return None
    labels = [t.name for t in dropped]
    values = [t.drop * t.chip_value_cents / 100 for t in dropped]
    title = say("Drop by table ({currency})", currency=cur)
    return bar_chart(title, labels, values, width, CHART_HEIGHT, cur, label_values=True)


def _tables(report: ShiftReport, width: float, cur: str) -> Flowable:
    fractions = (0.3, 0.13, 0.1, 0.1, 0.12, 0.25)
    widths = [f * width for f in fractions]
    rows = [
        [
            t.name,
            money_words(t.chip_value_cents, cur),
            str(t.hands),
            str(t.void_hands),
            str(t.voided_events),
            chips_text(t.drop, t.chip_value_cents, cur),
        ]
        for t in report.tables
    ]
    total = [
        say("Total"),
        "",
        str(sum(t.hands for t in report.tables)),
        str(sum(t.void_hands for t in report.tables)),
        str(sum(t.voided_events for t in report.tables)),
        amount_text(report.drop, cur),
    ]
    header = [say("Table"), say("Chip value"), say("Hands"), say("Void hands")]
    header += [say("Voided events"), say("Drop")]
    return PagedTable(header, rows, widths, right=(1, 2, 3, 4, 5), total=total)


def _players(report: ShiftReport, width: float, cur: str) -> Flowable:
    if not report.players:
        return note(escape(say("No players in the window.")))
    fractions = (0.16, 0.16, 0.07, 0.2, 0.2, 0.21)
    widths = [f * width for f in fractions]
    rows = [
        [
            p.player,
            ", ".join(p.tables),
            str(p.hands),
            amount_text(p.buy_ins, cur),
            amount_text(p.cash_outs, cur),
            amount_text(p.net, cur, signed=True),
        ]
        for p in report.players
    ]
    total = [
        say("Total"),
        "",
        "",
        amount_text(sum((p.buy_ins for p in report.players), Amount()), cur),
        amount_text(sum((p.cash_outs for p in report.players), Amount()), cur),
        amount_text(sum((p.net for p in report.players), Amount()), cur, signed=True),
    ]
    header = [say("Player"), say("Tables"), say("Hands"), say("Buy-ins"), say("Cash-outs")]
    header += [say("Net")]
    return PagedTable(header, rows, widths, right=(2, 3, 4, 5), total=total)


def _trial_balance(report: ShiftReport, width: float) -> Flowable:
    fractions = (0.4, 0.2, 0.2, 0.2)
    widths = [f * width for f in fractions]
    rows = [
        [line.account, number(line.debits), number(line.credits), balance_words(line.balance)]
        for line in report.trial_balance
    ]
    debits = sum(line.debits for line in report.trial_balance)
    credits = sum(line.credits for line in report.trial_balance)
    total = [say("Total"), number(debits), number(credits), balance_words(report.trial_total)]
    header = [say("Account"), say("Debits"), say("Credits"), say("Balance")]
    return PagedTable(header, rows, widths, right=(1, 2, 3), total=total)


def hand_header() -> list[str]:
    """The appendix's columns, in the catalogue's language of the moment."""
    return [
        say("Table"),
        say("Hand"),
        say("Settled"),
        say("Status"),
        say("Winner"),
        say("Seats"),
        say("Won"),
        say("Drop"),
    ]


def hand_rows(report: ShiftReport, options: PrintOptions) -> tuple[list[str], list[list[str]]]:
    """The listing of every hand as plain strings: header and rows (the benchmark's too)."""
    tz = zone(options.timezone)
    cur = options.currency
    value = {t.name: t.chip_value_cents for t in report.tables}
    rows = []
    for h in report.hands:
        if h.table_name not in value:
            raise ValueError(
                f"Hand {h.number} is at {h.table_name!r}, which is not a table of the shift."
            )
        cents = value[h.table_name]
        rows.append(
            [
                h.table_name,
                str(h.number),
                local_time(h.settled_at, tz, "short"),
                status_text(h.status),
                h.winner_words,
                str(h.seats),
                chips_text(h.won, cents, cur, signed=True) if h.winner else "",
                chips_text(h.drop, cents, cur),
            ]
        )
    return hand_header(), rows


def _hands(report: ShiftReport, width: float, options: PrintOptions) -> Flowable:
    if not report.hands:
        return note(escape(say("No hands in the window.")))
    fractions = (0.16, 0.07, 0.14, 0.08, 0.17, 0.06, 0.17, 0.15)
    header, rows = hand_rows(report, options)
    return PagedTable(header, rows, [f * width for f in fractions], right=(1, 5, 6, 7))
