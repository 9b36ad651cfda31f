"""The screens' long documents, built in the background (`dealer.reports.builds`).

- ``POST /print/builds/shift?from=&to=&hands=`` — the floor's Print shift ledger (a
  supervisor): starts the build, or joins the one under way for the same question; answers
  where it is (202);
- ``POST /print/builds/sessions/{id}`` — the table screen's Print table session (its own
  dealer, or a supervisor), the same way: a long session's report is built off the request;
- ``GET /print/builds/{token}`` — where it is now (``state``, ``words``, ``pages``, and the
  ``download`` address once ready), for the person who asked;
- ``GET /print/builds/{token}.pdf`` — the finished PDF, handed over once.

The screens' script (static/dealer.js) asks, shows the words beside the button while it
builds, and offers the download link when ready; the floor stays usable meanwhile. The API's
``GET /reports/shift.pdf`` still answers with the PDF itself.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import replace

from flask import Response, jsonify, url_for
from sqlalchemy.orm import Session

from dealer.errors import Conflict, NotFound
from dealer.extensions import current_session
from dealer.floor.authority import authorise_down_print
from dealer.reports.builds import Build, builds, run_in_background
from dealer.reports.down import down_pdf
from dealer.reports.pages import PrintOptions
from dealer.reports.printing import Document, bp, file_stamp, pdf_answer, print_options, shift_asked
from dealer.reports.shift import shift_pdf
from dealer.transactions import snapshot
from dealer.views import documents as gather
from dealer.web.contract import ID
from dealer.web.signin import device, principal, signed_in
from dealer.words.catalogue import say

TOKEN = "string(length=22)"


def _answer(build: Build, status: int = 200) -> Response:
    ready = build.state == "ready"
    response = jsonify(
        state=build.state,
        words=build.words(),
        pages=build.pages,
        status=url_for("reports.build_status", token=build.token),
        download=url_for("reports.build_file", token=build.token) if ready else None,
        filename=build.filename if ready else None,
    )
    response.status_code = status
    response.headers["Cache-Control"] = "no-store"
    return response


def _in_background(
    kind: str,
    subject: str,
    asked: Hashable,
    title: str,
    stem: str,
    report_of: Callable[[Session], Document],
    layout: Callable[[Document, PrintOptions], bytes],
) -> Response:
    """Build the document of ``kind`` about ``subject`` in the background for the person
    signed in, or join their build of the same question (``asked``, and the print options)
    under way; where it is, answered 202. ``report_of`` gathers it in a read snapshot on the
    worker thread, ``layout`` lays it out stamped with its reprint number."""
    user = principal().user
    options = print_options(user.name)

    def start_build(build: Build) -> None:
        def gathered() -> Callable[[int], bytes]:
            with snapshot(current_session()) as session:
                report = report_of(session)
            return lambda n: layout(replace(report, reprint=n), options)

        run_in_background(build, kind, subject, gathered, device())

    build, _ = builds().ask((kind, subject, asked, options), user.id, title, stem, start_build)
    return _answer(build, 202)


@bp.post("/print/builds/shift")
@signed_in("supervisor", form_post=True)
def ask_shift_build() -> Response:
    """Build the shift ledger in the background, or join the build under way for the same
    window and options by the same person (no second copy, no REPRINT)."""
    start, end, with_hands = shift_asked()
    return _in_background(
        "shift",
        f"{start.isoformat()}/{end.isoformat()}",
        with_hands,
        say("the shift ledger"),
        f"shift-{file_stamp(start)}-{file_stamp(end)}",
        lambda session: gather.shift_report(session, start, end, with_hands=with_hands),
        shift_pdf,
    )


@bp.post(f"/print/builds/sessions/<{ID}:session_id>")
@signed_in(form_post=True)
def ask_down_build(session_id: int) -> Response:
    """Build a table session's report in the background (its own dealer, or a supervisor), or
    join the build under way for the same session by the same person."""
    with snapshot(current_session()) as session:
        authorise_down_print(session, principal().user, session_id)
    return _in_background(
        "session",
        str(session_id),
        None,
        say("the session report"),
        f"session-{session_id}",
        lambda session: gather.down_report(session, session_id),
        down_pdf,
    )


def _found(token: str) -> Build:
    build = builds().find(token, principal().user.id)
    if build is None:
        raise NotFound(say("No document is being built under that address: print it again."))
    return build


@bp.get(f"/print/builds/<{TOKEN}:token>")
@signed_in("dealer")
def build_status(token: str) -> Response:
    """Where the build is: its words, its pages so far, and the download once ready."""
    return _answer(_found(token))


@bp.get(f"/print/builds/<{TOKEN}:token>.pdf")
@signed_in("dealer")
def build_file(token: str) -> Response:
    """The finished PDF, handed over once (its print was counted when it was built)."""
    build = _found(token)
    data = builds().take(build)
    if data is None:
        raise Conflict(build.words(), "not_ready")
    response = pdf_answer(data, build.filename)
    response.headers["Content-Disposition"] = f'attachment; filename="{build.filename}"'
    return response
