"""The page every document shares: paper, margins, header, footer, page n of m, the REPRINT stamp.

The REPRINT stamp is a red box in the header, beside the page number, where no content is
ever laid: it never covers a figure. Everything around the content is drawn once the whole
document is laid out, when the page count is known (the "page x of y" canvas): the content's
own flowables never draw outside the frame, so nothing they hold can overflow into the
header or footer.
"""

from __future__ import annotations

import io
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache, partial
from importlib import metadata
from typing import Any, Literal

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, letter
from reportlab.lib.units import inch, mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, Flowable, Frame, PageTemplate

from dealer.clock import zone
from dealer.reports.figures import local_time
from dealer.reports.fonts import BOLD, FONT
from dealer.words.catalogue import language, say

#: Paper: a page (letter, A4) or an 80 mm receipt roll (the slips only).
PageSize = Literal["letter", "A4", "receipt"]


@dataclass(frozen=True, slots=True)
class PrintOptions:
    """How a document is printed: paper, currency, the clock it shows (every time is stored
    in UTC), who printed it."""

    page_size: PageSize = "letter"
    currency: str = "$"
    #: An IANA zone name such as ``America/Los_Angeles``; every time is shown in it.
    timezone: str = "UTC"
    #: When the document was printed (UTC); ``None`` means now.
    printed_at: datetime | None = None
    printed_by: str | None = None


#: Who hears of each page laid out, in this thread (a document built in the background).
_listener = threading.local()


@contextmanager
def telling_pages(on_page: Callable[[int], None]) -> Iterator[None]:
    """While inside, every document this thread lays out calls ``on_page(n)`` as it begins
    its page n: the progress a screen shows while a long document builds."""
    _listener.on_page = on_page
    try:
        yield
    finally:
        _listener.on_page = None


PAGE_SIZES: dict[str, tuple[float, float]] = {"letter": letter, "A4": A4}
#: A receipt printer's roll: 80 mm wide, as long as the slip (its length is measured).
RECEIPT_WIDTH = 80 * mm
RECEIPT_MARGIN_X = 4 * mm
RECEIPT_TOP = 16 * mm
RECEIPT_BOTTOM = 10 * mm
MARGIN_X = 0.6 * inch
MARGIN_TOP = 0.95 * inch  # the header lives in here
MARGIN_BOTTOM = 0.7 * inch  # and the footer in here

STAMP_RED = colors.Color(0.8, 0.05, 0.05)
RULE_GREY = colors.Color(0.55, 0.55, 0.55)


def page_size(options: PrintOptions) -> tuple[float, float]:
    if options.page_size == "receipt":
        return RECEIPT_WIDTH, 0.0  # the length is the slip's own
    try:
        return PAGE_SIZES[options.page_size]
    except KeyError:
        raise ValueError(f"Unknown page size {options.page_size!r}: use letter or A4.") from None


def frame_width(options: PrintOptions) -> float:
    """The width the content has: the page less its side margins."""
    if options.page_size == "receipt":
        return RECEIPT_WIDTH - 2 * RECEIPT_MARGIN_X
    return page_size(options)[0] - 2 * MARGIN_X


@dataclass(frozen=True, slots=True)
class PageDecor:
    """What is printed around the content of every page."""

    title: str  # "Hand slip"
    subject: str  # "Table 7 - hand 57"
    options: PrintOptions
    reprint: int = 0
    #: A short warning repeated in every page's header (the banner itself is on page 1).
    alarm: str | None = None

    @property
    def printed(self) -> str:
        at = self.options.printed_at or datetime.now(UTC)
        when = local_time(at, zone(self.options.timezone))
        if self.options.timezone != "UTC":
            when += f" ({self.options.timezone})"
        if self.options.printed_by:
            return say("Printed {at} by {who}", at=when, who=self.options.printed_by)
        return say("Printed {at}", at=when)

    def draw(self, canvas: Canvas, page: int, pages: int) -> None:
        """Header, footer and stamp of one page."""
        if self.options.page_size == "receipt":
            self._draw_receipt(canvas)
            return
        width, height = page_size(self.options)
        left, right = MARGIN_X, width - MARGIN_X
        top = height - 0.45 * inch
        canvas.saveState()
        canvas.setFillColor(colors.black)
        canvas.setFont(BOLD, 13)
        canvas.drawString(left, top, self.title)
        canvas.setFont(FONT, 9)
        canvas.drawString(left, top - 14, _fit(self.subject, FONT, 9, right - left - 150))
        canvas.drawRightString(right, top, say("Page {page} of {pages}", page=page, pages=pages))
        badges = []
        if self.reprint:
            badges.append(say("REPRINT {n}", n=self.reprint))
        if self.alarm:
            badges.append(self.alarm)
        x = right
        for badge in badges:
            x = _badge(canvas, x, top - 17, badge) - 6
        canvas.setStrokeColor(RULE_GREY)
        canvas.setLineWidth(0.5)
        canvas.line(left, top - 22, right, top - 22)
        bottom = 0.45 * inch
        canvas.line(left, bottom + 10, right, bottom + 10)
        canvas.setFont(FONT, 7.5)
        canvas.setFillColor(colors.Color(0.3, 0.3, 0.3))
        canvas.drawString(left, bottom, self.printed)
        canvas.drawRightString(right, bottom, f"{self.title} - {self.subject}"[:90])
        canvas.restoreState()

    def _draw_receipt(self, canvas: Canvas) -> None:
        """A receipt's head and foot: its title, subject and stamps; who printed it."""
        width, height = canvas._pagesize  # type: ignore[attr-defined]  # the measured length
        left, right = RECEIPT_MARGIN_X, width - RECEIPT_MARGIN_X
        top = height - 5 * mm
        canvas.saveState()
        canvas.setFillColor(colors.black)
        canvas.setFont(BOLD, 10)
        canvas.drawString(left, top - 4, self.title)
        badges = [say("REPRINT {n}", n=self.reprint)] if self.reprint else []
        if self.alarm:
            badges.append(self.alarm)
        x = right
        for badge in badges:
            x = _badge(canvas, x, top - 4, badge) - 4
        canvas.setFont(FONT, 7)
        canvas.drawString(left, top - 15, _fit(self.subject, FONT, 7, right - left))
        canvas.setFont(FONT, 6)
        canvas.setFillColor(colors.Color(0.3, 0.3, 0.3))
        canvas.drawString(left, 4 * mm, _fit(self.printed, FONT, 6, right - left))
        canvas.restoreState()


