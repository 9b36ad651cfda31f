"""Text styles and the layout the documents are made of: paragraphs, sections and tables.

Two kinds of table: ``grid``, a ReportLab ``Table`` with ``repeatRows=1`` for short tables
whose cells may wrap (``Paragraph``\\ s: reasons, event texts); ``PagedTable``, a listing of
one-line rows (thousands of hands) cut page by page into small tables, each with the header
(ReportLab's own split re-measures all the rows left at every page, which grows with the
square of the listing; this grows with its length).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_LEFT, TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import CondPageBreak, Flowable, KeepTogether, Paragraph, Table, TableStyle

from dealer.reports.columns import PAD, header_widths, label_width
from dealer.reports.fonts import AVERAGE_EM, BOLD, FONT
from dealer.words.catalogue import say

#: A one-line row: its cells, and the (column, font size) of any set smaller to fit.
_Line = tuple[list[str], tuple[tuple[int, float], ...]]

HEADER_FILL = colors.Color(0.86, 0.88, 0.91)
STRIPE = colors.Color(0.96, 0.96, 0.97)
LINE = colors.Color(0.6, 0.6, 0.6)
BANNER_RED = colors.Color(0.78, 0.06, 0.06)
ALARM = "#c00000"  # red for words in markup: VOIDED, a total that is not zero
SMALLEST = 5.5  # the smallest type a figure is shrunk to before it is clipped

_HEADING = ParagraphStyle(
    "heading", fontName=BOLD, fontSize=11, leading=14, spaceBefore=10, spaceAfter=4
)
_SUBHEADING = ParagraphStyle(
    "subheading", fontName=BOLD, fontSize=9, leading=11, spaceBefore=4, spaceAfter=2
)
_SMALL = ParagraphStyle("small", fontName=FONT, fontSize=7.5, leading=9.5, spaceBefore=1)
_NOTE = ParagraphStyle("note", fontName=FONT, fontSize=8.5, leading=11, spaceBefore=4, spaceAfter=4)
_CELL = ParagraphStyle("cell", fontName=FONT, fontSize=7.5, leading=9, alignment=TA_LEFT)
_CELLS = {
    (FONT, False): _CELL,
    (FONT, True): ParagraphStyle("cell_right", parent=_CELL, alignment=TA_RIGHT),
    (BOLD, False): ParagraphStyle("cell_bold", parent=_CELL, fontName=BOLD),
    (BOLD, True): ParagraphStyle(
        "cell_bold_right", parent=_CELL, fontName=BOLD, alignment=TA_RIGHT
    ),
}
_BANNER = ParagraphStyle("banner", fontName=FONT, fontSize=9, leading=11.5, textColor=colors.white)


def section(title: str) -> list[Flowable]:
    """A section's title, on a new page unless an inch and a half is left under it.

    (Not ``keepWithNext``: that moves a whole long table to the next page with its title.)
    """
    return [CondPageBreak(1.5 * inch), Paragraph(escape(title), _HEADING)]


def heading(title: str) -> list[Flowable]:
    """A smaller section title, for a document that must fit one page (the hand slip)."""
    return [CondPageBreak(0.75 * inch), Paragraph(escape(title), _SUBHEADING)]


def small(markup: str, size: float = 7.5) -> Paragraph:
    """A line of small prose; ``markup`` may hold <b> and <font>: escape what you put in."""
    if size == _SMALL.fontSize:
        return Paragraph(markup, _SMALL)
    return Paragraph(
        markup, ParagraphStyle("smaller", _SMALL, fontSize=size, leading=size + 1.5, spaceBefore=0)
    )


def note(markup: str) -> Paragraph:
    """A line of prose; ``markup`` may hold ReportLab's <b>, <font>: escape what you put in."""
    return Paragraph(markup, _NOTE)


def cell(text: str, markup: bool = False) -> Paragraph:
    """A table cell that wraps; plain text is escaped (a name may hold < or &)."""
    return Paragraph(text if markup else escape(text), _CELL)


