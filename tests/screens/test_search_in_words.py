"""The search in a player's words: "player Rosa, table 4, around 21:40, 8 chips" finds the hand
where Rosa's seat paid 8 in all, and only that one; names match in any case and without their
accents; "this shift" when no window is given; a part it cannot read is refused in words."""

from __future__ import annotations

import importlib
import re
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlencode

import pytest
from flask import Flask
from sqlalchemy import func, insert, select, update

from dealer import clock
from dealer.extensions import db
from dealer.models import Hand
from tests.api.test_golden_hands import recorded_events
from tests.helpers import Api
from tests.rules.test_golden_hands import HANDS_DIR, load
from tests.screens.conftest import Web, words

#: Seat 2 pays 8 chips in all, in three payments (1 + 1 + 6 or the like).
EIGHT = load(HANDS_DIR / "33_unclaimed.json")
#: The floor's clock during the test: 23:30 of a day that has not yet reached it (the seats are
#: taken at the real time, before the shift's search ends).
NOW = (datetime.now(UTC) + timedelta(hours=1)).replace(hour=23, minute=30, second=0, microsecond=0)


def play(floor: Api, table: int, data: dict[str, Any]) -> int:
    hand = floor.hand(table)
    list(recorded_events(floor, hand, data["events"]))  # each asserted recorded
    return int(hand["id"])


def dealt_at(app: Flask, hand: int, hour: int, minute: int) -> None:
    """Move a hand's times to today's ``hour:minute`` (the floor's clock is UTC here)."""
    start = NOW.replace(hour=hour, minute=minute)
    with app.app_context():
        db.session.execute(
            update(Hand)
            .where(Hand.id == hand)
            .values(started_at=start, ended_at=start + timedelta(minutes=3))
        )
        db.session.commit()


