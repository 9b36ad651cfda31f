"""A player's statement: buy-ins, cash-outs and what the play won or lost, by day and by hand,
over a window (`dealer.disputes.players.player_statement` works it out; this only prints it)."""

from __future__ import annotations

from typing import Any

from reportlab.platypus import Flowable, Spacer

from dealer.disputes.players import PlayerStatement
from dealer.reports.figures import balance_text, local_time, zone
from dealer.reports.layout import grid, note, pairs, section, signatures
from dealer.reports.pages import PageDecor, build_pdf, frame_width
from dealer.views.documents.model import PrintOptions

__all__ = ["player_statement_pdf"]


def player_statement_pdf(statement: PlayerStatement, options: PrintOptions | None = None) -> bytes:
    """The statement as a PDF, in chips (tables may value a chip differently)."""
    options = options or PrintOptions()
    tz = zone(options.timezone)
    width = frame_width(options)
    player = statement.player
    window = (
        f"{local_time(statement.start, tz) or 'the start'} to "
        f"{local_time(statement.end, tz) or 'now'}"
    )
    summary = _summary(statement, window)
    days: list[list[Any]] = [
        [d.day.isoformat(), str(d.buy_ins), str(d.cash_outs), balance_text(d.net)]
        for d in statement.days
    ]
    hands: list[list[Any]] = [
        [
            f"{h.table} hand {h.number}",
            str(h.seat),
            local_time(h.at, tz, "minute"),
            balance_text(h.net),
        ]
        for h in statement.hands
    ]
    story: list[Flowable] = [pairs(summary, width), *section("By day (chips)")]
    story.append(_by_day(statement, days, width))
    story += [*section("By hand (chips)")]
    if hands:
        widths = [width * f for f in (0.40, 0.10, 0.30, 0.20)]
        story.append(grid(["Hand", "Seat", "Dealt", "Won or lost"], hands, widths, right=(1, 3)))
    else:
        story.append(note("No hand in this window."))
    if statement.collections:
        story.append(
            note(f"Time collection, taken outside hands: {balance_text(statement.collections)}.")
        )
    story += [Spacer(1, 18), signatures("Supervisor signature - name", "Player signature", width)]
    decor = PageDecor("Player statement", f"{player.name} - {window}", options)
    return build_pdf(story, decor)


def _summary(statement: PlayerStatement, window: str) -> list[tuple[str, str]]:
    player = statement.player
    return [
        ("player", f"{player.name} (player {player.id})"),
        ("card number", player.card_number or "none"),
        ("window", window),
        ("stays in a seat", str(statement.seatings)),
        ("bought in", f"{statement.buy_ins} chips"),
        ("cashed out", f"{statement.cash_outs} chips"),
        ("time collection", f"{balance_text(statement.collections)} chips"),
        ("won or lost at play", f"{balance_text(statement.net)} chips"),
    ]


def _by_day(statement: PlayerStatement, days: list[list[Any]], width: float) -> Flowable:
    """The days' table, with its total; a note when the window holds none."""
    quarter = [width * f for f in (0.34, 0.22, 0.22, 0.22)]
    if not days:
        return note("Nothing in this window.")
    total = ["Total", str(statement.buy_ins), str(statement.cash_outs)]
    days.append([*total, balance_text(statement.net)])
    return grid(
        ["Day", "Bought in", "Cashed out", "Won or lost"],
        days,
        quarter,
        right=(1, 2, 3),
        total=True,
    )