def fits(text: str, width: float, font: str = FONT, size: float = 7.5) -> bool:
    """Whether ``text`` fits on one line of a cell ``width`` points wide."""
    room = width - 2 * PAD
    # No glyph used here is wider than AVERAGE_EM... on average: most text needs no test.
    return len(text) * size * AVERAGE_EM <= room or stringWidth(text, font, size) <= room


def shrink(text: str, width: float, font: str = FONT, size: float = 7.5) -> tuple[str, float]:
    """``text`` and the font size that fits it in one line: smaller down to 5.5, then clipped.

    Figures keep every digit: a long amount is set a little smaller before anything is cut.
    """
    if fits(text, width, font, size):
        return text, size
    smaller = size - 0.5
    while smaller >= SMALLEST:
        if fits(text, width, font, smaller):
            return text, smaller
        smaller -= 0.5
    return clip(text, width, font, SMALLEST), SMALLEST


def clip(text: str, width: float, font: str = FONT, size: float = 7.5) -> str:
    """``text`` cut with "..." so it fits ``width`` points of a one-line cell."""
    if fits(text, width, font, size):
        return text
    room = width - 2 * PAD
    lo, hi = 0, len(text)
    while lo < hi:  # the longest prefix that fits with its ellipsis
        mid = (lo + hi + 1) // 2
        if stringWidth(text[:mid] + "...", font, size) <= room:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo] + "..."


