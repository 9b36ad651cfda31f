"""No screen shows a code: a knob's name, a rule's code, an account, an internal id. Every
screen is drawn for a hand played under every knob set away from its profile, and its
visible words are read for anything written the way code is (``snake_case``, ``seating:3``).
"""

from __future__ import annotations

import re

import pytest
from flask import Flask

from dealer.rules.profiles import KNOBS
from dealer.words.rules import HAND_RULES
from tests.helpers import Api
from tests.screens.conftest import Web, six_seated, words
from tests.screens.test_roles import PAGES, QUERIES

#: Every knob away from the classic profile, and a collection that a hand takes from.
EVERY_KNOB = {
    "packs": 6,
    "spade_sets_removed": 1,
    "hand_size": 10,
    "tops_ante": 1,
    "drop_forfeit": 3,
    "going_out_chips": 2,
    "addition_pay": "unit",
    "spades_double": False,
    "mixed_valle_condition": False,
    "rearrange_needs_card": True,
}
CODE = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b|\b(?:seating|hand|table):\d+\b")


@pytest.fixture
def knobbed(people: Flask) -> dict[str, int]:
    """A table under every knob, its hand settled with conditions, a drop, a void and a
    dispute; the same ids as the role test's world."""
    floor = Api.sign_in(people, "supervisor")
    collection = {"kind": "rake_percent", "percent": 10, "cap": 3}
    table = six_seated(floor, rules=EVERY_KNOB, collection=collection)
    hand = floor.hand(table, dropped=[5])["id"]
    melds = (["5S", "5S", "5S"], ["JH", "QH", "KH"], ["2C", "3C", "4C", "5C", "6C"])
    for cards in melds:
        floor.event(hand, {"type": "meld", "seat": 1, "cards": cards})
    wrong = floor.event(hand, {"type": "meld", "seat": 2, "cards": ["7D", "7D", "7D"]})
    floor.event(hand, {"type": "void", "event": wrong["event"]["id"], "reason": "wrong seat"})
    out = floor.event(hand, {"type": "go_out", "seat": 1})["event"]["id"]
    playing = six_seated(floor, rules=EVERY_KNOB, name="Table 2")
    in_play = floor.hand(playing)["id"]
    player = floor.post("/players", {"name": "Ann"}, status=201)["id"]
    opened = {"raised_by": "dealer", "claim": "Count again."}
    dispute = floor.post(f"/hands/{hand}/disputes", opened, status=201)["id"]
    return {
        "table_id": table,
        "hand_id": hand,
        "playing_table": playing,
        "playing_hand": in_play,
        "event_id": out,
        "seat": 1,
        "number": 1,
        "player_id": player,
        "dispute_id": dispute,
        "device_id": 1,
        "token_id": 1,
        "session_id": 1,
    }


def test_the_codes_looked_for_are_codes() -> None:
    """The pattern finds every knob and rule code with an underscore, and no plain words."""
    for code in (*KNOBS, *HAND_RULES, "buy_in", "cash_out", "per_hand", "rake_percent"):
        if "_" in code:
            assert CODE.search(f"a {code} here"), code
    assert not CODE.search("Seat 1 melds 5♠ 5♠ 5♠: 4 chips each, the pot")
    assert CODE.search("account seating:12")


def test_no_screen_shows_a_code(people: Flask, knobbed: dict[str, int]) -> None:
    admin = Web.sign_in(people, "admin")
    for template in PAGES:
        path = template.format(**knobbed) + QUERIES.get(template, "")
        answer = admin.client.get(path)
        # The hand in play's seat 1 cannot go out: its settlement is refused, in words.
        assert answer.status_code in (200, 422), (path, answer.status_code)
        found = CODE.findall(words(answer.get_data(as_text=True)))
        assert not found, (path, found)
