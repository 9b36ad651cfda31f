"""The shift ledger's first pages: what a manager checks first, in one place.

The figures, then the collections and rake by table and by dealer, cash in and out, short
stacks, and the counts at the sessions' close with their variances.
"""

from __future__ import annotations

from zoneinfo import ZoneInfo

from reportlab.platypus import Flowable

from dealer.reports.checkpoint import checked_text
from dealer.reports.figures import amount_text, chips_text, local_time, money_text
from dealer.reports.layout import PagedTable, note, pairs, section
from dealer.views.documents.model import Amount
from dealer.views.documents.shift_model import ShiftReport

__all__ = ["summary_story"]


def _amount(report: ShiftReport, field: str) -> Amount:
    total = Amount()
    for t in report.tables:
        total += Amount.of(getattr(t, field), t.chip_value_cents)
    return total


def summary_pairs(report: ShiftReport, tz: ZoneInfo, cur: str) -> list[tuple[str, str]]:
    """The figures of the summary, as (label, value)."""
    hands = sum(t.hands for t in report.tables)
    voids = sum(t.void_hands for t in report.tables)
    still_open = sum(1 for d in report.disputes if d.is_open)
    short = Amount()
    for s in report.short_stacks:
        short += Amount.of(s.chips, s.chip_value_cents)
    variances = [c for c in report.counts if c.variance or c.cash_variance]
    trial = report.trial_total
    chain = report.chain
    point = report.checkpoint
    return [
        ("from", local_time(report.window_from, tz)),
        ("to", local_time(report.window_to, tz)),
        ("tables", str(len(report.tables))),
        ("hands", f"{hands} ({voids} void{'' if voids == 1 else 's'})"),
        ("voided events", str(sum(t.voided_events for t in report.tables))),
        ("overrides and approvals", str(sum(t.overrides for t in report.tables))),
        ("disputes", f"{still_open} open, {len(report.disputes) - still_open} ruled"),
        ("house drop", amount_text(report.drop, cur)),
        ("collected", amount_text(_amount(report, "collected"), cur)),
        ("rake", amount_text(_amount(report, "rake"), cur)),
        ("cash in (buy-ins)", amount_text(_amount(report, "buy_ins"), cur)),
        ("cash out (cash-outs)", amount_text(_amount(report, "cash_outs"), cur)),
        ("short stacks", f"{len(report.short_stacks)} ({amount_text(short, cur, signed=True)})"),
        ("counts", f"{len(report.counts)} ({len(variances)} with a variance)"),
        ("players", str(len(report.players))),
        ("trial balance", "balances (0 chips)" if not trial else f"OFF BY {trial} chips"),
        ("chain check", f"{'OK' if chain.ok else 'FAILED'} over {chain.entries} entries"),
        ("checked", checked_text(chain, tz)),
        (
            "checkpoint",
            f"link {point.seq}, {'checked' if point.checked else 'filed unchecked'}"
            if point is not None
            else "none filed",
        ),
        ("head hash", chain.head or "none"),
    ]


def summary_story(report: ShiftReport, width: float, tz: ZoneInfo, cur: str) -> list[Flowable]:
    """The summary: its figures, then each table's and each dealer's."""
    story: list[Flowable] = [pairs(summary_pairs(report, tz, cur), width)]
    story += [*section("Collections and rake by table"), _collections(report, width, cur)]
    story += [*section("Collections by dealer"), _dealers(report, width, cur)]
    story += [*section("Cash in and out by table"), _cash(report, width, cur)]
    if report.short_stacks:
        story += [*section("Short stacks at the end"), _short(report, width, cur)]
    story += [*section("Counts at the sessions' close"), _counts(report, width, tz, cur)]
    return story