def _fit(text: str, font: str, size: float, width: float) -> str:
    if stringWidth(text, font, size) <= width:
        return text
    while text and stringWidth(text + "...", font, size) > width:
        text = text[:-1]
    return text + "..."


def _badge(canvas: Canvas, right: float, y: float, text: str) -> float:
    """A red boxed word ending at ``right``; returns where it starts."""
    canvas.setFont(BOLD, 9)
    w = stringWidth(text, BOLD, 9) + 8
    canvas.setStrokeColor(STAMP_RED)
    canvas.setFillColor(STAMP_RED)
    canvas.setLineWidth(1)
    canvas.rect(right - w, y - 3, w, 13, stroke=1, fill=1)
    canvas.setFillColor(colors.white)
    canvas.drawString(right - w + 4, y, text)
    return right - w


class _DecoratedCanvas(Canvas):
    """Holds each page back until the end, so the header can say "page n of m"."""

    def __init__(self, *args: Any, decor: PageDecor, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._decor = decor
        self._held: list[dict[str, Any]] = []

    def showPage(self) -> None:
        self._held.append(dict(self.__dict__))
        self._startPage()  # type: ignore[attr-defined]  # a fresh page, the last one held

    def save(self) -> None:
        pages = len(self._held)
        for number, state in enumerate(self._held, start=1):
            self.__dict__.update(state)
            self._decor.draw(self, number, pages)
            super().showPage()
        self._held = []
        super().save()


@cache
def creator() -> str:
    """The program that made a document, as its PDF says: ``dealer 0.1.0``."""
    try:
        return f"dealer {metadata.version('dealer')}"
    except metadata.PackageNotFoundError:
        return "dealer"


def _receipt_length(story: Sequence[Flowable], width: float) -> float:
    """How long a receipt must be for ``story``: its flowables measured at the roll's width."""
    canvas = Canvas(io.BytesIO())
    total = 0.0
    for flowable in story:
        _, height = flowable.wrapOn(canvas, width, 1e6)
        total += height + flowable.getSpaceBefore() + flowable.getSpaceAfter()
    return total + RECEIPT_TOP + RECEIPT_BOTTOM + 12  # and a little room: never a 2nd page


def build_pdf(story: Sequence[Flowable], decor: PageDecor) -> bytes:
    """Lay ``story`` out on the decorated pages; return the PDF."""
    margin_x, top, bottom = MARGIN_X, MARGIN_TOP, MARGIN_BOTTOM
    size = page_size(decor.options)
    if decor.options.page_size == "receipt":
        margin_x, top, bottom = RECEIPT_MARGIN_X, RECEIPT_TOP, RECEIPT_BOTTOM
        size = (RECEIPT_WIDTH, _receipt_length(story, frame_width(decor.options)))
    out = io.BytesIO()
    doc = BaseDocTemplate(
        out,
        pagesize=size,
        leftMargin=margin_x,
        rightMargin=margin_x,
        topMargin=top,
        bottomMargin=bottom,
        title=f"{decor.title} - {decor.subject}",
        author="dealer",
        subject=decor.subject,
        creator=creator(),
        lang=language(),
        # The canvas starts in the documents' own font: ReportLab's default (Helvetica) would
        # be listed in every PDF, unembedded and unused, which PDF/A checkers flag.
        initialFontName=FONT,
    )
    frame = Frame(
        margin_x,
        bottom,
        size[0] - 2 * margin_x,
        size[1] - top - bottom,
        leftPadding=0,
        rightPadding=0,
        topPadding=0,
        bottomPadding=0,
        id="content",
    )
    doc.addPageTemplates([PageTemplate(id="page", frames=[frame], pagesize=size)])
    on_page = getattr(_listener, "on_page", None)
    if on_page is not None:
        doc.setProgressCallBack(lambda kind, n: on_page(n) if kind == "PAGE" else None)
    doc.build(list(story), canvasmaker=partial(_DecoratedCanvas, decor=decor))
    return out.getvalue()
