"""Every screen and every form, for every role: signed out, dealer, supervisor, admin."""

from __future__ import annotations

import re

import pytest
from flask import Flask

from dealer import create_app
from dealer.screens import bp as screens_bp
from tests.helpers import Api
from tests.screens.conftest import Web, six_seated, words

ROLES = ("dealer", "supervisor", "admin")


@pytest.fixture
def world(people: Flask) -> dict[str, int]:
    """Table 1: seed 000's hand, settled. Table 2: a hand in play where seat 1 can go out."""
    floor = Api.sign_in(people, "supervisor")
    ids: dict[str, int] = {}
    for name in ("table_id", "playing_table"):
        table = six_seated(floor)
        hand = floor.hand(table, dropped=[5])
        for cards in (["5S", "5S", "5S"], ["JH", "QH", "KH"], ["2C", "3C", "4C", "5C", "6C"]):
            floor.event(hand["id"], {"type": "meld", "seat": 1, "cards": cards})
        ids[name] = table
        ids["hand_id" if name == "table_id" else "playing_hand"] = hand["id"]
    ids["event_id"] = floor.event(ids["hand_id"], {"type": "go_out", "seat": 1})["event"]["id"]
    ids["seat"] = 1
    ids["number"] = 1
    ids["player_id"] = floor.post("/players", {"name": "Ann"}, status=201)["id"]
    opened = {"raised_by": "dealer", "claim": "Count again."}
    ids["dispute_id"] = floor.post(f"/hands/{ids['hand_id']}/disputes", opened, status=201)["id"]
    ids["user_id"] = 1  # the dealer: an admin's forms sent empty only refuse in words
    ids["device_id"] = 1  # none is registered: a supervisor is told so, a dealer is refused
    ids["token_id"] = 1  # the supervisor's sign-in: only refused here, never ended
    # Dealing opened the supervisor's session at table 1: close it, and let the dealer open
    # theirs, so a dealer's forms act on the dealer's own session.
    (implicit, *_) = floor.get(f"/tables/{ids['table_id']}/sessions")["sessions"]
    floor.post(f"/sessions/{implicit['id']}/close", status=200)
    dealer = Api.sign_in(people, "dealer")
    ids["session_id"] = dealer.post(f"/tables/{ids['table_id']}/sessions", status=201)["id"]
    return ids


#: Every screen (GET) and the least role that may see it.
PAGES = {
    "/floor": "supervisor",
    "/floor/audit": "supervisor",
    "/floor/sign-ins": "supervisor",
    "/tables": "dealer",
    "/tables/{table_id}": "dealer",
    "/tables/{table_id}/seats/{seat}": "dealer",
    "/tables/{table_id}/deal": "dealer",
    "/tables/{table_id}/settings": "supervisor",
    "/hands/{hand_id}": "dealer",
    "/hands/{playing_hand}/settle": "dealer",
    "/hands/{hand_id}/events/{event_id}/void": "dealer",
    "/hands/{hand_id}/void": "dealer",
    "/hands/{hand_id}/events/{event_id}/payments/{number}": "dealer",
    "/players": "supervisor",
    "/players/{player_id}": "supervisor",
    "/hands/{hand_id}/seats/{seat}/statement": "dealer",
    "/payments": "supervisor",
    "/rules": "dealer",
    "/rules/{number}": "dealer",
    "/floor/devices": "supervisor",
    "/floor/hands": "supervisor",
    "/floor/disputes": "supervisor",
    "/floor/people": "admin",
    "/search": "supervisor",
    "/tables/{table_id}/hands": "dealer",
    "/hands/{hand_id}/replay": "dealer",
    "/hands/{hand_id}/events/{event_id}/payments/{number}/dispute": "dealer",
}
#: GET routes of the blueprint that are not screens: an open screen's ask
#: (tests/screens/test_live.py).
ASKS = {"/live"}
#: The same screens with their questions, and an empty seat.
QUERIES = {
    "/hands/{playing_hand}/settle": "?seat=1",
    "/payments": "?hand=1&seat=3&rule=going_out",
    "/search": "?q=seat+3",
    "/hands/{hand_id}": "?seat=1&meld=1&fits=5S",
}
#: Every form (POST) and the least role that may send it.
FORMS = {
    "/floor/tables": "supervisor",
    "/floor/sign-ins/{token_id}/end": "supervisor",
    "/tables/{table_id}/settings": "supervisor",
    "/tables/{table_id}/assignments": "supervisor",
    "/tables/{table_id}/assignments/end": "supervisor",
    "/tables/{table_id}/seats": "dealer",
    "/tables/{table_id}/seats/{seat}/chips": "dealer",
    "/tables/{table_id}/seats/{seat}/leave": "dealer",
    "/tables/{table_id}/collections": "dealer",
    "/tables/{table_id}/hands": "dealer",
    "/tables/{table_id}/sessions": "dealer",
    "/tables/{table_id}/sessions/{session_id}/close": "dealer",
    "/hands/{hand_id}/events": "dealer",
    "/hands/{hand_id}/settle": "dealer",
    "/hands/{hand_id}/events/{event_id}/void": "dealer",
    "/hands/{hand_id}/events/{event_id}/move": "dealer",
    "/hands/{hand_id}/void": "dealer",
    "/hands/{hand_id}/disputes": "dealer",
    # A dealer's ruling is refused by the service, in words (tests/screens/test_dispute_desk.py).
    "/hands/{hand_id}/disputes/{dispute_id}/ruling": "dealer",
    "/players": "supervisor",
    "/prefs": "dealer",
    "/prefs/language": "dealer",
    "/floor/people/{user_id}/language": "admin",
    "/floor/devices/{device_id}/language": "supervisor",
    "/players/{player_id}/language": "supervisor",
    "/floor/devices": "supervisor",
    "/floor/devices/{device_id}/rename": "supervisor",
    "/floor/devices/{device_id}/retire": "supervisor",
    "/floor/people": "admin",
    "/floor/people/{user_id}/pin": "admin",
    "/floor/people/{user_id}/deactivate": "admin",
    "/tables/{table_id}/sessions/{session_id}/count": "dealer",
    "/tablet/paper": "dealer",
}