def _collections(report: ShiftReport, width: float, cur: str) -> Flowable:
    if not report.tables:
        return note("No table in the window.")
    fractions = (0.2, 0.07, 0.1, 0.07, 0.14, 0.14, 0.14, 0.14)
    rows = []
    for t in report.tables:
        value = t.chip_value_cents
        rows.append(
            [
                t.name,
                str(t.hands),
                f"{t.void_hands} / {t.voided_events}",
                str(t.overrides),
                chips_text(t.collected, value, cur),
                chips_text(t.rake, value, cur),
                chips_text(t.returned, value, cur),
                chips_text(t.drop, value, cur),
            ]
        )
    total = [
        "Total",
        str(sum(t.hands for t in report.tables)),
        f"{sum(t.void_hands for t in report.tables)} / "
        f"{sum(t.voided_events for t in report.tables)}",
        str(sum(t.overrides for t in report.tables)),
        amount_text(_amount(report, "collected"), cur),
        amount_text(_amount(report, "rake"), cur),
        amount_text(_amount(report, "returned"), cur),
        amount_text(report.drop, cur),
    ]
    header = ["Table", "Hands", "Voids / events", "Overrides"]
    header += ["Collected", "Rake", "Returned", "Drop"]
    right = (1, 2, 3, 4, 5, 6, 7)
    return PagedTable(header, rows, [f * width for f in fractions], right=right, total=total)


def _dealers(report: ShiftReport, width: float, cur: str) -> Flowable:
    if not report.dealers:
        return note("No dealer dealt in the window.")
    fractions = (0.25, 0.4, 0.1, 0.25)
    rows = [
        [d.dealer, ", ".join(d.tables), str(d.hands), amount_text(d.drop, cur)]
        for d in report.dealers
    ]
    drop = Amount()
    for d in report.dealers:
        drop += d.drop
    total = ["Total", "", str(sum(d.hands for d in report.dealers)), amount_text(drop, cur)]
    header = ["Dealer", "Tables", "Hands", "Drop"]
    widths = [f * width for f in fractions]
    return PagedTable(header, rows, widths, right=(2, 3), total=total)


def _cash(report: ShiftReport, width: float, cur: str) -> Flowable:
    if not report.tables:
        return note("No table in the window.")
    fractions = (0.3, 0.25, 0.25, 0.2)
    rows = [
        [
            t.name,
            chips_text(t.buy_ins, t.chip_value_cents, cur),
            chips_text(t.cash_outs, t.chip_value_cents, cur),
            money_text(t.chip_value_cents, cur),
        ]
        for t in report.tables
    ]
    total = [
        "Total",
        amount_text(_amount(report, "buy_ins"), cur),
        amount_text(_amount(report, "cash_outs"), cur),
        "",
    ]
    header = ["Table", "Cash in (buy-ins)", "Cash out (cash-outs)", "Chip value"]
    widths = [f * width for f in fractions]
    return PagedTable(header, rows, widths, right=(1, 2, 3), total=total)


def _short(report: ShiftReport, width: float, cur: str) -> Flowable:
    fractions = (0.3, 0.1, 0.35, 0.25)
    rows = [
        [s.table, str(s.seat), s.player, chips_text(s.chips, s.chip_value_cents, cur, True)]
        for s in report.short_stacks
    ]
    header = ["Table", "Seat", "Player", "Stack"]
    return PagedTable(header, rows, [f * width for f in fractions], right=(1, 3))


def _counts(report: ShiftReport, width: float, tz: ZoneInfo, cur: str) -> Flowable:
    if not report.counts:
        return note("No count was recorded at a session's close in the window.")
    fractions = (0.14, 0.12, 0.1, 0.16, 0.16, 0.32)
    rows = []
    for c in report.counts:
        value = c.chip_value_cents
        cash = ""
        if c.drop_box_cents is not None:
            cash = f"{money_text(c.drop_box_cents, cur)} ({money_text(c.cash_variance, cur, True)})"
        who = f"{c.counted_by}; confirmed by {c.confirmed_by or 'nobody yet'}"
        if c.approved_by:
            who += f"; variance approved by {c.approved_by}: {c.reason or ''}"
        rows.append(
            [
                c.table,
                c.dealer,
                local_time(c.at, tz, "short"),
                f"{c.tray_chips:,} of {c.expected_chips:,}",
                chips_text(c.variance, value, cur, signed=True),
                who,
            ]
        )
        if cash:
            rows.append(["", "", "", "drop box", cash, ""])
    header = ["Table", "Dealer", "At", "Tray counted", "Variance", "Counted, confirmed"]
    return PagedTable(header, rows, [f * width for f in fractions], right=(3, 4))