def _base_style(
    rows: int, right: Sequence[int], font_size: float, total: bool, stripes: bool = True
) -> list[tuple[Any, ...]]:
    style: list[tuple[Any, ...]] = [
        ("FONT", (0, 0), (-1, -1), FONT, font_size),
        ("FONT", (0, 0), (-1, 0), BOLD, font_size),
        ("BACKGROUND", (0, 0), (-1, 0), HEADER_FILL),
        ("LINEBELOW", (0, 0), (-1, 0), 0.75, LINE),
        ("BOX", (0, 0), (-1, -1), 0.5, LINE),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("LEFTPADDING", (0, 0), (-1, -1), PAD),
        ("RIGHTPADDING", (0, 0), (-1, -1), PAD),
        ("TOPPADDING", (0, 0), (-1, -1), 1.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
    ]
    if stripes and rows > 2:
        style.append(("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, STRIPE]))
    for col in right:
        style.append(("ALIGN", (col, 0), (col, -1), "RIGHT"))
    if total:
        style += [
            ("FONT", (0, -1), (-1, -1), BOLD, font_size),
            ("LINEABOVE", (0, -1), (-1, -1), 0.75, colors.black),
            ("BACKGROUND", (0, -1), (-1, -1), colors.white),
        ]
    return style


def grid(
    header: Sequence[str],
    rows: Sequence[Sequence[Any]],
    widths: Sequence[float],
    right: Sequence[int] = (),
    total: bool = False,
    extra: Sequence[tuple[Any, ...]] = (),
    stripes: bool = True,
) -> Table:
    """A table whose rows may wrap; long ones split across pages with the header repeated.

    A plain string too long for its column is wrapped, never cut and never let overflow.
    """
    widths = header_widths(header, widths, 7.5)

    def fitted(row: Sequence[Any], font: str) -> list[Any]:
        out: list[Any] = []
        for col, (c, w) in enumerate(zip(row, widths, strict=True)):
            if isinstance(c, str) and not fits(c, w, font):
                c = Paragraph(escape(c), _CELLS[font, col in right])
            out.append(c)
        return out

    data = [fitted(header, BOLD), *(fitted(r, FONT) for r in rows)]
    if total and rows:
        data[-1] = fitted(rows[-1], BOLD)
    table = Table(data, colWidths=list(widths), repeatRows=1, hAlign="LEFT")
    table.setStyle(TableStyle([*_base_style(len(data), right, 7.5, total, stripes), *extra]))
    return table


class PagedTable(Flowable):
    """A listing of one-line rows laid page by page, the header on every page.

    Every row is ``row_height`` high and every cell a plain string on one line (a figure too
    long for its column is set smaller, then clipped), so how many rows fit is arithmetic and
    no row is ever measured twice.
    """

    def __init__(
        self,
        header: Sequence[str],
        rows: Sequence[Sequence[str]],
        widths: Sequence[float],
        right: Sequence[int] = (),
        total: Sequence[str] | None = None,
        row_height: float = 11.0,
        font_size: float = 7.5,
    ) -> None:
        super().__init__()
        self.widths = header_widths(header, widths, SMALLEST, whole=True)  # never clipped
        self.font_size = font_size
        self.header = self._fit(header, BOLD)
        self.right = tuple(right)
        self.total = self._fit(total, BOLD) if total is not None else None
        self.row_height = row_height
        self.header_height = row_height + 2
        self.rows = [self._fit(r) for r in rows]

    def _fit(self, row: Sequence[str], font: str = FONT) -> _Line:
        cells, smaller = [], []
        for col, (text, width) in enumerate(zip(row, self.widths, strict=True)):
            text, size = shrink(text, width, font, self.font_size)
            cells.append(text)
            if size != self.font_size:
                smaller.append((col, size))
        return cells, tuple(smaller)

    @property
    def _lines(self) -> int:
        return len(self.rows) + (self.total is not None)

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        self.width = sum(self.widths)
        self.height = self.header_height + self._lines * self.row_height
        return self.width, self.height

    def split(self, avail_width: float, avail_height: float) -> list[Flowable]:
        fit = int((avail_height - self.header_height) / self.row_height + 1e-6)
        # Never strand a header with fewer than three rows under it at the foot of a page.
        if fit < min(3, self._lines):
            return []
        if fit >= self._lines:
            return [self._table(self.rows, self.total)]
        return [self._table(self.rows[:fit], None), self._rest(self.rows[fit:])]

    def _rest(self, rows: list[_Line]) -> PagedTable:
        """The listing's tail for the next page: its rows, fitted already, go on as they are.

        A fresh flowable, not a copy: ReportLab marks a flowable it had to postpone, and a
        copy carrying that mark would be refused on the next page.
        """
        rest = PagedTable([], [], [], row_height=self.row_height, font_size=self.font_size)
        rest.widths, rest.header, rest.right, rest.total = (
            self.widths,
            self.header,
            self.right,
            self.total,
        )
        rest.rows = rows
        return rest

    def _table(self, rows: Sequence[_Line], total: _Line | None) -> Table:
        lines = [self.header, *rows] if total is None else [self.header, *rows, total]
        heights = [self.header_height] + [self.row_height] * (len(lines) - 1)
        cells = [line[0] for line in lines]
        table = Table(cells, colWidths=self.widths, rowHeights=heights, hAlign="LEFT")
        style = _base_style(len(lines), self.right, self.font_size, total is not None)
        for r, (_, smaller) in enumerate(lines):
            for col, size in smaller:
                font = BOLD if r == 0 or (total is not None and r == len(lines) - 1) else FONT
                style.append(("FONT", (col, r), (col, r), font, size))
        table.setStyle(TableStyle(style))
        return table

    def draw(self) -> None:
        table = self._table(self.rows, self.total)
        table.wrapOn(self.canv, self.width, self.height)
        table.drawOn(self.canv, 0, 0)


def pairs(
    items: Sequence[tuple[str, str]], width: float, columns: int = 2, label_share: float = 0.4
) -> Table:
    """Labels and values side by side, ``columns`` pairs to a row; values wrap, labels clip."""
    label_w = label_width([label for label, _ in items], width / columns, label_share)
    rows: list[list[Any]] = []
    for start in range(0, len(items), columns):
        row: list[Any] = []
        for label, value in items[start : start + columns]:
            row += [clip(label, label_w, BOLD), cell(value)]
        row += ["", ""] * (columns - len(items[start : start + columns]))
        rows.append(row)
    widths = [label_w, width / columns - label_w] * columns
    table = Table(rows, colWidths=widths, hAlign="LEFT")
    table.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), FONT, 7.5),
                *[("FONT", (2 * c, 0), (2 * c, -1), BOLD, 7.5) for c in range(columns)],
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), PAD),
                ("RIGHTPADDING", (0, 0), (-1, -1), PAD),
                ("TOPPADDING", (0, 0), (-1, -1), 1.5),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
                ("BOX", (0, 0), (-1, -1), 0.5, LINE),
                ("ROWBACKGROUNDS", (0, 0), (-1, -1), [colors.white, STRIPE]),
            ]
        )
    )
    return table