def _routes(method: str) -> set[str]:
    app = create_app({"TESTING": True})
    names = {
        "table_id",
        "hand_id",
        "event_id",
        "seat",
        "number",
        "session_id",
        "device_id",
        "token_id",
        "player_id",
        "dispute_id",
        "user_id",
    }
    out = set()
    for rule in app.url_map.iter_rules():
        if rule.endpoint.split(".")[0] == screens_bp.name and method in (rule.methods or ()):
            path = re.sub(r"<[^>]*:(\w+)>", r"{\1}", rule.rule)
            assert set(re.findall(r"{(\w+)}", path)) <= names
            out.add(path)
    return out


def _plain(template: str) -> str:
    return template.replace("{playing_hand}", "{hand_id}")


def test_every_route_of_the_screens_is_covered_here() -> None:
    """Is every GET and POST route of the tables blueprint listed in PAGES or FORMS?"""
    assert {_plain(p) for p in PAGES} | ASKS == _routes("GET")
    assert {_plain(p) for p in FORMS} == _routes("POST")


@pytest.mark.parametrize("role", [None, *ROLES])
def test_an_open_screens_ask_for_every_role(
    people: Flask, world: dict[str, int], role: str | None
) -> None:
    """Signed out: 401 (an ask is not sent to the sign-in page). Any role: its version of its
    own table's things; the floor is a supervisor's (403 for a dealer)."""
    client = Web.sign_in(people, role).client if role else people.test_client()
    scopes = [f"table:{world['table_id']}", f"hand:{world['hand_id']}"]
    answer = client.get("/live", query_string={"scope": scopes})
    assert answer.status_code == (200 if role else 401)
    floor = client.get("/live", query_string={"scope": [*scopes, "floor"]})
    assert floor.status_code == {None: 401, "dealer": 403}.get(role, 200)


def pages(world: dict[str, int]) -> dict[str, str]:
    return {
        template.format(**world) + QUERIES.get(template, ""): least
        for template, least in PAGES.items()
    } | {f"/tables/{world['table_id']}/seats/8": "dealer"}


@pytest.mark.parametrize("role", [None, *ROLES])
def test_every_screen_for_every_role(
    people: Flask, world: dict[str, int], role: str | None
) -> None:
    """Signed out: off to sign in. Allowed: 200. A role below the screen's: a 403 page."""
    client = Web.sign_in(people, role).client if role else people.test_client()
    for path, least in pages(world).items():
        answer = client.get(path)
        if role is None:
            assert answer.status_code == 302, path
            assert answer.headers["Location"].startswith("/sign-in?next="), path
        elif ROLES.index(role) >= ROLES.index(least):
            assert answer.status_code == 200, (path, answer.status_code)
            assert answer.mimetype == "text/html"
        else:
            assert answer.status_code == 403, path
            needs = "an admin" if least == "admin" else "a supervisor or above"
            assert f"This screen is for {needs}." in words(answer.get_data(as_text=True))


@pytest.mark.parametrize("role", [None, "dealer"])
def test_every_form_refuses_who_may_not_send_it(
    people: Flask, world: dict[str, int], role: str | None
) -> None:
    """Signed out, every form goes to sign in; a dealer opening a table gets a 403 page."""
    client = Web.sign_in(people, role).client if role else people.test_client()
    for template, least in FORMS.items():
        path = template.format(**world)
        answer = client.post(path, data={})
        if role is None:
            assert answer.status_code == 302, path
            assert answer.headers["Location"].startswith("/sign-in"), path
        elif least != "dealer":
            assert answer.status_code == 403, path
        else:
            assert answer.status_code != 403, path


def test_unknown_table_and_hand_are_404_pages(dealer: Web) -> None:
    """Does an unknown id give a page that says what is missing?"""
    assert "There is no table 999." in words(dealer.get("/tables/999", status=404))
    assert "There is no hand 999." in words(dealer.get("/hands/999", status=404))


def test_unknown_event_and_payment_are_404_pages(dealer: Web, world: dict[str, int]) -> None:
    h, e = world["hand_id"], world["event_id"]
    assert "no event 9999" in words(dealer.get(f"/hands/{h}/events/9999/void", status=404))
    assert "no payment 99" in words(dealer.get(f"/hands/{h}/events/{e}/payments/99", status=404))


def test_odd_addresses_never_break_a_screen(
    dealer: Web, supervisor: Web, world: dict[str, int]
) -> None:
    """Digits that are not ASCII, huge numbers, junk: a page or a refusal, never a 500."""
    h = world["hand_id"]
    for query in (
        "?seat=²",
        "?seat=99999999999",
        "?meld=x",
        "?done=²,1,",
        "?fits=%00",
        "?fits=10H",
    ):
        assert dealer.client.get(f"/hands/{h}{query}").status_code == 200, query
    assert dealer.client.get(f"/hands/{world['playing_hand']}/settle?seat=²").status_code == 422
    floor_api = Api.sign_in(supervisor.client.application, "supervisor")
    floor_api.table(name="²")
    assert supervisor.client.get("/floor").status_code == 200
