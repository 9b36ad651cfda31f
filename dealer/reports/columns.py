"""A table's columns sized for the language printed: each column at least as wide as its
header's longest word, so "Asiento" or "Upuan" is never broken in two where "Seat" fit (a
one-line listing's: its whole header in the smallest type, so it is never clipped). The room is
taken from the columns with some to spare, and a table whose headers fit already keeps the
widths it was given (English's)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from reportlab.pdfbase.pdfmetrics import stringWidth

from dealer.reports.fonts import BOLD

PAD = 3  # points of padding left and right of a cell


def _needs(header: Any, size: float, whole: bool) -> float:
    if not isinstance(header, str) or not header.strip():
        return 0.0
    words = [header] if whole else header.split()
    return max(stringWidth(word, BOLD, size) for word in words) + 2 * PAD + 0.01  # rounding


def header_widths(
    header: Sequence[Any], widths: Sequence[float], size: float, whole: bool = False
) -> list[float]:
    """``widths``, each column widened to hold its header's longest word in the bold face at
    ``size`` (its whole header when ``whole``), the room taken from the other columns in
    proportion to what they have to spare; the table's width is kept."""
    needs = [_needs(h, size, whole) for h in header]
    short = [max(need - width, 0.0) for need, width in zip(needs, widths, strict=True)]
    spare = [max(width - need, 0.0) for need, width in zip(needs, widths, strict=True)]
    wanted, room = sum(short), sum(spare)
    if not wanted or not room:
        return list(widths)
    given = min(wanted, room)
    return [
        width + lack * given / wanted - left * given / room
        for width, lack, left in zip(widths, short, spare, strict=True)
    ]


def label_width(labels: Sequence[str], pair: float, share: float, most: float = 0.6) -> float:
    """The labels' column of a pair ``pair`` points wide: its ``share`` of it, widened (to at
    most ``most`` of it) to hold the longest label on one line rather than clip it."""
    longest = max((_needs(label, 7.5, whole=True) for label in labels), default=0.0)
    return max(pair * share, min(longest, pair * most))
