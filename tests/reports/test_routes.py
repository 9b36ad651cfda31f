"""The documents and exports over HTTP, on both databases: their figures are the API's figures.

An evening is played through the API (tests/reports/evening.py); each PDF's text, read back
with pypdf, must show the same nets, drops and totals the API gives for the same hands.
"""

from __future__ import annotations

import csv
import io
import re
from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from flask import Flask
from werkzeug.test import TestResponse

from dealer.extensions import db
from dealer.people.users import add_user
from dealer.reports.figures import chips_text
from dealer.transactions import writing
from dealer.words.catalogue import say
from dealer.words.checks import check_words
from tests.conftest import Database
from tests.helpers import Api
from tests.ledger.test_verify import without_triggers
from tests.reports.evening import PLAYERS, Evening, one_line, pdf_text

VALUE = {"Table 7": 50, "Table 9": 100}


def fetch(who: Api, path: str, status: int = 200) -> TestResponse:
    answer = who.client.get(path, headers=who.headers(None))
    assert answer.status_code == status, (answer.status_code, answer.get_data(as_text=True)[:300])
    return answer


def window(hours_before: float = 2, hours_after: float = 1) -> str:
    now = datetime.now(UTC)
    start = (now - timedelta(hours=hours_before)).strftime("%Y-%m-%dT%H:%M:%SZ")
    end = (now + timedelta(hours=hours_after)).strftime("%Y-%m-%dT%H:%M:%SZ")
    return f"from={start}&to={end}"


def hand_entries(floor: Api, table: int, hand: int) -> list[dict[str, Any]]:
    entries = floor.get(f"/tables/{table}/ledger")["entries"]
    return [e for e in entries if e["hand"] == hand]


# ------------------------------------------------------------------- the hand slip


def test_seed_000_hand_slip_says_what_the_api_says(evening: Evening, api: Api, floor: Api) -> None:
    hand_id = evening.hands7[0]
    hand = api.get(f"/hands/{hand_id}")
    answer = fetch(api, f"/reports/hands/{hand_id}.pdf")
    assert answer.mimetype == "application/pdf"
    assert answer.headers["Content-Disposition"] == f'inline; filename="hand-slip-{hand_id}.pdf"'
    text = pdf_text(answer.data)
    # Seed 000's example, classic rules: +46, four seats -11, the dropped seat -2.
    assert hand["net"] == {"1": 46, "2": -11, "3": -11, "4": -11, "5": -11, "6": -2, "pot": 0} | {
        "house": 0
    }
    for seat, info in hand["seats"].items():
        net = chips_text(hand["net"][seat], 50, signed=True)
        row = rf"{seat}\n{re.escape(info['player'])}\n{info['status']}\n[^\n]+\n[^\n]+\n"
        assert re.search(row + re.escape(net), text), (seat, net)
    assert "+46 chips (+$23.00)" in text
    assert text.count("-11 chips (-$5.50)") == 4
    assert "-2 chips (-$1.00)" in text
    assert "+26 chips (+$13.00)" in text  # the settlement: 4 x (1 + 5) and the pot of 2
    entries = hand_entries(floor, evening.table7, hand_id)
    assert f"seq {entries[0]['seq']} to {entries[-1]['seq']}" in text
    assert entries[-1]["hash"] in "".join(text.split())
    for event in hand["events"]:
        assert event["text"] in text
    flat = one_line(text)
    for said in ("drop forfeit", "going out", "conditions paid again", "the pot"):
        assert said in flat
    for code in ("drop_forfeit", "going_out", "conditions_again"):
        assert code not in text
    assert "Dealer signature - Dee" in text and "Floor signature" in text
    assert "REPRINT" not in text


