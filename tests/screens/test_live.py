"""Live screens: the version an open screen asks for, the parts it redraws, the floor's flags."""

from __future__ import annotations

import json
import threading
import time

from flask import Flask

from dealer.extensions import db
from dealer.models import AuthToken, LiveMark
from dealer.people.sign_ins import hash_token, revoke
from tests.helpers import Api
from tests.screens.conftest import Web, six_seated, words


def ask(
    web: Web, *scopes: str, holding: str | None = None, wait: int = 0
) -> tuple[int, str | None]:
    """Ask /live as a screen does; the status and the version (the ETag)."""
    headers = {"If-None-Match": f'"{holding}"'} if holding is not None else {}
    query = {"scope": list(scopes), "wait": str(wait)}
    answer = web.client.get("/live", query_string=query, headers=headers)
    etag, _weak = answer.get_etag()
    if answer.status_code == 200:
        assert json.loads(answer.get_data(as_text=True)) == {"version": etag}
    else:
        assert answer.get_data() == b""
    return answer.status_code, etag


def test_the_version_is_a_304_until_an_event_changes_it(
    dealer: Web, floor_api: Api, table_id: int, hand_id: int
) -> None:
    """Does a matching If-None-Match get a bodiless 304, and an event a new version?"""
    scopes = (f"hand:{hand_id}", f"table:{table_id}")
    status, version = ask(dealer, *scopes)
    assert status == 200 and version
    assert ask(dealer, *scopes, holding=version) == (304, version)
    floor_api.event(hand_id, {"type": "meld", "seat": 1, "cards": ["5S", "5S", "5S"]})
    status, changed = ask(dealer, *scopes, holding=version)
    assert status == 200 and changed != version
    assert ask(dealer, *scopes, holding=changed) == (304, changed)


def test_a_held_ask_answers_as_soon_as_an_event_changes_what_it_shows(
    dealer: Web, floor_api: Api, table_id: int, hand_id: int
) -> None:
    """Is an ask with wait held while nothing changes, and answered within 2 s of an event?"""
    scopes = (f"hand:{hand_id}", f"table:{table_id}")
    _status, version = ask(dealer, *scopes)
    started = time.monotonic()
    assert ask(dealer, *scopes, holding=version, wait=1) == (304, version)
    assert time.monotonic() - started >= 0.9  # held, not answered at once
    answered: list[tuple[int, str | None, float]] = []

    def held() -> None:
        status, changed = ask(dealer, *scopes, holding=version, wait=10)
        answered.append((status, changed, time.monotonic()))

    waiting = threading.Thread(target=held)
    waiting.start()
    time.sleep(0.5)
    floor_api.event(hand_id, {"type": "meld", "seat": 1, "cards": ["5S", "5S", "5S"]})
    recorded = time.monotonic()
    waiting.join(timeout=15)
    ((status, changed, at),) = answered
    assert status == 200 and changed != version
    assert at - recorded < 2.0


def test_a_process_holding_its_most_asks_answers_at_once(
    people: Flask, dealer: Web, table_id: int
) -> None:
    """With no ask left to hold, is a wait answered at once (the screen then asks again)?"""
    people.config["LIVE_HELD"] = 0
    people.extensions.pop("dealer_live", None)
    _status, version = ask(dealer, f"table:{table_id}")
    started = time.monotonic()
    assert ask(dealer, f"table:{table_id}", holding=version, wait=10) == (304, version)
    assert time.monotonic() - started < 5


def test_a_change_elsewhere_leaves_a_screen_alone(
    dealer: Web, supervisor: Web, floor_api: Api, table_id: int, hand_id: int
) -> None:
    """Does seating a player at another table leave this hand's version as it was?"""
    _status, version = ask(dealer, f"hand:{hand_id}", f"table:{table_id}")
    other = floor_api.table(name="Table 2")["id"]
    floor_api.seat(other, 1, "Zed", 50)
    assert ask(dealer, f"hand:{hand_id}", f"table:{table_id}", holding=version)[0] == 304
    _status, floor = ask(supervisor, "floor")
    floor_api.seat(other, 2, "Yan", 50)
    assert ask(supervisor, "floor", holding=floor)[0] == 200


def test_a_dealer_watches_only_their_own_table(
    dealer: Web, floor_api: Api, table_id: int, hand_id: int
) -> None:
    """Is a live ask refused, in words, for another table's things and for the floor?"""
    other = floor_api.table(name="Table 2", dealer=None)["id"]
    seating = floor_api.seat(other, 1, "Zed", 50)
    for scope in (f"table:{other}", "floor", f"seating:{seating['seating']}"):
        answer = dealer.client.get("/live", query_string={"scope": scope})
        assert answer.status_code == 403, scope
        assert answer.get_json()["message"], scope
    assert ask(dealer, f"hand:{hand_id}", f"table:{table_id}")[0] == 200


def test_the_marks_are_bumped_once_per_write(people: Flask, floor_api: Api, table_id: int) -> None:
    """Does one write add one to each mark it touched, in its own transaction?"""

    def marks() -> dict[str, int]:
        with people.app_context():
            return {m.scope: m.version for m in db.session.query(LiveMark)}

    before = marks()
    seated = floor_api.seat(table_id, 7, "Gus", 40)
    after = marks()
    assert after[f"table:{table_id}"] == before[f"table:{table_id}"] + 1
    assert after["floor"] == before["floor"] + 1
    assert after[f"seating:{seated['seating']}"] == 1


