"""The count at a session's close, as the session report prints it."""

from __future__ import annotations

from xml.sax.saxutils import escape
from zoneinfo import ZoneInfo

from reportlab.platypus import Flowable

from dealer.reports.figures import chips_text, local_time
from dealer.reports.layout import note, pairs, section
from dealer.views.downs import CountView
from dealer.words.catalogue import say
from dealer.words.numbers import money_words


def count_section(
    count: CountView | None, value: int, width: float, tz: ZoneInfo, cur: str, drop: str
) -> list[Flowable]:
    """What was counted, what the ledger says, the variance, and who counted and confirmed;
    before the count, what the ledger expects in the tray (``drop``: the session's drop); chips
    are worth ``value`` cents."""
    title = section(say("Count at the close"))
    if count is None:
        expects = say("Not counted yet: the ledger expects {drop} in the tray.", drop=drop)
        return [*title, note(escape(expects))]
    expected = chips_text(count.expected_chips, value, cur)
    items = [
        (say("counted"), local_time(count.at, tz)),
        (say("tray"), say("{chips} counted", chips=chips_text(count.tray_chips, value, cur))),
        (say("the ledger"), say("{chips} (the session's drop)", chips=expected)),
        (say("variance"), chips_text(count.variance, value, cur, signed=True)),
    ]
    if count.drop_box_cents is not None and count.expected_cents is not None:
        box = money_words(count.drop_box_cents, cur)
        items += [
            (say("drop box"), say("{money} counted", money=box)),
            (say("cash sold"), money_words(count.expected_cents, cur)),
            (say("cash variance"), money_words(count.cash_variance_cents, cur, signed=True)),
        ]
    items += [
        (say("counted by"), count.counted_by),
        (say("confirmed by"), count.confirmed_by or say("nobody")),
    ]
    if count.approved_by:
        items += [
            (say("variance approved by"), count.approved_by),
            (say("reason"), count.reason or ""),
        ]
    return [*title, pairs(items, width)]