@pytest.fixture
def shift(people: Flask, monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Rósa plays seat 2 at Table 4 and at Table 3; seat 2 pays 8 in three hands."""
    people.config["SHIFT_STARTS"] = "18:00"
    monkeypatch.setattr(clock, "now", lambda: NOW)
    posted = [NOW.replace(hour=19)]
    # The ledger's entries are made at the hands' times (the hands' own times are moved after).
    for made_at in ("dealer.ledger.post", "dealer.hands.rows"):  # a hand's entries: rows
        monkeypatch.setattr(importlib.import_module(made_at), "utcnow", lambda: posted[0])
    floor = Api.sign_in(people, "supervisor")
    hands = {}
    for name, times in (("Table 3", [(21, 41)]), ("Table 4", [(20, 30), (21, 37)])):
        table = floor.table("classic", name=name, collection={"kind": "none"})["id"]
        for seat, player in ((1, "Bo"), (2, "Rósa Martínez"), (3, "Cy")):
            floor.seat(table, seat, player, 200)
        for hour, minute in times:
            posted[0] = NOW.replace(hour=hour, minute=minute, second=30)
            hand = play(floor, table, EIGHT)
            dealt_at(people, hand, hour, minute)
            hands["early" if hour == 20 else name] = hand
    return hands


def found(page: str) -> list[tuple[int, int]]:
    return [
        (int(h), int(s))
        for h, s in re.findall(r'data-found-hand="(\d+)" data-found-seat="(\d+)"', page)
    ]


@pytest.mark.parametrize("name", ["Rosa", "rosa", "RÓSA", "rósa mart"])
def test_player_rosa_table_4_around_21_40_8_chips(
    shift: dict[str, int], supervisor: Web, name: str
) -> None:
    said = f"player {name}, table 4, around 21:40, 8 chips"
    page = supervisor.get("/search?q=" + said.replace(" ", "+"))
    assert found(page) == [(shift["Table 4"], 2)]
    text = words(page)
    assert "Table 4 · hand 2 · 21:37 · seat 2 (Rósa Martínez)" in text
    assert "Seat 2 (Rósa Martínez) paid 8 chips in all" in text
    # One tap from its statement.
    assert f'data-statement-link href="/hands/{shift["Table 4"]}/seats/2/statement"' in page


def test_the_parts_narrow_the_search_and_this_shift_is_the_default(
    shift: dict[str, int], people: Flask
) -> None:
    floor = Api.sign_in(people, "supervisor")

    def seats(q: str) -> list[tuple[int, int]]:
        return [
            (s["hand"], s["seat"]) for s in floor.get("/search?" + urlencode({"q": q}))["seats"]
        ]

    every = {shift["Table 4"], shift["Table 3"], shift["early"]}
    assert {h for h, _ in seats("seat 2, 8 chips")} == every
    assert seats("player rosa, 8 chips, table 4") == [(shift["Table 4"], 2), (shift["early"], 2)]
    assert {h for h, _ in seats("player rosa, around 21:40")} == {
        shift["Table 4"],
        shift["Table 3"],
    }
    assert seats("player rosa, 9:40 pm, table 3, 8") == [(shift["Table 3"], 2)]
    assert seats("player rosa, table 4, around 21:40, 9 chips") == []
    answer = floor.get("/search?" + urlencode({"player": "ROSA", "table": "Table 4", "amount": 8}))
    assert answer["seats"][0]["why"] == "Seat 2 (Rósa Martínez) paid 8 chips in all"
    assert answer["seats"][0]["matched"] == "paid"
    assert sum(p["chips"] for p in answer["seats"][0]["payments"]) == 8


@pytest.mark.parametrize(
    ("q", "sentence"),
    [
        ("rosa 8 chips bea", '"bea" is not something the search understands.'),
        ("rosa 8 chips bea", 'for example: "rosa, table 1, around 21:40, 8 chips"'),
        ("table", 'for example: "Rosa, table 1, around 21:40, 16 chips"'),
        ("player rosa, around 25:99", "A time is the floor clock's hour and minute"),
        ("player rosa, table 9", 'No table is called "9": the tables are Table 3, Table 4.'),
        ("seat 12", "The seat is a whole number from 1 to 8, not '12'."),
        ("player rosa, player bo", "Say the player once."),
        ("", "Say what to look for."),
    ],
)
def test_a_bad_part_is_answered_in_words(
    shift: dict[str, int], people: Flask, supervisor: Web, q: str, sentence: str
) -> None:
    floor = Api.sign_in(people, "supervisor")
    answer = floor.call("GET", "/search?" + urlencode({"q": q}))
    assert answer.status_code == 422
    assert sentence in answer.get_json()["error"]["message"]
    if q:
        page = supervisor.get("/search?" + urlencode({"q": q}), status=422)
        assert sentence in words(page)
        assert f'value="{q}"' in page.replace("&#39;", "'").replace("&#34;", '"')


def newer_hands(app: Flask, table: int, count: int, seating: int) -> None:
    """``count`` hands at ``table``, dealt after the shift's others (from 22:00), the seat 2 of
    ``seating`` dealt in; no chips moved in them."""
    with app.app_context():
        first = db.session.scalar(select(Hand).where(Hand.table_id == table).limit(1))
        assert first is not None
        last = db.session.scalar(select(func.max(Hand.number)).where(Hand.table_id == table))
        start = NOW.replace(hour=22, minute=0)
        db.session.execute(
            insert(Hand),
            [
                dict(
                    table_id=table,
                    down_id=first.down_id,
                    number=(last or 0) + i + 1,
                    status="settled",
                    rules=first.rules,
                    collection=first.collection,
                    seats={"2": seating},
                    started_at=start + timedelta(seconds=i),
                    ended_at=start + timedelta(seconds=i + 1),
                    engine_version=first.engine_version,
                )
                for i in range(count)
            ],
        )
        db.session.commit()


def test_a_hand_older_than_the_900_newest_is_found_without_a_table_or_a_time(
    shift: dict[str, int], people: Flask
) -> None:
    """A seat or a player with an amount reads the whole shift, however many hands are newer
    than the one asked about (here 900 more, dealt after it)."""
    with people.app_context():
        table, seats = db.session.execute(
            select(Hand.table_id, Hand.seats).where(Hand.id == shift["Table 4"])
        ).one()
    newer_hands(people, table, 900, seats["2"])
    floor = Api.sign_in(people, "supervisor")
    every = {shift["Table 4"], shift["Table 3"], shift["early"]}
    for q in ("seat 2, 8 chips", "player rosa, 8 chips", "player RÓSA, table 4, 8"):
        answer = floor.get("/search?" + urlencode({"q": q}))
        assert {s["hand"] for s in answer["seats"]} == (
            every if "table" not in q else every - {shift["Table 3"]}
        ), q
        assert answer["stopped"] is None and not answer["more"]
        assert all(
            s["why"] == "Seat 2 (Rósa Martínez) paid 8 chips in all" for s in answer["seats"]
        )
    early = floor.get("/search?" + urlencode({"q": "seat 2, 8 chips"}))["seats"]
    assert [(s["table_name"], s["at"][11:16]) for s in early if s["hand"] == shift["early"]] == [
        ("Table 4", "20:30")
    ]


def test_an_amount_alone_reads_its_most_hands_and_says_how_far_back_it_looked(
    shift: dict[str, int], people: Flask, supervisor: Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An amount alone (every seat of every table) reads the newest hands only, and says so: a
    seat, a player, a table or a time looks further back (the figures: bench/disputes.py)."""
    searching = importlib.import_module("dealer.disputes.search")
    monkeypatch.setattr(searching, "BATCH", 1)
    monkeypatch.setattr(searching, "READ_AT_MOST", 1)
    floor = Api.sign_in(people, "supervisor")
    answer = floor.get("/search?" + urlencode({"q": "8 chips"}))
    assert {s["hand"] for s in answer["seats"]} == {shift["Table 4"]}
    assert answer["more"] and answer["stopped"].startswith(f"{NOW:%Y-%m-%d}T21:37")
    page = words(supervisor.get("/search?" + urlencode({"q": "8 chips"})))
    assert "Looked through the hands dealt since 21:37" in page
    for q in ("8 chips, table 3", "seat 2, 8 chips"):
        widened = floor.get("/search?" + urlencode({"q": q}))
        assert widened["stopped"] is None, q
        assert shift["Table 3"] in {s["hand"] for s in widened["seats"]}, q


def test_the_player_s_own_words_and_a_total_over_several_payers(people: Flask) -> None:
    """ "Rosa table 5 8 chips", with no keyword, finds the hand where Rosa's seat took 8 chips
    for one meld, 4 from each of two payers: no single payment and no total of the hand is 8."""
    floor = Api.sign_in(people, "supervisor")
    table = floor.table("classic", name="Table 5", collection={"kind": "none"})["id"]
    for seat, player in ((1, "Bo"), (2, "Rósa Martínez"), (3, "Cy")):
        floor.seat(table, seat, player, 200)
    hand = floor.hand(table)["id"]
    floor.event(hand, {"type": "meld", "seat": 2, "cards": ["5S", "5S", "5S"]})  # 4 from each
    floor.event(hand, {"type": "meld", "seat": 2, "cards": ["JH", "QH", "KH"]})  # 1 from each
    for said in ("Rosa table 5 8 chips", "Rosa, table 5, 8 chips", "rosa martinez 8"):
        answer = floor.get("/search?" + urlencode({"q": said}))
        assert [(s["hand"], s["seat"]) for s in answer["seats"]] == [(hand, 2)], said
        [seat] = answer["seats"]
        assert seat["matched"] == "event"
        why = "Seat 2 (Rósa Martínez) received 8 chips in one event, from 2 payments"
        assert seat["why"] == why
        assert [p["chips"] for p in seat["payments"]] == [4, 4]
    assert floor.get("/search?" + urlencode({"q": "Rosa, table 5, 9 chips"}))["seats"] == []


def test_a_name_said_whole_is_that_player_not_every_name_that_holds_it() -> None:
    from dealer.disputes.asking import named

    players = {"Bea T1", "Bea T10", "Rósa Martínez", "Rosalind"}
    assert named("bea t1", players) == {"Bea T1"}  # not Bea T10
    assert named("Rosa", players) == {"Rósa Martínez"}  # not Rosalind
    assert named("ros", players) == {"Rósa Martínez", "Rosalind"}  # a part: every one holding it
