"""Live screens: an open screen learns that what it shows changed, and redraws those parts.

A screen opts in with ``data-live-scopes`` (what it shows: ``floor``, ``table:<id>``,
``hand:<id>``, ``seating:<id>``) and marks the parts that show state with
``data-live-region="<block>"``, each a block of its template. ``static/dealer.js`` asks
``GET /live?scope=..&wait=20`` with the version it holds (``If-None-Match``); the ask is
held until that version moves (`dealer.live.Watcher`), else answered after ``wait``
seconds with a 304 and no body, and the screen asks again. Without ``wait`` it is an
ordinary conditional GET (a 304 at once when nothing changed).
When it changed, it asks the screen's own address for its regions (``X-Live-Regions``) and
the view answers them through `live_page`: the same template, the same context, only those
blocks (jinja2-fragments), so the server stays the one source of every word. Parts where the
dealer is typing are never replaced (the client's side).

Why held asks, measured (bench/live.py, 200 screens on gunicorn): asking every second
cost 20 % of a core on this machine even with every answer a 304 in one query (the same
as a bare /healthz: it is the cost of a request through gunicorn and Flask); held for up
to 20 s, 200 screens make ten asks a second and cost about 1-2 %. A held ask takes a
thread while it waits, like a server-sent-events stream would, but stays plain HTTP with
ETags, needs no stream kept alive through proxies, and falls back to asking every second
when the process holds as many as it may (`LIVE_HELD`).
"""

from __future__ import annotations

import threading
from typing import Any

from flask import Response, current_app, jsonify, render_template, request
from jinja2_fragments.flask import render_block

from dealer import live
from dealer.bounds import LIVE_EVERY_MS, LIVE_HOLD_S, LIVE_READ_MS, LIVE_SCOPES
from dealer.errors import DealerError
from dealer.extensions import current_session, db
from dealer.floor.authority import authorise_scopes
from dealer.people.sign_ins import live_row
from dealer.screens.auth.guard import watching
from dealer.screens.blueprint import bp
from dealer.web.refusals import refusal
from dealer.words.catalogue import say

REGIONS_HEADER = "X-Live-Regions"
_MADE = threading.Lock()


def live_context(*scopes: str) -> dict[str, Any]:
    """What a template needs to opt in: the scopes, the version drawn, how often to ask."""
    asked = live.scopes_of(scopes)
    return {
        "live_scopes": " ".join(asked),
        "live_version": live.version(current_session(), asked),
        "live_every_ms": LIVE_EVERY_MS,
        "live_hold_s": LIVE_HOLD_S,
    }


def live_page(template: str, **context: Any) -> str | Response:
    """The whole page; or, asked by a live screen (``X-Live-Regions``), only its regions."""
    asked = request.headers.get(REGIONS_HEADER)
    if not asked:
        return render_template(template, **context)
    blocks = current_app.jinja_env.get_template(template).blocks
    names = [n for n in asked.split(",") if n in blocks][:16]
    answer = jsonify({name: render_block(template, name, **context) for name in names})
    answer.headers["Cache-Control"] = "no-store"
    return answer


def _watcher() -> live.Watcher:
    """This process's watcher (made at the first held ask: after gunicorn forks)."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    with _MADE:
        found = app.extensions.get("dealer_live")
        if found is None:
            found = app.extensions["dealer_live"] = live.Watcher(
                db.engine, LIVE_READ_MS / 1000, app.config.get("LIVE_HELD", 200)
            )
    watcher: live.Watcher = found
    return watcher


def _refused(token: str, scopes: list[str]) -> tuple[Response, int] | None:
    """A dealer watches only their own table's things (`dealer.floor.authority`), like every
    door."""
    session = current_session()
    row = live_row(session, token)
    if row is None:
        return None  # signed out: the version check below answers 401
    try:
        authorise_scopes(session, row.user, scopes)
    except DealerError as exc:
        status, code, message = refusal(exc)
        return jsonify(code=code, message=message), status
    finally:
        session.rollback()  # the held ask must not keep a read transaction open
    return None


@bp.get("/live")
def live_version() -> Response | tuple[Response, int]:
    """The version of what the scopes show: 304 when it is the one the screen holds."""
    signed_in_as = watching()
    scopes = live.scopes_of(request.args.getlist("scope"))
    if signed_in_as is not None and not 0 < len(scopes) <= LIVE_SCOPES:
        return jsonify(
            code="bad_scope",
            message=say(
                "Ask about 1 to {most} of: floor, table:<id>, hand:<id>, seating:<id>.",
                most=LIVE_SCOPES,
            ),
        ), 400
    wait = request.args.get("wait", "0")
    if not wait.isdigit() or int(wait) > LIVE_HOLD_S:
        return jsonify(
            code="bad_wait",
            message=say("wait: a whole number of seconds, 0 to {most}.", most=LIVE_HOLD_S),
        ), 400
    token = None
    if signed_in_as is not None:
        refused = _refused(signed_in_as, scopes)
        if refused is not None:
            return refused
        token = live.version_if_signed_in(db.engine, signed_in_as, scopes, current_app.config)
        if token is not None and int(wait) and request.if_none_match.contains(token):
            _watcher().wait(scopes, token, int(wait))
            # What the screen is told is read afresh (and the sign-in checked again).
            token = live.version_if_signed_in(db.engine, signed_in_as, scopes, current_app.config)
    if token is None:
        # No redirect to the sign-in page: the screen itself sends the dealer there next
        # time they touch it; an ask only learns it should stop.
        return jsonify(code="signed_out", message=say("Signed out: sign in again.")), 401
    answer = Response(status=200)
    answer.set_etag(token)
    answer.headers["Cache-Control"] = "no-cache"
    if request.if_none_match.contains(token):
        answer.status_code = 304
        return answer
    answer.set_data(f'{{"version": "{token}"}}')
    answer.mimetype = "application/json"
    return answer
