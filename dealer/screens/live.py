"""Live screens: an open screen learns that what it shows changed, and redraws those parts.

A screen opts in with ``data-live-scopes`` (what it shows: ``floor``, ``table:<id>``,
``hand:<id>``, ``seating:<id>``) and marks the parts that show state with
``data-live-region="<block>"``, each a block of its template. ``static/dealer.js`` asks
``GET /live?scope=..`` every `LIVE_EVERY_MS` with the version it holds (``If-None-Match``):
nothing changed is a 304 with no body, one primary-key read (`dealer.ledger.live.version`).
When it changed, it asks the screen's own address for its regions (``X-Live-Regions``) and
the view answers them through `live_page`: the same template, the same context, only those
blocks (jinja2-fragments), so the server stays the one source of every word. Parts where the
dealer is typing are never replaced (the client's side).

Why polling and not server-sent events: under gunicorn's threaded workers a stream holds a
thread for as long as the screen is open, so 200 screens would need 200 threads; a 304
costs a fraction of a millisecond and no thread in between (bench/live.py measures both).
"""

from __future__ import annotations

from typing import Any

from flask import Response, current_app, jsonify, render_template, request
from jinja2_fragments.flask import render_block

from dealer.auth.guard import watching
from dealer.bounds import LIVE_EVERY_MS, LIVE_SCOPES
from dealer.extensions import current_session, db
from dealer.ledger import live

from . import bp

__all__ = ["live_context", "live_page"]

REGIONS_HEADER = "X-Live-Regions"


def live_context(*scopes: str) -> dict[str, Any]:
    """What a template needs to opt in: the scopes, the version drawn, how often to ask."""
    asked = live.scopes_of(scopes)
    return {
        "live_scopes": " ".join(asked),
        "live_version": live.version(current_session(), asked),
        "live_every_ms": LIVE_EVERY_MS,
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


@bp.get("/live")
def live_version() -> Response | tuple[Response, int]:
    """The version of what the scopes show: 304 when it is the one the screen holds."""
    token_id = watching()
    scopes = live.scopes_of(request.args.getlist("scope"))
    if token_id is not None and not 0 < len(scopes) <= LIVE_SCOPES:
        return jsonify(
            code="bad_scope",
            message=f"Ask about 1 to {LIVE_SCOPES} of: floor, table:<id>, hand:<id>, "
            "seating:<id>.",
        ), 400
    token = None
    if token_id is not None:
        token = live.version_if_signed_in(db.engine, token_id, scopes)
    if token is None:
        # No redirect to the sign-in page: the screen itself sends the dealer there next
        # time they touch it; a poll only learns it should stop.
        return jsonify(code="signed_out", message="Signed out: sign in again."), 401
    answer = Response(status=200)
    answer.set_etag(token)
    answer.headers["Cache-Control"] = "no-cache"
    if request.if_none_match.contains(token):
        answer.status_code = 304
        return answer
    answer.set_data(f'{{"version": "{token}"}}')
    answer.mimetype = "application/json"
    return answer