def test_the_version_asks_for_a_sign_in_and_known_scopes(
    people: Flask, dealer: Web, table_id: int
) -> None:
    """Is a signed-out poll a 401 (no redirect), and a bad scope a 400 in words?"""
    signed_out = people.test_client().get("/live", query_string={"scope": "floor"})
    assert signed_out.status_code == 401
    bad = dealer.client.get("/live", query_string={"scope": "ledger:1"})
    assert bad.status_code == 400
    assert "Ask about 1 to 4 of" in bad.get_json()["message"]
    too_long = dealer.client.get("/live", query_string={"scope": "floor", "wait": "600"})
    assert too_long.status_code == 400
    assert too_long.get_json()["message"] == "wait: a whole number of seconds, 0 to 20."


def test_a_sign_in_ended_elsewhere_stops_the_answers(
    people: Flask, dealer: Web, table_id: int
) -> None:
    """Is a cookie whose sign-in was ended (or whose user was stopped) answered 401?"""
    assert ask(dealer, f"table:{table_id}")[0] == 200
    with dealer.client.session_transaction() as cookie:
        token = cookie["_user_id"]  # the sign-in's token itself, never a row id
    with people.app_context():
        row = db.session.query(AuthToken).filter_by(token_hash=hash_token(token)).one()
        revoke(db.session(), row.id)
    assert dealer.client.get("/live", query_string={"scope": "floor"}).status_code == 401


def test_a_poll_does_not_keep_an_idle_tablet_signed_in(
    people: Flask, dealer: Web, table_id: int
) -> None:
    """Does asking /live leave the idle clock where the last touch set it?"""
    with dealer.client.session_transaction() as cookie:
        cookie["seen"] = 1.0  # long ago
    assert dealer.client.get("/live", query_string={"scope": "floor"}).status_code == 401


def test_the_hand_screen_redraws_only_its_regions(
    dealer: Web, floor_api: Api, table_id: int, hand_id: int
) -> None:
    """Does the hand screen opt in, and answer its regions (not the pad) when asked?"""
    page = dealer.get(f"/hands/{hand_id}")
    assert f'data-live-scopes="hand:{hand_id} table:{table_id}"' in page
    floor_api.event(hand_id, {"type": "meld", "seat": 1, "cards": ["5S", "5S", "5S"]})
    answer = dealer.client.get(
        f"/hands/{hand_id}", headers={"X-Live-Regions": "live_board,live_history,action_form"}
    )
    parts = answer.get_json()
    assert set(parts) == {"live_board", "live_history"}
    assert 'data-live-region="live_board"' in parts["live_board"]
    assert "5♠" in words(parts["live_board"]) or "5S" in parts["live_board"]
    assert "meld" in words(parts["live_history"]).lower()
    assert "action-form" not in "".join(parts.values())


def test_the_floor_flags_short_stacks_time_due_and_a_close_waiting(
    supervisor: Web, dealer: Web, floor_api: Api
) -> None:
    """Does the floor flag a short stack, a time collection due and a close awaiting the floor?"""
    quiet = six_seated(floor_api, name="Quiet")
    timed = floor_api.table(name="Timed", collection={"kind": "time", "chips": 1, "minutes": 30})
    floor_api.seat(timed["id"], 1, "Ann", 100)
    floor_api.seat(timed["id"], 2, "Bob", 1)  # cannot cover one hand
    dealer.post(f"/tables/{quiet}/sessions", {})
    parts = supervisor.client.get("/floor", headers={"X-Live-Regions": "live_tables"}).get_json()
    rows = words(parts["live_tables"])
    assert "Quiet" in rows and "Timed" in rows
    assert "1 short stack" in rows
    assert "time collection due" in rows
    assert "close waits for a supervisor" not in rows
    down_id = floor_api.get(f"/tables/{quiet}/sessions")["sessions"][0]["id"]
    dealer.post(f"/tables/{quiet}/sessions/{down_id}/close", {})
    dealer.post(f"/tables/{timed['id']}/collections", {"key": "live-time-1"})
    rows = words(supervisor.get("/floor"))
    assert "close waits for a supervisor" in rows
    assert "time collection due" not in rows


def test_a_sign_in_past_its_shift_stops_the_answers(
    people: Flask, dealer: Web, table_id: int
) -> None:
    """The live ask holds to the same lifetime as every door (dealer.people.sign_ins.why_ended)."""
    from datetime import timedelta

    from sqlalchemy import update

    from dealer.models import utcnow
    from dealer.transactions import writing

    assert ask(dealer, f"table:{table_id}")[0] == 200
    with people.app_context(), writing(db.session()) as session:
        session.execute(update(AuthToken).values(created_at=utcnow() - timedelta(hours=13)))
    assert dealer.client.get("/live", query_string={"scope": "floor"}).status_code == 401


def test_the_disputes_panel_is_live(
    dealer: Web, supervisor: Web, floor_api: Api, table_id: int, hand_id: int
) -> None:
    """Does a dispute opened elsewhere move the hand's version, and the panel redraw with it?"""
    scopes = (f"hand:{hand_id}", f"table:{table_id}")
    _status, version = ask(dealer, *scopes)
    opened = floor_api.post(
        f"/hands/{hand_id}/disputes", {"raised_by": "seat", "seat": 2, "claim": "Short paid"}
    )
    status, changed = ask(dealer, *scopes, holding=version)
    assert status == 200 and changed != version
    parts = dealer.client.get(
        f"/hands/{hand_id}", headers={"X-Live-Regions": "live_disputes"}
    ).get_json()
    assert "(1 open)" in words(parts["live_disputes"])
    assert "Short paid" in words(parts["live_disputes"])
    floor_api.post(f"/disputes/{opened['id']}/ruling", {"outcome": "denied", "reason": "Paid"})
    status, ruled = ask(dealer, *scopes, holding=changed)
    assert status == 200 and ruled != changed
    parts = dealer.client.get(
        f"/hands/{hand_id}", headers={"X-Live-Regions": "live_disputes"}
    ).get_json()
    assert "(0 open)" in words(parts["live_disputes"])
