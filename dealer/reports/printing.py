"""How the reports door answers: its blueprint, the app's print options, the window a
report asks about, and a PDF sent as the client asks for it. The documents and exports
(`routes`) and the documents built in the background (`build_routes`) both answer so."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TypeVar, cast

from flask import Blueprint, Response, current_app, request

from dealer.clock import floor_clock
from dealer.config import BadSetting, paper_size
from dealer.errors import DealerError, Invalid, NotConfigured
from dealer.inputs.params import read_moment
from dealer.reports.pages import PageSize, PrintOptions
from dealer.views.documents.down import DownReport
from dealer.views.documents.hand import HandSlip
from dealer.views.documents.shift import ShiftReport
from dealer.web.described import BYTES
from dealer.web.refusals import dealer_error
from dealer.words.catalogue import say

bp = Blueprint("reports", __name__)
bp.register_error_handler(DealerError, dealer_error)

#: The longest window a shift ledger covers; the exports take any.
MAX_SHIFT = timedelta(days=31)

#: A document counted when printed: a dataclass with its ``reprint`` number.
Document = TypeVar("Document", HandSlip, DownReport, ShiftReport)


def print_options(printed_by: str) -> PrintOptions:
    """How this app prints; a setting changed since start to one it cannot use is refused
    before anything is built or counted."""
    config = current_app.config
    try:
        paper = paper_size(config.get("REPORT_PAGE_SIZE", "letter"))
    except BadSetting:
        raise NotConfigured(
            say("The paper size set for documents is not letter or A4: ask an admin to fix it.")
        ) from None
    return PrintOptions(
        page_size=cast(PageSize, paper),
        currency=config.get("REPORT_CURRENCY", "$"),
        timezone=floor_clock(current_app.config).name,
        printed_by=printed_by,
    )


def _moment(name: str, required: bool) -> datetime | None:
    """The query parameter ``name`` as a UTC time; a time without a zone is the floor's."""
    text = request.args.get(name, "").strip()
    example = say(
        "such as {utc} or {zoned}", utc="2024-05-03T18:00:00Z", zoned="2024-05-03T11:00-07:00"
    )
    if not text:
        if required:
            raise Invalid(
                say(
                    "Give the window's {name} as an ISO 8601 time, {example}.",
                    name=name,
                    example=example,
                ),
                "no_window",
            )
        return None
    return read_moment(text, name, floor_clock(current_app.config).zone, example)


def window_asked(required: bool) -> tuple[datetime | None, datetime | None]:
    """The window [from, to) the query asks about; either end may be left open unless
    ``required``."""
    start, end = _moment("from", required), _moment("to", required)
    if start is not None and end is not None and start >= end:
        raise Invalid(say("The window must end after it starts (from before to)."), "empty_window")
    return start, end


def file_stamp(moment: datetime | None) -> str:
    """A window's end as a file name says it (``all`` for an open end)."""
    return moment.strftime("%Y%m%dT%H%MZ") if moment is not None else "all"


def pdf_answer(data: bytes, filename: str) -> Response:
    """A PDF, sent as bytes (octet-stream) to a client that asks for bytes rather than a PDF:
    the document lists both (`dealer.web.described`)."""
    media = request.accept_mimetypes.best_match(["application/pdf", BYTES], "application/pdf")
    response = Response(data, 200, mimetype=media)
    response.headers["Content-Disposition"] = f'inline; filename="{filename}"'
    response.headers["Cache-Control"] = "no-store"
    return response


def shift_asked() -> tuple[datetime, datetime, bool]:
    """The shift ledger's question: its window [from, to) (at most 31 days), and whether it
    lists every hand (``hands=all``, the default, or ``none``)."""
    start, end = window_asked(required=True)
    assert start is not None and end is not None
    if end - start > MAX_SHIFT:
        raise Invalid(
            say(
                "A shift ledger covers at most {days} days: use the CSV exports for longer.",
                days=MAX_SHIFT.days,
            ),
            "window_too_long",
        )
    listing = request.args.get("hands", "all")
    if listing not in ("all", "none"):
        raise Invalid(say("hands is all or none."), "invalid_query")
    return start, end, listing == "all"