def test_every_hand_slip_matches_the_apis_nets(evening: Evening, api: Api) -> None:
    for hand_id in evening.hands:
        hand = api.get(f"/hands/{hand_id}")
        value = 50 if hand["table"] == evening.table7 else 100
        text = pdf_text(fetch(api, f"/reports/hands/{hand_id}.pdf").data)
        for seat, info in hand["seats"].items():
            net = chips_text(hand["net"][seat], value, signed=True)
            row = rf"\n{seat}\n{re.escape(info['player'])}\n{info['status']}\n[^\n]+\n[^\n]+\n"
            assert re.search(row + re.escape(net), text), (hand_id, seat, net)
        house = chips_text(hand["net"]["house"], value, signed=True)
        assert f"house (drop) {house}" in one_line(text), hand_id
        assert f"Total\n{chips_text(0, value, signed=True)}" in text


def test_voids_show_on_the_slip_with_who_approved_them(evening: Evening, api: Api) -> None:
    text = pdf_text(fetch(api, f"/reports/hands/{evening.hands7[1]}.pdf").data)
    assert "VOIDED" in text
    assert "Seat 3 melds 7♥ 7♥ 7♥" in text and "Void of #3 (Seat 3 melds 7♥ 7♥ 7♥)" in text
    misdeal = one_line(pdf_text(fetch(api, f"/reports/hands/{evening.hands7[2]}.pdf").data))
    assert "The hand is void" in misdeal
    assert "approved by Sam" in misdeal
    assert "status void" in misdeal


def test_a_second_print_is_stamped_reprint(evening: Evening, api: Api, floor: Api) -> None:
    path = f"/reports/hands/{evening.hands7[0]}.pdf"
    first = fetch(api, path)
    second = fetch(floor, path)
    third = fetch(api, path)
    assert "REPRINT" not in pdf_text(first.data)
    assert "REPRINT 1" in pdf_text(second.data)
    assert "REPRINT 2" in pdf_text(third.data)
    assert 'filename="hand-slip-1-reprint-2.pdf"' in third.headers["Content-Disposition"]
    # Another hand, and another kind of document, count their own prints.
    assert "REPRINT" not in pdf_text(fetch(api, f"/reports/hands/{evening.hands7[1]}.pdf").data)
    session = f"/reports/sessions/{evening.session7}.pdf"
    assert "REPRINT" not in pdf_text(fetch(api, session).data)
    assert "REPRINT 1" in pdf_text(fetch(floor, session).data)


def test_a_head_request_is_not_a_print(evening: Evening, api: Api) -> None:
    path = f"/reports/hands/{evening.hands7[0]}.pdf"
    head = api.client.head(path, headers=api.headers(None))
    assert head.status_code == 200 and head.mimetype == "application/pdf"
    assert "REPRINT" not in pdf_text(fetch(api, path).data)
    head = api.client.head(path, headers=api.headers(None))
    assert "reprint-1" in head.headers["Content-Disposition"]
    assert "REPRINT 1" in pdf_text(fetch(api, path).data)


def test_prints_are_kept_append_only(evening: Evening, api: Api, people: Flask) -> None:
    fetch(api, f"/reports/hands/{evening.hands7[0]}.pdf")
    from sqlalchemy import text
    from sqlalchemy.exc import DatabaseError

    with people.app_context():
        rows = db.session.execute(text("SELECT kind, subject, reprint FROM report_prints")).all()
        assert [tuple(r) for r in rows] == [("hand_slip", str(evening.hands7[0]), 0)]
        with pytest.raises(DatabaseError), db.engine.begin() as connection:
            connection.execute(text("DELETE FROM report_prints"))


# --------------------------------------------------------------- the table session


def down_text(who: Api, session: int) -> str:
    return pdf_text(fetch(who, f"/reports/sessions/{session}.pdf").data)


