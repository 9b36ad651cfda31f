"""The printed documents and the exports, over HTTP, with the API's sign-in.

- ``GET /reports/hands/{id}.pdf`` — the hand slip (a dealer or above);
- ``GET /reports/sessions/{id}.pdf`` — a table session (its own dealer, or a supervisor);
- ``GET /reports/shift.pdf?from=ISO&to=ISO`` — the shift ledger (a supervisor);
- ``GET /reports/players/{id}.pdf?from=&to=`` — a player's statement (a supervisor);
- ``GET /exports/ledger.csv?from=&to=`` and ``GET /exports/players.csv?from=&to=`` (a
  supervisor), streamed.

Each document is gathered in one read snapshot, its print counted (the REPRINT stamp), then
built with no transaction open. Refusals are the API's JSON errors.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace

from flask import Response, request, stream_with_context

from dealer.clock import zone
from dealer.disputes import players
from dealer.errors import Invalid
from dealer.extensions import current_session
from dealer.floor.authority import authorise_down_print, authorise_hand
from dealer.inputs import Export, ShiftWindow, SlipPaper, Window
from dealer.people.languages import language_of, seat_language
from dealer.reports.builds import counted_print
from dealer.reports.down import down_pdf
from dealer.reports.exports import BOM, iter_ledger_csv, iter_players_csv
from dealer.reports.hand_slip import hand_slip_pdf
from dealer.reports.pages import PrintOptions
from dealer.reports.player_statement import player_statement_pdf
from dealer.reports.printing import (
    Document,
    bp,
    file_stamp,
    pdf_answer,
    print_options,
    shift_asked,
    window_asked,
)
from dealer.reports.receipt import hand_slip_receipt, statement_receipt
from dealer.reports.shift import shift_pdf
from dealer.reports.statement_slip import statement_pdf
from dealer.transactions import snapshot
from dealer.views import documents as gather
from dealer.views.statement import seat_statement
from dealer.web.contract import ID, SEAT, declare
from dealer.web.paper import PAPER_COOKIE, PAPERS
from dealer.web.signin import device, principal, signed_in
from dealer.words.catalogue import say, speaking


def _slip_options(printed_by: str) -> PrintOptions:
    """A slip's paper: ``?paper=receipt`` (or ``page``), else the tablet's own choice (its
    cookie, set on the table screen), else the documents' page size."""
    options = print_options(printed_by)
    # Given but empty is refused like any other value the document does not list.
    paper = request.args.get("paper")
    if paper is None:
        paper = request.cookies.get(PAPER_COOKIE) or "page"
    if paper not in PAPERS:
        raise Invalid(say("paper is page or receipt."), "invalid_query")
    return replace(options, page_size="receipt") if paper == "receipt" else options


def _printed(kind: str, subject: str, build: Callable[[int], bytes]) -> tuple[bytes, int]:
    """Build the document, then count it (`counted_print`: counted only once built, so a
    build that fails counts nothing). A HEAD request (a link checker, a prefetch) gets the
    headers a print would, and is not counted: nobody received a copy."""
    who = principal().user.id
    return counted_print(kind, subject, build, who, device(), count=request.method != "HEAD")


def _counted_pdf(
    kind: str,
    subject: str,
    who: str,
    document: Document,
    build: Callable[[Document, PrintOptions], bytes],
    stem: str,
    options: PrintOptions | None = None,
) -> Response:
    """Print ``document`` (of ``kind``, about ``subject``) for ``who``, counted (`_printed`),
    stamped with its reprint number: its file named ``stem``, ``-reprint-n`` after the first;
    on the documents' paper unless ``options`` say otherwise (a slip on a receipt)."""
    options = options or print_options(who)
    data, reprint = _printed(kind, subject, lambda n: build(replace(document, reprint=n), options))
    suffix = f"-reprint-{reprint}" if reprint else ""
    return pdf_answer(data, f"{stem}{suffix}.pdf")


#: A report's answer; the document shows it as the file its address ends in.
PDF = {200: (None, "The document (application/pdf).")}
CSV = {200: (None, "The document (text/csv).")}


@bp.get(f"/reports/hands/<{ID}:hand_id>.pdf")
@signed_in(form_post=True)
@declare(PDF, [404, 422], query=SlipPaper, documented_only=True, name="print_hand_slip")
def hand_slip(hand_id: int) -> Response:
    """The hand slip: every event with its payments and rule, the settlement, each seat's
    net, the ledger range and its hash. Stamped REPRINT n after the first.

    A dealer may print it at their own table, for a dispute there; a supervisor any.
    """
    user = principal().user
    who = user.name
    with snapshot(current_session()) as session:
        authorise_hand(session, user, hand_id)
        slip = gather.hand_slip(session, hand_id)
    options = _slip_options(who)
    layout = hand_slip_receipt if options.page_size == "receipt" else hand_slip_pdf
    return _counted_pdf(
        "hand_slip", str(hand_id), who, slip, layout, f"hand-slip-{hand_id}", options
    )


@bp.get(f"/reports/sessions/<{ID}:session_id>.pdf")
@signed_in(form_post=True)
@declare(PDF, [404], documented_only=True, name="print_session_report")
def down_report(session_id: int) -> Response:
    """A table session: seats, hands, the drop, voids and corrections.

    Its own dealer may print it, a supervisor any.
    """
    user = principal().user
    with snapshot(current_session()) as session:
        authorise_down_print(session, user, session_id)
        report = gather.down_report(session, session_id)
    return _counted_pdf(
        "session", str(session_id), user.name, report, down_pdf, f"session-{session_id}"
    )


