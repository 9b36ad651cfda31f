"""The shift report's bar charts (``reportlab.graphics``): the drop by hour and by table."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from decimal import Decimal

from reportlab.graphics.charts.barcharts import VerticalBarChart
from reportlab.graphics.shapes import Drawing, String
from reportlab.lib import colors
from reportlab.pdfbase.pdfmetrics import stringWidth

from dealer.reports.fonts import BOLD, FONT
from dealer.reports.layout import clip
from dealer.words.catalogue import number, say

BAR_BLUE = colors.Color(0.22, 0.42, 0.66)


def _nice_step(top: float) -> float:
    """A round step that gives the value axis four to eight gridlines up to ``top``."""
    if top <= 0:
        return 1.0
    raw = top / 5
    power = 10 ** math.floor(math.log10(raw))
    for mult in (1, 2, 2.5, 5, 10):
        if raw <= mult * power:
            return float(mult * power)
    return float(10 * power)


def _money(value: float, currency: str, places: int) -> str:
    """``$12,150`` or ``$9.50``: the sign, then the figure as the language writes numbers."""
    return currency + number(Decimal(f"{value:.{places}f}"), places=places)


def bar_chart(
    title: str,
    labels: Sequence[str],
    values: Sequence[float],
    width: float,
    height: float,
    currency: str = "$",
    label_values: bool = False,
) -> Drawing:
    """Bars of ``values`` (money, in currency units) over ``labels``, titled, fitting the box.

    Many bars (40 tables) get upright labels; a handful get their value printed on top.
    """
    # Drawn from the documents' font, not ReportLab's default (Helvetica, never embedded).
    drawing = Drawing(width, height, initialFontName=FONT)
    drawing.add(String(0, height - 10, title, fontName=BOLD, fontSize=9))
    if not values:
        drawing.add(String(0, height - 28, say("Nothing to show."), fontName=FONT, fontSize=8))
        return drawing
    upright = len(labels) > 12
    label_room = 42 if upright else 14
    top = max(values)
    step = _nice_step(top * 1.08)  # headroom over the tallest bar for its label

    def money(v: float) -> str:
        return _money(v, currency, 0 if step >= 1 else 2)

    value_max = max(step, math.ceil(top * 1.08 / step) * step)
    chart = VerticalBarChart()
    chart.x = int(stringWidth(money(value_max), FONT, 6.5)) + 10  # room for the axis labels
    chart.y = label_room
    chart.width = int(width) - chart.x - 4
    chart.height = int(height) - label_room - 22
    chart.data = [list(values)]
    chart.bars[0].fillColor = BAR_BLUE
    chart.bars[0].strokeColor = None
    chart.barSpacing = 1
    chart.groupSpacing = 4 if upright else 10

    _label_categories(chart, labels, upright, label_room)
    _scale_values(chart, value_max, step, money)

    if label_values and not upright:
        # Cents only while they matter: "$9.50", but "$12,150".
        chart.barLabelFormat = lambda v: _money(v, currency, 2 if v < 100 else 0)
        chart.barLabels.fontName = FONT
        chart.barLabels.fontSize = 6
        chart.barLabels.nudge = 6
    drawing.add(chart)
    return drawing


def _label_categories(
    chart: VerticalBarChart, labels: Sequence[str], upright: bool, room: int
) -> None:
    """The labels under the bars: upright when there are many, clipped to their room."""
    slot = chart.width / len(labels)
    axis = chart.categoryAxis
    axis.categoryNames = [clip(str(x), room if upright else slot, FONT, 6.5) for x in labels]
    axis.labels.fontName = FONT
    axis.labels.fontSize = 6.5 if not upright else min(6.5, max(4.0, slot * 0.8))
    if upright:
        axis.labels.angle = 90
        axis.labels.boxAnchor = "e"
        axis.labels.dx = 0
        axis.labels.dy = -3
    else:
        axis.labels.boxAnchor = "n"
        axis.labels.dy = -3
    axis.strokeColor = colors.grey


def _scale_values(
    chart: VerticalBarChart, value_max: float, step: float, money: Callable[[float], str]
) -> None:
    """The value axis: from nought to ``value_max`` in round steps, with light gridlines."""
    value_axis = chart.valueAxis
    value_axis.valueMin = 0
    value_axis.valueMax = value_max
    value_axis.valueStep = step
    value_axis.labels.fontName = FONT
    value_axis.labels.fontSize = 6.5
    value_axis.labelTextFormat = money
    value_axis.visibleGrid = True
    value_axis.gridStrokeColor = colors.Color(0.85, 0.85, 0.85)
    value_axis.strokeColor = colors.grey