def test_down_report_matches_the_apis_hands(evening: Evening, api: Api, floor: Api) -> None:
    text = down_text(api, evening.session7)
    nets: Counter[str] = Counter()
    for hand_id in evening.hands7:
        hand = api.get(f"/hands/{hand_id}")
        for seat in hand["seats"]:
            nets[seat] += hand["net"][seat]
        money = chips_text(hand["net"]["house"], 50)
        line = rf"\n{hand['number']}\n{hand_id}\n[^\n]*\n?{hand['status']}\n"
        assert re.search(line, text), hand_id
        assert money in text
    # Conditions collected, net of the voids: the void reversed seat 3's 7H 7H 7H; the void
    # hand reversed everything of hand 3.
    ledger = floor.get(f"/tables/{evening.table7}/ledger")["entries"]
    collected: Counter[str] = Counter()
    by_seq = {e["seq"]: e for e in ledger}
    for e in ledger:
        if e["rule"] == "condition":
            collected[e["to"]] += e["chips"]
        elif e["reverses"] is not None and by_seq[e["reverses"]]["rule"] == "condition":
            collected[by_seq[e["reverses"]]["to"]] -= e["chips"]
    for seat, player in enumerate(PLAYERS, start=1):
        buy_ins = chips_text(100, 50)
        cash_outs = chips_text({1: 20, 6: 87}.get(seat, 0), 50)  # Fay left with 100 - 2 - 11
        net = chips_text(nets[str(seat)], 50, signed=True)
        cond = chips_text(collected[str(seat)], 50)
        row = "\n".join([str(seat), player, buy_ins, cash_outs, net, cond])
        assert row in text, (seat, row)
    assert (
        "Total\n"
        + "\n".join([chips_text(600, 50), chips_text(107, 50), chips_text(0, 50, signed=True)])
        in text
    )
    flat = one_line(text)
    assert "dealer Dee" in flat
    assert "hands dealt 3 (1 void)" in flat
    assert "house drop 0 chips ($0.00)" in flat
    assert "voids and corrections 2" in flat
    assert "Keyed for the wrong seat: it was seat 4's <meld> & not 3's" in flat
    assert "Misdeal: two cards exposed" in flat
    assert "Sam" in flat  # approved the void hand
    assert "still open" in flat and "not confirmed" in flat


def test_down_report_of_a_table_with_a_drop(evening: Evening, api: Api, floor: Api) -> None:
    floor.post(f"/sessions/{evening.session9}/close", status=200)
    flat = one_line(down_text(floor, evening.session9))
    drop = sum(api.get(f"/hands/{h}")["net"]["house"] for h in evening.hands9)
    assert drop == 12
    assert f"house drop {chips_text(12, 100)}" in flat
    assert "(by dealing a hand: no session was open)" in flat
    assert "close confirmed by Sam" in flat
    assert "hands dealt 2" in flat
    # The seats bought in before the session opened: their buy-ins belong to no session.
    assert "1 Ana 9 0 chips ($0.00) 0 chips ($0.00) -15 chips (-$15.00)" in flat  # -12, -3


# ------------------------------------------------------------------ the shift ledger


def shift_text(who: Api, query: str) -> str:
    answer = fetch(who, f"/reports/shift.pdf?{query}")
    assert answer.mimetype == "application/pdf"
    assert answer.headers["Content-Disposition"].startswith('inline; filename="shift-')
    return pdf_text(answer.data)