@bp.get("/reports/shift.pdf")
@signed_in("supervisor", form_post=True)
@declare(PDF, [422], query=ShiftWindow, documented_only=True, name="print_shift_report")
def shift_report() -> Response:
    """The shift ledger over [from, to) (at most 31 days): every table, the players, the drop
    by hour and by table, the trial balance and the chain check.

    A red banner lists any check that failed. Role: supervisor or above.
    """
    start, end, with_hands = shift_asked()
    who = principal().user.name
    with snapshot(current_session()) as session:
        report = gather.shift_report(session, start, end, with_hands=with_hands)
    subject = f"{start.isoformat()}/{end.isoformat()}"
    stem = f"shift-{file_stamp(start)}-{file_stamp(end)}"
    return _counted_pdf("shift", subject, who, report, shift_pdf, stem)


@bp.get(f"/reports/players/<{ID}:player_id>.pdf")
@signed_in("supervisor")
@declare(PDF, [404, 422], query=Window, documented_only=True, name="print_player_statement")
def player_statement(player_id: int) -> Response:
    """A player's statement over [from, to) (either end may be left open): buy-ins,
    cash-outs, and what the play won or lost by day and by hand, in chips.

    Role: supervisor or above.
    """
    start, end = window_asked(required=False)
    options = print_options(principal().user.name)
    with (
        snapshot(current_session()) as session,
        speaking(language_of(session, "player", player_id)),
    ):
        statement = players.player_statement(session, player_id, start, end, zone(options.timezone))
        data = player_statement_pdf(statement, options)
    return pdf_answer(data, f"player-{player_id}-{file_stamp(start)}-{file_stamp(end)}.pdf")


@bp.get(f"/reports/hands/<{ID}:hand_id>/seats/<{SEAT}:seat>/statement.pdf")
@signed_in(form_post=True)
@declare(PDF, [404, 409, 422], query=SlipPaper, documented_only=True, name="print_seat_statement")
def statement_slip(hand_id: int, seat: int) -> Response:
    """A seat's statement for a hand: every chip in and out, by party and by rule, with
    running totals, held to the ledger's own sum. A dealer may print it at their own table.

    Not counted as a print (no REPRINT stamp): it is an extract of the ledger, the same at
    every print, not a document of record like the hand slip.
    """
    user = principal().user
    who = user.name
    with snapshot(current_session()) as session:
        authorise_hand(session, user, hand_id)
        # In the language of the player who sat there, when they chose one.
        theirs = seat_language(session, hand_id, seat)
        with speaking(theirs):
            found = seat_statement(session, hand_id, seat)
    options = _slip_options(who)
    layout = statement_receipt if options.page_size == "receipt" else statement_pdf
    with speaking(theirs):
        data = layout(found, options)
    return pdf_answer(data, f"statement-{hand_id}-seat-{seat}.pdf")


# The screens' Print buttons: a form POST with the screen's CSRF token that opens the document
# in a new tab. The screens never GET a document, so going back to that tab, or to the screen,
# never counts as a print; only a tap on Print does. (A GET prints for the API's clients.)
PRINTS: dict[str, Callable[..., Response]] = {
    f"/print/hands/<{ID}:hand_id>.pdf": hand_slip,
    f"/print/sessions/<{ID}:session_id>.pdf": down_report,
    "/print/shift.pdf": shift_report,
    f"/print/hands/<{ID}:hand_id>/seats/<{SEAT}:seat>/statement.pdf": statement_slip,
}
for _rule, _view in PRINTS.items():
    bp.add_url_rule(_rule, f"print_{_view.__name__}", _view, methods=["POST"])


def _for_excel() -> bool:
    """``?bom=true``: the export is written for Excel (`dealer.reports.exports`)."""
    asked = request.args.get("bom", "false")
    if asked not in ("true", "false"):
        raise Invalid(say("bom is true or false."), "invalid_query")
    return asked == "true"


def _csv(name: str, pieces: Callable[[], Iterator[str]]) -> Response:
    excel = _for_excel()

    def written() -> Iterator[str]:
        if excel:
            yield BOM
        yield from pieces()

    response = Response(stream_with_context(written()), 200, mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/exports/ledger.csv")
@signed_in("supervisor")
@declare(CSV, [422], query=Export, documented_only=True, name="export_ledger", area="exports")
def ledger_export() -> Response:
    """Every ledger entry made in the window, one line each, streamed (hand, event and
    reverses 0 where the entry has none).

    Role: supervisor or above.
    """
    start, end = window_asked(required=False)

    def pieces() -> Iterator[str]:
        with snapshot(current_session()) as session:
            yield from iter_ledger_csv(gather.ledger_rows(session, start, end))

    return _csv(f"ledger-{file_stamp(start)}-{file_stamp(end)}.csv", pieces)


@bp.get("/exports/players.csv")
@signed_in("supervisor")
@declare(CSV, [422], query=Export, documented_only=True, name="export_players", area="exports")
def players_export() -> Response:
    """One line per player session (seating) in the window, PokerNow's layout, and the
    seating's id: player_nickname,player_id,session_start_at,session_end_at,buy_in,buy_out,
    stack,net,seating (player_id 0: a seating of no player record).

    Role: supervisor or above.
    """
    start, end = window_asked(required=False)

    def pieces() -> Iterator[str]:
        with snapshot(current_session()) as session:
            rows = gather.player_session_rows(session, start, end)
        yield from iter_players_csv(rows)

    return _csv(f"players-{file_stamp(start)}-{file_stamp(end)}.csv", pieces)
