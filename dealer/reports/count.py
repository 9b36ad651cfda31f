"""The count at a session's close, as the session report prints it."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from reportlab.platypus import Flowable

from dealer.reports.figures import chips_text, local_time, money_text
from dealer.reports.layout import note, pairs, section
from dealer.views.documents.model import CountLine

__all__ = ["count_section"]


def count_section(count: CountLine | None, width: float, tz: ZoneInfo, cur: str) -> list[Flowable]:
    """What was counted, what the ledger says, the variance, and who counted and confirmed."""
    title = section("Count at the close")
    if count is None:
        return [*title, note("Not counted yet.")]
    value = count.chip_value_cents
    items = [
        ("counted", local_time(count.at, tz)),
        ("tray", f"{chips_text(count.tray_chips, value, cur)} counted"),
        ("the ledger", f"{chips_text(count.expected_chips, value, cur)} (the session's drop)"),
        ("variance", chips_text(count.variance, value, cur, signed=True)),
    ]
    if count.drop_box_cents is not None and count.expected_cents is not None:
        items += [
            ("drop box", f"{money_text(count.drop_box_cents, cur)} counted"),
            ("cash sold", money_text(count.expected_cents, cur)),
            ("cash variance", money_text(count.cash_variance, cur, signed=True)),
        ]
    items += [("counted by", count.counted_by), ("confirmed by", count.confirmed_by or "nobody")]
    if count.approved_by:
        items += [("variance approved by", count.approved_by), ("reason", count.reason or "")]
    return [*title, pairs(items, width)]