def test_shift_ledger_matches_the_api(evening: Evening, api: Api, floor: Api) -> None:
    text = shift_text(floor, window())
    flat = one_line(text)
    drops = {"Table 7": 0, "Table 9": 0}
    hands = {"Table 7": evening.hands7, "Table 9": evening.hands9}
    for name, ids in hands.items():
        for hand_id in ids:
            drops[name] += api.get(f"/hands/{hand_id}")["net"]["house"]
        # Table 7: a void hand, and a voided event in a hand that stands: counted apart.
        voids = "1\n1" if name == "Table 7" else "0\n0"
        drop = chips_text(drops[name], VALUE[name])
        assert re.search(rf"{name}\n\$[0-9.]+\n{len(ids)}\n{voids}\n{re.escape(drop)}", text)
    assert drops == {"Table 7": 0, "Table 9": 12}
    assert "house drop 12 chips ($12.00)" in flat
    assert "hands dealt 5 (1 void)" in flat
    assert "voided events 1" in flat
    assert "balances (0 chips)" in flat
    verify = floor.get("/ledger/verify")
    assert verify["ok"] is True
    assert f"OK over {verify['entries']} entries" in flat
    assert verify["head"] in "".join(text.split())
    assert "CHECK" not in text
    # Players: all tables together, as the API's balances give them.
    stacks = floor.get(f"/tables/{evening.table9}/balances")["seats"]
    for info in stacks.values():
        net = chips_text(info["stack"] - 100, 100, signed=True)
        assert re.search(
            rf"{re.escape(info['player'])}\nTable 9\n2\n[^\n]+\n[^\n]+\n{re.escape(net)}", text
        )
    ana = floor.get(f"/tables/{evening.table7}/balances")["seats"]["1"]
    assert ana["stack"] == 100 + 46 - 11 - 20
    assert re.search(
        r"Ana\nTable 7\n3\n100 chips \(\$50.00\)\n20 chips \(\$10.00\)\n\+35 chips", text
    )
    assert "Drop by hour" in text and "Drop by table" in text
    for name in ("Table 7", "Table 9"):
        for number in range(1, len(hands[name]) + 1):
            assert re.search(rf"\n{name}\n{number}\n", text)


def test_a_window_with_nothing_in_it(evening: Evening, floor: Api) -> None:
    flat = one_line(shift_text(floor, "from=2001-01-01T00:00:00Z&to=2001-01-01T08:00:00Z"))
    assert "No hands in the window." in flat
    assert "No players in the window." in flat
    assert "balances (0 chips)" in flat


def test_a_failed_check_prints_a_red_banner(
    evening: Evening, floor: Api, people: Flask, database: Database
) -> None:
    entries = floor.get(f"/tables/{evening.table7}/ledger")["entries"]
    tampered = next(e for e in entries if e["rule"] == "condition")
    without_triggers(
        people, database, f"UPDATE ledger_entries SET chips = 40 WHERE seq = {tampered['seq']}"
    )
    problems = floor.get("/ledger/verify")["problems"]
    assert problems
    text = shift_text(floor, window())
    first = one_line(text.split("Page 2 of")[0])
    assert f"{len(problems)} CHECK(S) FAILED" in first
    for problem in problems:  # each named by its check, in words: The keyed chain, Balances ...
        named = check_words(problem["check"])
        assert one_line(f"{named}: {problem['message']}") in first
        assert named != say("Another check")
    assert {p["check"] for p in problems} >= {"chain", "balances"}
    assert "CHECKS FAILED" in text  # the badge in every page's header
    assert "FAILED over" in one_line(text)


# --------------------------------------------------------------------- the exports


def csv_rows(who: Api, path: str) -> list[list[str]]:
    answer = fetch(who, path)
    assert answer.mimetype == "text/csv"
    assert answer.headers["Content-Disposition"].startswith("attachment; filename=")
    return list(csv.reader(io.StringIO(answer.get_data(as_text=True))))


def test_ledger_csv_has_every_entry_once(evening: Evening, floor: Api) -> None:
    rows = csv_rows(floor, "/exports/ledger.csv")
    header, lines = rows[0], rows[1:]
    assert header[:6] == ["seq", "at", "table", "table_name", "from", "to"]
    entries = [
        *floor.get(f"/tables/{evening.table7}/ledger")["entries"],
        *floor.get(f"/tables/{evening.table9}/ledger")["entries"],
    ]
    assert [int(line[0]) for line in lines] == sorted(e["seq"] for e in entries)
    by_seq = {e["seq"]: e for e in entries}
    for line in lines:
        entry = by_seq[int(line[0])]
        record = dict(zip(header, line, strict=True))
        assert record["from"] == entry["from"] and record["to"] == entry["to"]
        assert int(record["chips"]) == entry["chips"]
        assert record["reason_code"] == entry["rule"]
        assert record["hash"] == entry["hash"]
        assert record["hand"] == str(entry["hand"] or 0)
        assert record["from_account"] == entry["from_account"]
    # A window before the evening holds none; one around it holds them all.
    assert csv_rows(floor, "/exports/ledger.csv?to=2001-01-01T00:00:00Z") == [header]
    assert len(csv_rows(floor, f"/exports/ledger.csv?{window()}")) == len(rows)


