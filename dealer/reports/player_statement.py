"""A player's statement: buy-ins, cash-outs and what the play won or lost, by day and by hand,
over a window (`dealer.disputes.players.player_statement` works it out; this only prints it)."""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

from reportlab.platypus import Flowable, Spacer

from dealer.clock import zone
from dealer.disputes.players import PlayerStatement
from dealer.reports.figures import amount_text, local_time
from dealer.reports.layout import grid, note, pairs, section, signatures
from dealer.reports.pages import PageDecor, PrintOptions, build_pdf, frame_width
from dealer.views.documents.shift_tally import Amount
from dealer.words.catalogue import say
from dealer.words.numbers import balance_words, money_words
from dealer.words.times import day_words


def player_statement_pdf(statement: PlayerStatement, options: PrintOptions | None = None) -> bytes:
    """The statement as a PDF, in chips and in money (each chip at its own table's value)."""
    options = options or PrintOptions()
    cur = options.currency
    tz = zone(options.timezone)
    width = frame_width(options)
    player = statement.player
    window = say(
        "{start} to {end}",
        start=local_time(statement.start, tz) or say("the start"),
        end=local_time(statement.end, tz) or say("now"),
    )
    summary = _summary(statement, window, cur)
    days: list[list[Any]] = [
        [
            day_words(d.day),
            _both(d.buy_ins, d.buy_ins_cents, cur),
            _both(d.cash_outs, d.cash_outs_cents, cur),
            _both(d.net, d.net_cents, cur, signed=True),
        ]
        for d in statement.days
    ]
    hands: list[list[Any]] = [
        [
            say("{table} hand {number}", table=h.table, number=h.number),
            str(h.seat),
            local_time(h.at, tz, "minute"),
            _both(h.net, h.net_cents, cur, signed=True),
        ]
        for h in statement.hands
    ]
    story: list[Flowable] = [pairs(summary, width), *section(say("By day (chips and money)"))]
    story.append(_by_day(statement, days, width, cur))
    story += [*section(say("By hand (chips and money)"))]
    if hands:
        widths = [width * f for f in (0.40, 0.10, 0.30, 0.20)]
        header = [say("Hand"), say("Seat"), say("Dealt"), say("Won or lost")]
        story.append(grid(header, hands, widths, right=(1, 3)))
    else:
        story.append(note(escape(say("No hand in this window."))))
    if statement.collections:
        taken = say(
            "Time collection, taken outside hands: {chips}.",
            chips=_both(statement.collections, statement.collections_cents, cur, signed=True),
        )
        story.append(note(escape(taken)))
    sign = signatures(say("Supervisor signature - name"), say("Player signature"), width)
    story += [Spacer(1, 18), sign]
    decor = PageDecor(say("Player statement"), f"{player.name} - {window}", options)
    return build_pdf(story, decor)


def _summary(statement: PlayerStatement, window: str, cur: str) -> list[tuple[str, str]]:
    player = statement.player
    s = statement
    return [
        (say("player"), say("{name} (player {id})", name=player.name, id=player.id)),
        (say("card number"), player.card_number or say("none")),
        (say("window"), window),
        (say("stays in a seat"), str(statement.seatings)),
        (say("bought in"), amount_text(Amount(s.buy_ins, s.buy_ins_cents), cur)),
        (say("cashed out"), amount_text(Amount(s.cash_outs, s.cash_outs_cents), cur)),
        (say("time collection"), _signed(Amount(s.collections, s.collections_cents), cur)),
        (say("won or lost at play"), _signed(Amount(s.net, s.net_cents), cur)),
    ]


def _signed(amount: Amount, cur: str) -> str:
    """``+5 chips (+$2.50)``, and ``0 chips ($0.00)`` with no sign."""
    return amount_text(amount, cur, signed=True)


def _both(chips: int, cents: int, cur: str, signed: bool = False) -> str:
    """A cell of the tables: ``+46 (+$23.00)``, the chips and their money."""
    written = balance_words(chips) if signed else str(chips)
    return f"{written} ({money_words(cents, cur, signed)})"


def _by_day(statement: PlayerStatement, days: list[list[Any]], width: float, cur: str) -> Flowable:
    """The days' table, with its total; a note when the window holds none."""
    quarter = [width * f for f in (0.34, 0.22, 0.22, 0.22)]
    if not days:
        return note(escape(say("Nothing in this window.")))
    s = statement
    total = [say("Total"), _both(s.buy_ins, s.buy_ins_cents, cur)]
    total += [_both(s.cash_outs, s.cash_outs_cents, cur)]
    days.append([*total, _both(s.net, s.net_cents, cur, signed=True)])
    return grid(
        [say("Day"), say("Bought in"), say("Cashed out"), say("Won or lost")],
        days,
        quarter,
        right=(1, 2, 3),
        total=True,
    )