def banner(title: str, problems: Sequence[str], width: float) -> Table:
    """The red box at the top of a report whose checks failed; it lists every problem."""
    lines: list[list[Any]] = [[Paragraph(f"<b>{escape(title)}</b>", _BANNER)]]
    lines += [[Paragraph(f"&bull; {escape(p)}", _BANNER)] for p in problems]
    table = Table(lines, colWidths=[width], hAlign="LEFT")
    table.setStyle(
        TableStyle(
            [
                ("BACKGROUND", (0, 0), (-1, -1), BANNER_RED),
                ("BOX", (0, 0), (-1, -1), 1.5, colors.Color(0.5, 0, 0)),
                ("LEFTPADDING", (0, 0), (-1, -1), 8),
                ("RIGHTPADDING", (0, 0), (-1, -1), 8),
                ("TOPPADDING", (0, 0), (-1, -1), 2),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
                ("TOPPADDING", (0, 0), (-1, 0), 6),
                ("BOTTOMPADDING", (0, -1), (-1, -1), 6),
            ]
        )
    )
    return table


def signatures(left: str, right: str, width: float, compact: bool = False) -> Flowable:
    """Two signature lines side by side, each with a line for the date and time beside it
    (``compact``: one row, no heading) or under it."""
    at = say("Date and time")
    if compact:
        sign, when = 0.33 * width, 0.15 * width
        table = Table(
            [["", "", "", ""], [left, at, right, at]],
            colWidths=[sign, when, sign, when],
            rowHeights=[20, 10],
            hAlign="LEFT",
        )
        lines = [("LINEABOVE", (c, 1), (c, 1), 0.75, colors.black) for c in range(4)]
        table.setStyle(
            TableStyle(
                [
                    ("FONT", (0, 0), (-1, -1), FONT, 7.5),
                    *lines,
                    ("LEFTPADDING", (0, 0), (-1, -1), 0),
                    ("RIGHTPADDING", (0, 0), (-1, -1), 12),
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ]
            )
        )
        return KeepTogether([table])
    gap = 0.1 * width
    col = (width - gap) / 2
    table = Table(
        [["", "", ""], [left, "", right], ["", "", ""], [at, "", at]],
        colWidths=[col, gap, col],
        rowHeights=[26, 12, 20, 12],
        hAlign="LEFT",
    )
    table.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), FONT, 8),
                ("LINEABOVE", (0, 1), (0, 1), 0.75, colors.black),
                ("LINEABOVE", (2, 1), (2, 1), 0.75, colors.black),
                ("LINEABOVE", (0, 3), (0, 3), 0.5, colors.black),
                ("LINEABOVE", (2, 3), (2, 3), 0.5, colors.black),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ]
        )
    )
    return KeepTogether([*section(say("Signatures")), table])


def alarm(words: str) -> str:
    """``words`` (already said) in bold red, as markup for a paragraph: VOIDED, OPEN."""
    return f'<font color="{ALARM}"><b>{escape(words)}</b></font>'