def test_players_csv_in_the_pokernow_layout(evening: Evening, floor: Api) -> None:
    rows = csv_rows(floor, f"/exports/players.csv?{window()}")
    assert rows[0] == [
        "player_nickname",
        "player_id",
        "session_start_at",
        "session_end_at",
        "buy_in",
        "buy_out",
        "stack",
        "net",
        "seating",
    ]
    by_name = {r[0]: dict(zip(rows[0], r, strict=True)) for r in rows[1:]}
    assert len(by_name) == 12  # six seatings at each table
    stacks = {
        info["player"]: info["stack"]
        for table in (evening.table7, evening.table9)
        for info in floor.get(f"/tables/{table}/balances")["seats"].values()
    }
    for name, row in by_name.items():
        assert int(row["net"]) == int(row["buy_out"]) + int(row["stack"]) - int(row["buy_in"])
        if name == "Fay":  # left table 7 with 87: cashed out, nothing on the table
            assert (row["buy_out"], row["stack"], row["net"]) == ("87", "0", "-13")
            assert row["session_end_at"].endswith("Z")
            continue
        assert int(row["stack"]) == stacks[name], name
        assert row["session_end_at"] == ""
    assert by_name["Ana"]["buy_out"] == "20" and by_name["Ana"]["net"] == "35"
    assert by_name["Dev 9"]["net"] == "33"  # -12 then +45


# ---------------------------------------------------------- sign-in, roles, bad input


def test_roles(evening: Evening, api: Api, floor: Api, people: Flask) -> None:
    fetch(api, f"/reports/hands/{evening.hands9[0]}.pdf")
    fetch(api, f"/reports/sessions/{evening.session7}.pdf")
    fetch(api, f"/reports/sessions/{evening.session9}.pdf")  # opened by Dee's dealing
    for path in (f"/reports/shift.pdf?{window()}", "/exports/ledger.csv", "/exports/players.csv"):
        answer = fetch(api, path, status=403)
        assert answer.get_json()["error"]["code"] == "role_not_allowed"
    with people.app_context(), writing(db.session()) as session:
        add_user(session, "Dot", "dealer", "4444")
    other = Api(people.test_client())
    other.token = other.client.post(
        "/api/v1/session", json={"name": "Dot", "pin": "4444"}
    ).get_json()["token"]
    # Dot holds no table: nothing of table 7 is hers to print.
    answer = fetch(other, f"/reports/hands/{evening.hands7[0]}.pdf", status=403)
    assert answer.get_json()["error"]["code"] == "not_your_table"
    # Sent to table 7 as a relief dealer: its hands are hers, Dee's session is still Dee's.
    floor.post(f"/tables/{evening.table7}/assignments", {"dealer": "Dot"}, status=201)
    answer = fetch(other, f"/reports/sessions/{evening.session7}.pdf", status=403)
    assert answer.get_json()["error"]["code"] == "not_your_session"
    fetch(other, f"/reports/hands/{evening.hands7[0]}.pdf")
    fetch(floor, f"/reports/sessions/{evening.session7}.pdf")


def test_signed_out_is_401_and_the_cookie_works(evening: Evening, people: Flask) -> None:
    paths = [
        f"/reports/hands/{evening.hands7[0]}.pdf",
        f"/reports/sessions/{evening.session7}.pdf",
        f"/reports/shift.pdf?{window()}",
        "/exports/ledger.csv",
        "/exports/players.csv",
    ]
    browser = people.test_client()
    for path in paths:
        answer = browser.get(path)
        assert answer.status_code == 401
        assert answer.get_json()["error"]["code"] == "not_signed_in"
    assert browser.post("/api/v1/session", json={"name": "Sam", "pin": "2222"}).status_code == 200
    for path in paths:
        assert browser.get(path).status_code == 200, path


