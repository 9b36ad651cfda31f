"""The role x route x table matrix: every route of the app, every method, for five callers.

The callers: nobody signed in, Dee (a dealer holding table 1's session: "mine"), Bo (a dealer
holding table 2's session, asking about table 1: "other"), Sam (a supervisor) and Ada (an
admin). Each route's row says the status each gets; a route in the app's URL map without a
row FAILS (`test_every_route_has_a_row`), so a route added later must be classified here.

To add a row: one line in ROWS, keyed "METHOD /path/{param}" as the URL map spells the path
(converters written as ``{name}``), with the five statuses (anonymous, mine, other,
supervisor, admin) and, for a write, the body it sends. Addresses name table 1's things
(its hand, its session, its seat 1), so "other" is a dealer asking about someone else's
table. Each caller plays in a world of its own, built the same way (`build_world`), and the
rows run in order: the writes that end things (a void of the hand, a sign-out) come last.

The API and the reports are called with a bearer token, the screens (and the Print buttons)
with a signed-in cookie. Signed out, a screen redirects to sign in (302) and a JSON door
answers 401.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import select

from dealer import create_app
from dealer.extensions import db
from dealer.models import AuthToken, User
from dealer.people.devices import register_device
from dealer.people.sign_ins import hash_token
from dealer.people.users import add_user
from dealer.reports.builds import builds
from dealer.transactions import writing
from tests.helpers import PEOPLE, Api, add_people

CALLERS = ("anonymous", "mine", "other", "supervisor", "admin")
#: What is kept on the world's player (Pat) for the floor's eyes only: no answer to a dealer
#: holds it, on any route (the players' search and the player included).
PRIVATE = {"card_number": "C-7731", "notes": "Owes the cage a marker"}
#: Where a supervisor reads it.
PRIVATE_SHOWN = ("GET /api/v1/players", "GET /api/v1/players/{player_id}", "GET /players")
#: Who signs in as each caller (name, PIN).
SIGN_INS = {
    "mine": PEOPLE["dealer"],
    "other": ("Bo", "5555"),
    "supervisor": PEOPLE["supervisor"],
    "admin": PEOPLE["admin"],
}


@dataclass(frozen=True)
class Row:
    """The statuses of one route for (anonymous, mine, other, supervisor, admin)."""

    statuses: tuple[int, int, int, int, int]
    #: A write's body: JSON for the API, form fields for a screen.
    body: dict[str, Any] | None = None
    #: Added to the address (a screen's question).
    query: str = ""
    #: Values for the address's parameters other than the world's.
    params: dict[str, Any] = field(default_factory=dict)
    #: Sent from a client of its own, signed in as nobody (signing in must not change who
    #: the caller is for the rows after it).
    alone: bool = False


def row(anon: int, mine: int, other: int, sup: int, admin: int, **kw: Any) -> Row:
    return Row((anon, mine, other, sup, admin), **kw)


TIME = {"supervisor": {"name": "Sam", "pin": "2222"}}
MELD = {"type": "meld", "seat": 2, "cards": ["7D", "7D", "7D"]}

#: Every route of the app, in the order they run. Rows that end things come last.
ROWS: dict[str, Row] = {
    # --- open to all: the start, health, files, the OpenAPI document, signing in
    "GET /": row(200, 303, 303, 303, 303),
    "GET /healthz": row(200, 200, 200, 200, 200),
    "GET /favicon.ico": row(301, 301, 301, 301, 301),
    "GET /static/{filename}": row(200, 200, 200, 200, 200, params={"filename": "app.css"}),
    "GET /sw.js": row(200, 200, 200, 200, 200),
    "GET /api/v1/openapi.json": row(200, 200, 200, 200, 200),
    "GET /sign-in": row(200, 200, 200, 200, 200),
    "POST /sign-in": row(303, 303, 303, 303, 303, body={"name": "Ada", "pin": "3333"}, alone=True),
    # With people added, the first-run screens send everyone on.
    "GET /first-run": row(303, 303, 303, 303, 303),
    "POST /first-run": row(303, 303, 303, 303, 303, body={}),
    "POST /api/v1/session": row(200, 200, 200, 200, 200, body={"name": "Dee", "pin": "1111"}),
    # --- the JSON API: reads of table 1 and its things
    # Every signed-in caller lists the floor's tables (a dealer sees the seats of their own).
    "GET /api/v1/tables": row(401, 200, 200, 200, 200),
    "GET /api/v1/tables/{table_id}": row(401, 200, 403, 200, 200),
    "GET /api/v1/tables/{table_id}/hands": row(401, 200, 403, 200, 200, query="?limit=5"),
    "GET /api/v1/tables/{table_id}/balances": row(401, 200, 403, 200, 200),
    "GET /api/v1/tables/{table_id}/ledger": row(401, 200, 403, 200, 200),
    "GET /api/v1/tables/{table_id}/sessions": row(401, 200, 403, 200, 200),
    "GET /api/v1/tables/{table_id}/assignments": row(401, 200, 403, 200, 200),
    "GET /api/v1/sessions/{session_id}": row(401, 200, 403, 200, 200),
    "GET /api/v1/hands/{hand_id}": row(401, 200, 403, 200, 200),
    "POST /api/v1/hands/{hand_id}/fits": row(401, 200, 403, 200, 200, body={"card": "5S"}),
    "GET /api/v1/hands/{hand_id}/seats/{seat}/statement": row(401, 200, 403, 200, 200),
    "GET /api/v1/hands/{hand_id}/replay": row(401, 200, 403, 200, 200),
    "GET /api/v1/search": row(401, 403, 403, 200, 200, query="?q=seat+1"),
    "GET /api/v1/payments": row(401, 403, 403, 200, 200, query="?hand={hand_id}"),
    "GET /api/v1/hands/{hand_id}/disputes": row(401, 200, 403, 200, 200),
    # A dealer lists the disputes of the tables they hold: none of table 1's for Bo.
    "GET /api/v1/disputes": row(401, 200, 200, 200, 200, query="?status=open"),
    # Players are the card room's, not a table's: a dealer finds and adds them to seat them.
    "GET /api/v1/players": row(401, 200, 200, 200, 200, query="?q=Pa"),
    "GET /api/v1/players/{player_id}": row(401, 200, 200, 200, 200),
    "GET /api/v1/players/{player_id}/statement": row(401, 403, 403, 200, 200),
    "GET /api/v1/ledger/verify": row(401, 403, 403, 200, 200),
    "GET /api/v1/users": row(401, 403, 403, 403, 200),
    # --- the JSON API: writes at table 1
    "POST /api/v1/tables": row(401, 403, 403, 201, 201, body={"name": "T", "profile": "classic"}),
    "PATCH /api/v1/tables/{table_id}": row(401, 403, 403, 200, 200, body={"max_buy_in": 3000}),
    "POST /api/v1/tables/{table_id}/assignments": row(
        401, 403, 403, 201, 201, body={"dealer": "Zed"}
    ),
    "DELETE /api/v1/tables/{table_id}/assignments/{dealer_id}": row(401, 403, 403, 200, 200),
    "POST /api/v1/tables/{table_id}/seats": row(
        401, 201, 403, 201, 201, body={"seat": 6, "player": "Fay", "buy_in": 50}
    ),
    "POST /api/v1/tables/{table_id}/seats/{seat}/chips": row(
        401, 201, 403, 201, 201, body={"kind": "buy_in", "amount": 10}
    ),
    "POST /api/v1/tables/{table_id}/seats/{seat}/pause": row(
        401, 200, 403, 200, 200, body={"paused": True}, params={"seat": 6}
    ),
    "DELETE /api/v1/tables/{table_id}/seats/{seat}": row(
        401, 200, 403, 200, 200, params={"seat": 6}
    ),
    # The first collection is due at once; the matrix's world has taken none.
    "POST /api/v1/tables/{table_id}/collections": row(401, 201, 403, 201, 201, body={}),
    "POST /api/v1/hands/{hand_id}/events": row(401, 201, 403, 201, 201, body=MELD),
    "POST /api/v1/tables/{table_id}/hands": row(401, 409, 403, 409, 409, body={}),
    "POST /api/v1/tables/{table_id}/sessions": row(401, 409, 409, 409, 409, body={}),
    "POST /api/v1/users": row(
        401, 403, 403, 403, 201, body={"name": "Eve", "role": "dealer", "pin": "7777"}
    ),
    "DELETE /api/v1/users/{user_id}": row(401, 403, 403, 403, 200),
    "POST /api/v1/players": row(401, 201, 201, 201, 201, body={"name": "Hal"}),
    "POST /api/v1/hands/{hand_id}/disputes": row(
        401, 201, 403, 201, 201, body={"raised_by": "dealer", "claim": "Count the pot."}
    ),
    # Only a supervisor rules on a dispute.
    "POST /api/v1/disputes/{dispute_id}/ruling": row(
        401, 403, 403, 201, 201, body={"outcome": "denied", "reason": "Paid right."}
    ),
    # --- documents and exports
    "GET /reports/hands/{hand_id}.pdf": row(401, 200, 403, 200, 200),
    "GET /reports/sessions/{session_id}.pdf": row(401, 200, 403, 200, 200),
    "GET /reports/hands/{hand_id}/seats/{seat}/statement.pdf": row(401, 200, 403, 200, 200),
    "POST /print/hands/{hand_id}/seats/{seat}/statement.pdf": row(401, 200, 403, 200, 200, body={}),
    "GET /reports/shift.pdf": row(401, 403, 403, 200, 200, query="?from={since}&to={until}"),
    "GET /exports/ledger.csv": row(401, 403, 403, 200, 200),
    "GET /exports/players.csv": row(401, 403, 403, 200, 200),
    "GET /reports/players/{player_id}.pdf": row(401, 403, 403, 200, 200),
    "POST /print/hands/{hand_id}.pdf": row(401, 200, 403, 200, 200, body={}),
    "POST /print/sessions/{session_id}.pdf": row(401, 200, 403, 200, 200, body={}),
    "POST /print/shift.pdf": row(
        401, 403, 403, 200, 200, body={}, query="?from={since}&to={until}"
    ),
    # The floor's long documents, built in the background: only the asker reads a build.
    "POST /print/builds/shift": row(
        401, 403, 403, 202, 202, body={}, query="?from={since}&to={until}"
    ),
    "POST /print/builds/sessions/{session_id}": row(401, 202, 403, 202, 202, body={}),
    "GET /print/builds/{token}": row(401, 404, 404, 404, 404, params={"token": "A" * 22}),
    "GET /print/builds/{token}.pdf": row(401, 404, 404, 404, 404, params={"token": "A" * 22}),
    # --- the screens: pages
    "GET /floor": row(302, 403, 403, 200, 200),
    "GET /floor/audit": row(302, 403, 403, 200, 200),
    "GET /tables": row(302, 200, 200, 200, 200),
    "GET /tables/{table_id}": row(302, 200, 403, 200, 200),
    "GET /tables/{table_id}/seats/{seat}": row(302, 200, 403, 200, 200),
    "GET /tables/{table_id}/deal": row(302, 200, 403, 200, 200),
    "GET /tables/{table_id}/settings": row(302, 403, 403, 200, 200),
    "GET /hands/{hand_id}": row(302, 200, 403, 200, 200, query="?seat=1&meld=1&fits=5S"),
    "GET /hands/{hand_id}/settle": row(302, 200, 403, 200, 200, query="?seat=1"),
    "GET /hands/{hand_id}/events/{event_id}/void": row(302, 200, 403, 200, 200),
    "GET /hands/{hand_id}/void": row(302, 200, 403, 200, 200),
    "GET /hands/{hand_id}/events/{event_id}/payments/{number}": row(302, 200, 403, 200, 200),
    "GET /hands/{hand_id}/events/{event_id}/payments/{number}/dispute": row(
        302, 200, 403, 200, 200
    ),
    "GET /hands/{hand_id}/seats/{seat}/statement": row(302, 200, 403, 200, 200),
    "GET /hands/{hand_id}/replay": row(302, 200, 403, 200, 200),
    "GET /floor/hands": row(302, 403, 403, 200, 200),
    "GET /tables/{table_id}/hands": row(302, 200, 403, 200, 200),
    "GET /floor/disputes": row(302, 403, 403, 200, 200),
    "GET /search": row(302, 403, 403, 200, 200, query="?q=seat+1"),
    "GET /payments": row(302, 403, 403, 200, 200, query="?hand={hand_id}"),
    "GET /rules": row(302, 200, 200, 200, 200),
    "GET /rules/{number}": row(302, 200, 200, 200, 200),
    "GET /floor/devices": row(302, 403, 403, 200, 200),
    "GET /floor/sign-ins": row(302, 403, 403, 200, 200),
    "GET /floor/people": row(302, 403, 403, 403, 200),
    "GET /players": row(302, 403, 403, 200, 200),
    "GET /players/{player_id}": row(302, 403, 403, 200, 200),
    "POST /players/{player_id}/language": row(302, 403, 403, 303, 303, body={"language": ""}),
    # A live screen's ask: answered in JSON (401 signed out, never a redirect).
    "GET /live": row(401, 200, 403, 200, 200, query="?scope=table:{table_id}"),
    # --- the screens: forms
    "POST /prefs": row(302, 303, 303, 303, 303, body={"four_colour": "on", "page": "/tables"}),
    "POST /prefs/language": row(302, 303, 303, 303, 303, body={"language": "", "page": "/tables"}),
    "POST /floor/tables": row(
        302,
        403,
        403,
        303,
        303,
        body={
            "name": "T on screen",
            "profile": "classic",
            "collection": "none",
            "chip_value_cents": "25",
        },
    ),
    "POST /tables/{table_id}/settings": row(
        302,
        403,
        403,
        303,
        303,
        body={"min_buy_in": "1", "max_buy_in": "3000", "approval_above": "1000"},
    ),
    "POST /floor/devices": row(302, 403, 403, 303, 303, body={"name": "Tab 9"}),
    "POST /players": row(302, 403, 403, 303, 303, body={"name": "Ivy"}),
    "POST /floor/devices/{device_id}/rename": row(302, 403, 403, 303, 303, body={"name": "Tab 8"}),
    "POST /floor/devices/{device_id}/language": row(302, 403, 403, 303, 303, body={"language": ""}),
    "POST /floor/devices/{device_id}/retire": row(302, 403, 403, 303, 303, body={}),
    "POST /floor/sign-ins/{token_id}/end": row(302, 403, 403, 303, 303, body={}),
    "POST /floor/people": row(
        302,
        403,
        403,
        403,
        303,
        body={"name": "Xu", "role": "dealer", "pin": "4321", "pin_again": "4321"},
    ),
    "POST /floor/people/{user_id}/pin": row(
        302,
        403,
        403,
        403,
        303,
        body={"pin": "9876", "pin_again": "9876"},
        params={"user_id": "{cy}"},
    ),
    "POST /floor/people/{user_id}/language": row(302, 403, 403, 403, 303, body={"language": ""}),
    "POST /floor/people/{user_id}/deactivate": row(302, 403, 403, 403, 303, body={}),
    "POST /tables/{table_id}/assignments": row(302, 403, 403, 303, 303, body={"dealer": "Cy"}),
    "POST /tables/{table_id}/assignments/end": row(
        302, 403, 403, 303, 303, body={"dealer_id": "{cy}"}
    ),
    "POST /tables/{table_id}/seats": row(
        302, 303, 403, 303, 303, body={"seat": "7", "player": "Gus", "buy_in": "40"}
    ),
    "POST /tables/{table_id}/seats/{seat}/chips": row(
        302, 303, 403, 303, 303, body={"kind": "buy_in", "amount": "5"}
    ),
    "POST /tables/{table_id}/seats/{seat}/leave": row(302, 303, 403, 303, 303, params={"seat": 7}),
    # Taken once by the API's row above: the second is not due (409), and the floor's own
    # tap overrides it.
    "POST /tables/{table_id}/collections": row(302, 409, 403, 303, 303, body={}),
    "POST /tables/{table_id}/hands": row(302, 409, 403, 409, 409, body={}),
    "POST /hands/{hand_id}/events": row(
        302, 303, 403, 303, 303, body={"action": "meld", "seat": "3", "cards": "6D 6D 6D"}
    ),
    "POST /hands/{hand_id}/events/{event_id}/move": row(
        302, 303, 403, 303, 303, body={"seat": "4"}, params={"event_id": "{to_move}"}
    ),
    "POST /hands/{hand_id}/events/{event_id}/void": row(
        302, 303, 403, 303, 303, body={"reason": "wrong cards"}, params={"event_id": "{to_void}"}
    ),
    "POST /tables/{table_id}/sessions": row(302, 409, 409, 409, 409, body={}),
    "POST /hands/{hand_id}/disputes": row(
        302, 303, 403, 303, 303, body={"raised_by": "0", "claim": "Count it again."}
    ),
    # The world's second dispute (the API's row rules on the first); a dealer may not rule.
    "POST /hands/{hand_id}/disputes/{dispute_id}/ruling": row(
        302,
        403,
        403,
        303,
        303,
        body={"ruling-2-outcome": "denied", "ruling-2-reason": "Right."},
        params={"dispute_id": "{second_dispute}"},
    ),
    "POST /hands/{hand_id}/settle": row(302, 303, 403, 303, 303, body={"seat": "1"}),
    # The hand is settled: its void needs a supervisor, and the dealer brought none.
    "POST /hands/{hand_id}/void": row(302, 403, 403, 303, 303, body={"reason": "misdeal"}),
    "POST /tables/{table_id}/sessions/{session_id}/close": row(302, 303, 403, 303, 303, body={}),
    # Closed by the screen's row just above: the dealer's waits for the floor, the floor's
    # is confirmed.
    "POST /api/v1/sessions/{session_id}/close": row(401, 409, 403, 409, 409, body={}),
    "PUT /api/v1/tables/{table_id}/count": row(
        401, 403, 403, 200, 200, body={"tolerance": 0, "sells_for_cash": False}
    ),
    # The count at the close, confirmed by Bo: its variance needs a third person, a supervisor
    # who neither counted nor confirmed, and nobody brought one: the floor's own sign-in does
    # not approve its own count, as the dealer's does not (the screen first, then the API).
    "POST /tables/{table_id}/sessions/{session_id}/count": row(
        302,
        403,
        403,
        403,
        403,
        body={
            "tray_chips": "7",
            "witness_name": "Bo",
            "witness_pin": "5555",
            "reason": "Miscount.",
        },
    ),
    "POST /api/v1/sessions/{session_id}/count": row(
        401,
        403,
        403,
        403,
        403,
        body={"tray_chips": 7, "witness": {"name": "Bo", "pin": "5555"}, "reason": "Miscount."},
    ),
    "POST /tablet/paper": row(302, 303, 303, 303, 303, body={"paper": "receipt"}),
    # --- signing out: last, as it ends the caller's sign-in
    "GET /sign-out": row(405, 405, 405, 405, 405),
    "POST /sign-out": row(303, 303, 303, 303, 303, body={}),
    "DELETE /api/v1/session": row(401, 204, 204, 204, 204),
}


def _template(rule: str) -> str:
    return re.sub(r"<(?:[^>:]*:)?(\w+)>", r"{\1}", rule)


def url_map_routes(app: Flask) -> set[str]:
    """Every "METHOD /path" the app answers (HEAD and OPTIONS are Flask's own)."""
    out = set()
    for rule in app.url_map.iter_rules():
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            out.add(f"{method} {_template(rule.rule)}")
    return out


def test_every_route_has_a_row() -> None:
    """Is every route of the URL map classified here (and no row left for a gone route)?"""
    routes = url_map_routes(create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://"}))
    # A GET row for a route that only takes POST is a deliberate 405 check, not a route.
    rows = {key for key, r in ROWS.items() if not all(s == 405 for s in r.statuses)}
    missing = sorted(routes - rows)
    assert not missing, "routes with no row in tests/test_matrix.py ROWS: " + ", ".join(missing)
    gone = sorted(rows - routes)
    assert not gone, "rows for routes the app no longer has: " + ", ".join(gone)


# ------------------------------------------------------------------------------ the world


@dataclass
class World:
    """Two tables, each with its dealer's open session, seats, a hand in play with events,
    and a print; the ids the addresses name are table 1's."""

    ids: dict[str, Any]


def build_world(app: Flask) -> World:
    add_people(app)
    with app.app_context(), writing(db.session()) as session:
        add_user(session, "Bo", "dealer", "5555")
        cy = add_user(session, "Cy", "dealer", "6666").id
        zed = add_user(session, "Zed", "dealer", "8888").id
        add_user(session, "Yan", "dealer", "7777")  # signed in, for the floor to end
        sam = session.scalars(select(User).where(User.name == PEOPLE["supervisor"][0])).one()
        _token, spare = register_device(session, "Spare tablet", sam, None)
        device_id = spare.id
    floor = Api.sign_in(app, "supervisor")
    dee = Api.sign_in(app, "dealer")
    bo = Api.sign_in_as(app, "Bo", "5555")
    # Yan's sign-in, for the floor to end (the End row); Zed is deactivated by another row.
    yan_token = str(Api.sign_in_as(app, "Yan", "7777").token)
    with app.app_context():
        token_id = db.session.scalars(
            select(AuthToken.id).where(AuthToken.token_hash == hash_token(yan_token))
        ).one()
    time = {"kind": "time", "chips": 1, "minutes": 30}
    t1 = floor.table(name="Table 1", dealer=None, collection=time)["id"]
    t2 = floor.table(name="Table 2", dealer=None)["id"]
    # Cy is assigned to table 1 (a relief dealer) so the unassigning rows have one to end.
    floor.post(f"/tables/{t1}/assignments", {"dealer": "Cy"}, status=201)
    hands = {}
    downs = {}
    for table, dealer in ((t1, dee), (t2, bo)):
        downs[table] = dealer.post(f"/tables/{table}/sessions", status=201)["id"]
        for seat in range(1, 6):
            dealer.seat(table, seat, f"P{seat}", 100)
        hand = dealer.hand(table, dropped=[5])["id"]
        # Seat 1 can go out; seats 2 and 3 have a meld each, one to move and one to void.
        melds = [
            (1, ["5S", "5S", "5S"]),
            (1, ["JH", "QH", "KH"]),
            (1, ["2C", "3C", "4C", "5C", "6C"]),
            (2, ["QD", "QD", "QD"]),
            (3, ["KC", "KC", "KC"]),
        ]
        events = [
            dealer.event(hand, {"type": "meld", "seat": seat, "cards": cards})["event"]["id"]
            for seat, cards in melds
        ]
        hands[table] = (hand, events)
    hand, events = hands[t1]
    disputes = [
        dee.post(f"/hands/{hand}/disputes", {"raised_by": "dealer", "claim": claim}, status=201)
        for claim in ("Seat 2 paid twice.", "Seat 3 was short.")
    ]
    player = floor.post("/players", {"name": "Pat", **PRIVATE}, status=201)
    printed = dee.client.get(
        f"/reports/hands/{hand}.pdf", headers={"Authorization": f"Bearer {dee.token}"}
    )
    assert printed.status_code == 200
    now = datetime.now(UTC)
    ids = {
        "table_id": t1,
        "hand_id": hand,
        "event_id": events[0],
        "to_move": events[3],
        "to_void": events[4],
        "session_id": downs[t1],
        "seat": 1,
        "number": 1,
        "user_id": zed,
        "dealer_id": cy,
        "device_id": device_id,
        "token_id": token_id,
        "dispute_id": disputes[0]["id"],
        "second_dispute": disputes[1]["id"],
        "player_id": player["id"],
        "cy": cy,
        "since": (now - timedelta(hours=8)).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "until": (now + timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }
    return World(ids)


def _fill(text: str, ids: dict[str, Any]) -> str:
    return text.format(**ids)


def _address(key: str, spec: Row, ids: dict[str, Any]) -> tuple[str, str]:
    method, template = key.split(" ", 1)
    values = {**ids, **{k: _fill(str(v), ids) for k, v in spec.params.items()}}
    return method, template.format(**values) + _fill(spec.query, ids)


def _form(body: dict[str, Any] | None, ids: dict[str, Any]) -> dict[str, str]:
    return {k: _fill(str(v), ids) for k, v in (body or {}).items()}


@pytest.fixture(params=CALLERS)
def caller(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def test_the_matrix(app: Flask, caller: str) -> None:
    """Does each route answer each caller as its row says, in a world of the caller's own?"""
    ids = build_world(app).ids
    token = ""
    cookie_client = app.test_client()
    if caller != "anonymous":
        name, pin = SIGN_INS[caller]
        answer = app.test_client().post("/api/v1/session", json={"name": name, "pin": pin})
        token = answer.get_json()["token"]
        signed = cookie_client.post("/sign-in", data={"name": name, "pin": pin})
        assert signed.status_code == 303
    column = CALLERS.index(caller)
    wrong = []
    for key, spec in ROWS.items():
        method, path = _address(key, spec, ids)
        json_door = path.startswith(("/api/", "/reports/", "/exports/"))
        if json_door:
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            kwargs: dict[str, Any] = {"headers": headers}
            if spec.body is not None:
                kwargs["json"] = spec.body
            answer = app.test_client().open(path, method=method, **kwargs)
        else:
            form = _form(spec.body, ids) if spec.body is not None else None
            client = app.test_client() if spec.alone else cookie_client
            answer = client.open(path, method=method, data=form)
        status = answer.status_code
        # Read whole (a streamed export ends cleanly); a PDF is bytes, not words.
        said = answer.get_data().decode("utf-8", "replace").replace("&#39;", "'")
        answer.close()
        if status != spec.statuses[column]:
            wrong.append(f"{key} as {caller}: {status}, the row says {spec.statuses[column]}")
        elif (
            # Refused for the table, not the role: the authority's words name both tables.
            caller == "other"
            and status == 403
            and spec.statuses[1] != 403
            and "You deal Table 2; Table 1 is Dee's." not in said
        ):
            wrong.append(f"{key} as other: 403 without the table's words: {said[:200]}")
        private = [v for v in PRIVATE.values() if v in said]
        if caller in ("mine", "other") and private:
            wrong.append(f"{key} as {caller}: shows a player's private {private}")
        if caller in ("supervisor", "admin") and key in PRIVATE_SHOWN and len(private) < 2:
            wrong.append(f"{key} as {caller}: does not show the player's card number and notes")
    assert builds(app).wait_all(), "a document built in the background did not end"
    assert not wrong, "\n".join(wrong)
