"""The shift ledger's first pages: what a manager checks first, in one place.

The money first (the drop, the cash, the counts at the sessions' close with their variances
and their reasons, whole), then the collections and rake by table and by dealer, cash in and
out, short stacks; then the ledger's proof (the trial balance, the chain, the checkpoint).
"""

from __future__ import annotations

from xml.sax.saxutils import escape
from zoneinfo import ZoneInfo

from reportlab.platypus import Flowable

from dealer.reports.checkpoint import checked_text
from dealer.reports.figures import amount_text, chips_text, local_time
from dealer.reports.layout import PagedTable, note, pairs, section
from dealer.views.documents.shift import ShiftReport
from dealer.views.documents.shift_tally import Amount
from dealer.words.catalogue import say, say_n
from dealer.words.numbers import money_words
from dealer.words.tables import hands_dealt, hands_dealt_label


def _amount(report: ShiftReport, field: str) -> Amount:
    return sum((Amount.of(getattr(t, field), t.chip_value_cents) for t in report.tables), Amount())


def money_pairs(report: ShiftReport, tz: ZoneInfo, cur: str) -> list[tuple[str, str]]:
    """The money of the window first, as a manager reads it: the drop, the cash, the counts
    and their variances, then what happened at the tables."""
    hands = sum(t.hands for t in report.tables)
    voids = sum(t.void_hands for t in report.tables)
    still_open = sum(1 for d in report.disputes if d.is_open)
    short = sum((Amount.of(s.chips, s.chip_value_cents) for s in report.short_stacks), Amount())
    variances = [c for c in report.counts if c.varies]
    short_stacks = amount_text(short, cur, signed=True)
    return [
        (say("from"), local_time(report.window_from, tz)),
        (say("to"), local_time(report.window_to, tz)),
        (say("house drop"), amount_text(report.drop, cur)),
        (say("collected"), amount_text(_amount(report, "collected"), cur)),
        (say("rake"), amount_text(_amount(report, "rake"), cur)),
        (say("cash in (buy-ins)"), amount_text(_amount(report, "buy_ins"), cur)),
        (say("cash out (cash-outs)"), amount_text(_amount(report, "cash_outs"), cur)),
        (
            say("counts"),
            say(
                "{counts} ({variances} with a variance)",
                counts=len(report.counts),
                variances=len(variances),
            ),
        ),
        (say("short stacks"), f"{len(report.short_stacks)} ({short_stacks})"),
        (say("tables"), str(len(report.tables))),
        (hands_dealt_label(), hands_dealt(hands, voids)),
        (say("voided events"), str(sum(t.voided_events for t in report.tables))),
        (say("overrides and approvals"), str(sum(t.overrides for t in report.tables))),
        (
            say("disputes"),
            say(
                "{open} open, {ruled} ruled",
                open=still_open,
                ruled=len(report.disputes) - still_open,
            ),
        ),
        (say("players"), str(len(report.players))),
    ]


def proof_pairs(report: ShiftReport, tz: ZoneInfo) -> list[tuple[str, str]]:
    """The ledger's proof, after the money: the trial balance, the chain, the checkpoint."""
    balance, chained, filed = _books_words(report)
    return [
        (say("trial balance"), balance),
        (say("chain check"), chained),
        (say("checked"), checked_text(report.chain, tz)),
        (say("checkpoint"), filed),
        (say("head hash"), report.chain.head or say("none")),
    ]


def _books_words(report: ShiftReport) -> tuple[str, str, str]:
    """The trial balance's, the chain check's and the checkpoint's verdicts in words."""
    trial, chain, point = report.trial_total, report.chain, report.checkpoint
    if trial:
        balance = say_n("OFF BY {n} chip", "OFF BY {n} chips", trial)
    else:
        balance = say("balances (0 chips)")
    if chain.ok:
        chained = say_n("OK over {n} entry", "OK over {n} entries", chain.entries)
    else:
        chained = say_n("FAILED over {n} entry", "FAILED over {n} entries", chain.entries)
    if point is None:
        filed = say("none filed")
    elif point.checked:
        filed = say("link {seq}, checked", seq=point.seq)
    else:
        filed = say("link {seq}, filed unchecked", seq=point.seq)
    return balance, chained, filed


def summary_story(report: ShiftReport, width: float, tz: ZoneInfo, cur: str) -> list[Flowable]:
    """The summary: the money, the counts with their variances and reasons, each table's and
    each dealer's figures; then the ledger's proof."""
    story: list[Flowable] = [pairs(money_pairs(report, tz, cur), width)]
    story += [*section(say("Counts at the sessions' close")), *_counts(report, width, tz, cur)]
    story += [*section(say("Collections and rake by table")), _collections(report, width, cur)]
    story += [*section(say("Collections by dealer")), _dealers(report, width, cur)]
    story += [*section(say("Cash in and out by table")), _cash(report, width, cur)]
    if report.short_stacks:
        story += [*section(say("Short stacks at the end")), _short(report, width, cur)]
    story += [*section(say("The ledger's proof")), pairs(proof_pairs(report, tz), width)]
    return story