@pytest.mark.parametrize(
    ("query", "code"),
    [
        ("", "no_window"),
        ("from=2024-05-03T18:00:00Z", "no_window"),
        ("from=yesterday&to=2024-05-03T18:00:00Z", "invalid_time"),
        ("from=2024-05-03T18:00:00Z&to=2024-13-03T18:00:00Z", "invalid_time"),
        ("from=2024-05-03T18:00:00Z&to=2024-05-03T18:00:00Z", "empty_window"),
        ("from=2024-05-04T18:00:00Z&to=2024-05-03T18:00:00Z", "empty_window"),
        ("from=2024-01-01T00:00:00Z&to=2024-03-01T00:00:00Z", "window_too_long"),
        ("from=0001-01-01T00:00:00%2B05:00&to=2024-03-01T00:00:00Z", "invalid_time"),
    ],
)
def test_bad_windows_are_422(floor: Api, query: str, code: str) -> None:
    answer = fetch(floor, f"/reports/shift.pdf?{query}", status=422)
    assert answer.get_json()["error"]["code"] == code


def test_bad_export_windows_and_unknown_ids(floor: Api) -> None:
    answer = fetch(floor, "/exports/ledger.csv?from=soon", status=422)
    assert answer.get_json()["error"]["code"] == "invalid_time"
    answer = fetch(floor, "/exports/players.csv?from=2024-05-04&to=2024-05-03", status=422)
    assert answer.get_json()["error"]["code"] == "empty_window"
    assert fetch(floor, "/reports/hands/999.pdf", status=404).get_json()["error"]["code"] == (
        "unknown_hand"
    )
    assert fetch(floor, "/reports/sessions/999.pdf", status=404).get_json()["error"]["code"] == (
        "unknown_session"
    )
    assert fetch(floor, "/reports/hands/99999999999.pdf", status=404).get_json()["error"]
    assert fetch(floor, "/reports/nothing.pdf", status=404).get_json()["error"]["code"] == (
        "not_found"
    )


def test_a_time_without_a_zone_is_the_floors(evening: Evening, floor: Api, app: Flask) -> None:
    """The floor's clock (DEALER_TIMEZONE)
    reads from/to given without a zone, and sets the clock printed."""
    app.config["TIMEZONE"] = "America/Los_Angeles"
    here = datetime.now(UTC).astimezone(__import__("zoneinfo").ZoneInfo("America/Los_Angeles"))
    start = (here - timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M:%S")
    end = (here + timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M:%S")
    flat = one_line(shift_text(floor, f"from={start}&to={end}"))
    assert "hands dealt 5 (1 void)" in flat
    assert "voided events 1" in flat
    assert "PST" in flat or "PDT" in flat


def test_a_down_with_its_hand_in_play_counts_the_pot(api: Api, floor: Api) -> None:
    table = floor.table("cardroom", name="Table 3", chip_value_cents=25)["id"]
    session = api.post(f"/tables/{table}/sessions", status=201)["id"]
    for seat in (1, 2, 3):
        api.seat(table, seat, f"P{seat}", 50)
    hand = api.hand(table)  # the card room's ante: 1 from each seat into the pot
    api.event(hand["id"], {"type": "meld", "seat": 1, "cards": ["KS", "KS", "KS"]})
    flat = one_line(pdf_text(fetch(api, f"/reports/sessions/{session}.pdf").data))
    assert "pot (hand in play) +3 chips (+$0.75)" in flat
    assert "do not balance" not in flat and "DO NOT BALANCE" not in flat
    assert "150 chips ($37.50)" in flat  # the buy-ins, made while the session was open
