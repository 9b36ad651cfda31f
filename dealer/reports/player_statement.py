"""A player's statement: buy-ins, cash-outs and what the play won or lost, by day and by hand,
over a window (`dealer.disputes.players.player_statement` works it out; this only prints it)."""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

from reportlab.platypus import Flowable, Spacer

from dealer.disputes.players import PlayerStatement
from dealer.reports.figures import balance_text, local_time, zone
from dealer.reports.layout import grid, note, pairs, section, signatures
from dealer.reports.pages import PageDecor, build_pdf, frame_width
from dealer.views.documents.model import PrintOptions
from dealer.words.catalogue import say, say_n

__all__ = ["player_statement_pdf"]


def player_statement_pdf(statement: PlayerStatement, options: PrintOptions | None = None) -> bytes:
    """The statement as a PDF, in chips (tables may value a chip differently)."""
    options = options or PrintOptions()
    tz = zone(options.timezone)
    width = frame_width(options)
    player = statement.player
    window = say(
        "{start} to {end}",
        start=local_time(statement.start, tz) or say("the start"),
        end=local_time(statement.end, tz) or say("now"),
    )
    summary = _summary(statement, window)
    days: list[list[Any]] = [
        [d.day.isoformat(), str(d.buy_ins), str(d.cash_outs), balance_text(d.net)]
        for d in statement.days
    ]
    hands: list[list[Any]] = [
        [
            say("{table} hand {number}", table=h.table, number=h.number),
            str(h.seat),
            local_time(h.at, tz, "minute"),
            balance_text(h.net),
        ]
        for h in statement.hands
    ]
    story: list[Flowable] = [pairs(summary, width), *section(say("By day (chips)"))]
    story.append(_by_day(statement, days, width))
    story += [*section(say("By hand (chips)"))]
    if hands:
        widths = [width * f for f in (0.40, 0.10, 0.30, 0.20)]
        header = [say("Hand"), say("Seat"), say("Dealt"), say("Won or lost")]
        story.append(grid(header, hands, widths, right=(1, 3)))
    else:
        story.append(note(escape(say("No hand in this window."))))
    if statement.collections:
        taken = say(
            "Time collection, taken outside hands: {chips}.",
            chips=balance_text(statement.collections),
        )
        story.append(note(escape(taken)))
    sign = signatures(say("Supervisor signature - name"), say("Player signature"), width)
    story += [Spacer(1, 18), sign]
    decor = PageDecor(say("Player statement"), f"{player.name} - {window}", options)
    return build_pdf(story, decor)


def _summary(statement: PlayerStatement, window: str) -> list[tuple[str, str]]:
    player = statement.player
    return [
        (say("player"), say("{name} (player {id})", name=player.name, id=player.id)),
        (say("card number"), player.card_number or say("none")),
        (say("window"), window),
        (say("stays in a seat"), str(statement.seatings)),
        (say("bought in"), _chips(statement.buy_ins, str(statement.buy_ins))),
        (say("cashed out"), _chips(statement.cash_outs, str(statement.cash_outs))),
        (say("time collection"), _chips(statement.collections)),
        (say("won or lost at play"), _chips(statement.net)),
    ]


def _chips(chips: int, written: str | None = None) -> str:
    """``12 chips``, ``+5 chips``: a figure of the summary (signed unless ``written``)."""
    written = balance_text(chips) if written is None else written
    return say_n("{chips} chip", "{chips} chips", abs(chips), chips=written)


def _by_day(statement: PlayerStatement, days: list[list[Any]], width: float) -> Flowable:
    """The days' table, with its total; a note when the window holds none."""
    quarter = [width * f for f in (0.34, 0.22, 0.22, 0.22)]
    if not days:
        return note(escape(say("Nothing in this window.")))
    total = [say("Total"), str(statement.buy_ins), str(statement.cash_outs)]
    days.append([*total, balance_text(statement.net)])
    return grid(
        [say("Day"), say("Bought in"), say("Cashed out"), say("Won or lost")],
        days,
        quarter,
        right=(1, 2, 3),
        total=True,
    )