def _collections(report: ShiftReport, width: float, cur: str) -> Flowable:
    if not report.tables:
        return note(escape(say("No table in the window.")))
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
        say("Total"),
        str(sum(t.hands for t in report.tables)),
        f"{sum(t.void_hands for t in report.tables)} / "
        f"{sum(t.voided_events for t in report.tables)}",
        str(sum(t.overrides for t in report.tables)),
        amount_text(_amount(report, "collected"), cur),
        amount_text(_amount(report, "rake"), cur),
        amount_text(_amount(report, "returned"), cur),
        amount_text(report.drop, cur),
    ]
    header = [say("Table"), say("Hands"), say("Voids / events"), say("Overrides")]
    header += [say("Collected"), say("Rake"), say("Returned"), say("Drop")]
    right = (1, 2, 3, 4, 5, 6, 7)
    return PagedTable(header, rows, [f * width for f in fractions], right=right, total=total)


def _dealers(report: ShiftReport, width: float, cur: str) -> Flowable:
    if not report.dealers:
        return note(escape(say("No dealer dealt in the window.")))
    fractions = (0.25, 0.4, 0.1, 0.25)
    rows = [
        [d.dealer, ", ".join(d.tables), str(d.hands), amount_text(d.drop, cur)]
        for d in report.dealers
    ]
    drop = sum((d.drop for d in report.dealers), Amount())
    total = [say("Total"), "", str(sum(d.hands for d in report.dealers)), amount_text(drop, cur)]
    header = [say("Dealer"), say("Tables"), say("Hands"), say("Drop")]
    widths = [f * width for f in fractions]
    return PagedTable(header, rows, widths, right=(2, 3), total=total)


def _cash(report: ShiftReport, width: float, cur: str) -> Flowable:
    if not report.tables:
        return note(escape(say("No table in the window.")))
    fractions = (0.3, 0.25, 0.25, 0.2)
    rows = [
        [
            t.name,
            chips_text(t.buy_ins, t.chip_value_cents, cur),
            chips_text(t.cash_outs, t.chip_value_cents, cur),
            money_words(t.chip_value_cents, cur),
        ]
        for t in report.tables
    ]
    total = [
        say("Total"),
        amount_text(_amount(report, "buy_ins"), cur),
        amount_text(_amount(report, "cash_outs"), cur),
        "",
    ]
    header = [say("Table"), say("Cash in (buy-ins)"), say("Cash out (cash-outs)")]
    header += [say("Chip value")]
    widths = [f * width for f in fractions]
    return PagedTable(header, rows, widths, right=(1, 2, 3), total=total)


def _short(report: ShiftReport, width: float, cur: str) -> Flowable:
    fractions = (0.3, 0.1, 0.35, 0.25)
    rows = [
        [s.table, str(s.seat), s.player, chips_text(s.chips, s.chip_value_cents, cur, True)]
        for s in report.short_stacks
    ]
    header = [say("Table"), say("Seat"), say("Player"), say("Stack")]
    return PagedTable(header, rows, [f * width for f in fractions], right=(1, 3))


def _counts(report: ShiftReport, width: float, tz: ZoneInfo, cur: str) -> list[Flowable]:
    """Each count: what was counted, what the ledger says, the variance and who confirmed;
    then each variance's approval and reason, whole."""
    if not report.counts:
        return [note(escape(say("No count was recorded at a session's close in the window.")))]
    fractions = (0.15, 0.12, 0.1, 0.15, 0.15, 0.15, 0.18)
    rows = []
    for c in report.counts:
        value = c.chip_value_cents
        rows.append(
            [
                c.table,
                c.dealer,
                local_time(c.at, tz, "short"),
                chips_text(c.tray_chips, value, cur),
                chips_text(c.expected_chips, value, cur),
                chips_text(c.variance, value, cur, signed=True),
                c.confirmed_by or say("nobody yet"),
            ]
        )
        if c.drop_box_cents is not None and c.expected_cents is not None:
            rows.append(
                [
                    "",
                    "",
                    say("drop box"),
                    money_words(c.drop_box_cents, cur),
                    money_words(c.expected_cents, cur),
                    money_words(c.cash_variance_cents, cur, True),
                    "",
                ]
            )
    header = [say("Table"), say("Dealer"), say("At"), say("Counted"), say("The ledger")]
    header += [say("Variance"), say("Confirmed by")]
    story: list[Flowable] = [
        PagedTable(header, rows, [f * width for f in fractions], right=(3, 4, 5))
    ]
    for c in report.counts:
        if not c.varies:
            continue
        words = say(
            "{table}, {at}: {variance} counted by {counter}, confirmed by {confirmer}; "
            "approved by {approver}. Reason: {reason}",
            table=c.table,
            at=local_time(c.at, tz, "short"),
            variance=chips_text(c.variance, c.chip_value_cents, cur, signed=True),
            counter=c.counted_by,
            confirmer=c.confirmed_by or say("nobody yet"),
            approver=c.approved_by or say("nobody (within the table's tolerance)"),
            reason=c.reason or say("none given"),
        )
        story.append(note(escape(words)))
    return story
