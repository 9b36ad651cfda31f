"""The floor: every table at a glance, and opening a table with its rules and collection."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from flask import Flask
from sqlalchemy import select

from dealer.clock import Clock, shift_start
from dealer.extensions import db
from dealer.models import Table
from tests.helpers import Api
from tests.screens.conftest import Web, six_seated, words

OPEN = {"name": "Table 9", "profile": "classic", "collection": "none", "chip_value_cents": "25"}


def tables(app: Flask) -> list[Table]:
    with app.app_context():
        return list(db.session.scalars(select(Table).order_by(Table.id)))


def test_floor_shows_each_tables_game_profile_seats_hand_and_drop(
    supervisor: Web, floor_api: Api
) -> None:
    """Does each line say the game, profile, seats filled, the hand in play and the shift's drop?"""
    per_hand = six_seated(
        floor_api, "cardroom", name="Card room 1", collection={"kind": "per_hand", "chips": 2}
    )
    floor_api.table(name="Fifteen 1", rules={"hand_size": 15})
    hand = floor_api.hand(per_hand)
    text = words(supervisor.get("/floor"))
    assert "Card room 1 Pan, 10 cards, 8 packs (310 cards) Card room" in text
    assert "per hand: 2 chips from each seat dealt in 6 / 8" in text
    assert f"hand {hand['number']} in play" in text
    assert "12 chips $12.00" in text  # six seats x 2 chips, at the default 100 cents a chip
    assert "Fifteen 1 Fifteen, 15 cards, 8 packs (320 cards) Classic (1 changed)" in text
    assert "0 / 8 none" in text


def test_open_a_table_with_knobs_collection_and_chip_value(people: Flask, supervisor: Web) -> None:
    """Are the profile, the knobs changed, the collection and the chip value stored as set?"""
    form = {
        **OPEN,
        "profile": "cardroom",
        "packs": "6",
        "going_out_chips": "1",
        "spades_double": "false",
        "collection": "time",
        "chips": "3",
        "minutes": "30",
    }
    answer = supervisor.post("/floor/tables", form)
    (table,) = tables(people)
    assert answer.headers["Location"] == f"/tables/{table.id}?opened=1"
    assert table.profile == "cardroom"
    assert table.rules == {"packs": 6, "going_out_chips": 1, "spades_double": False}
    assert table.collection == {"kind": "time", "chips": 3, "minutes": 30}
    assert table.chip_value_cents == 25
    page = words(supervisor.follow(answer))
    assert "time: 3 chips from each seated player every 30 minutes" in page
    assert "1 chip = $0.25" in page


def test_choosing_rake_warns_about_california(people: Flask, supervisor: Web) -> None:
    """Is the California warning beside the choice, after opening, and on the floor and table?"""
    floor = supervisor.get("/floor")
    assert "not allowed in California card rooms" in floor  # beside the rake choice
    form = {**OPEN, "collection": "rake_percent", "percent": "10", "cap": "5"}
    answer = supervisor.post("/floor/tables", form)
    table_page = words(supervisor.follow(answer))
    assert table_page.count("not allowed in California card rooms") == 2  # notice and banner
    assert "rake: not in California" in words(supervisor.get("/floor"))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"name": ""}, "Enter the table's name."),
        ({"chip_value_cents": "-1"}, "The chip value in cents must be from 0 to 10000000."),
        ({"packs": "0"}, "The rule packs must be from 1 to 20, not 0."),
        ({"packs": "x"}, "The rule packs must be a whole number."),
        (
            {"packs": "3", "spade_sets_removed": "3"},
            "spade_sets_removed must leave at least one pack of spades",
        ),
        ({"collection": "time", "chips": "1"}, "The time collection needs minutes."),
        ({"collection": "per_hand"}, "The per_hand collection needs chips."),
        ({"profile": "casino"}, "'casino' is not a rule profile: choose cardroom or classic."),
    ],
)
def test_bad_table_forms_say_why_and_keep_what_was_entered(
    people: Flask, supervisor: Web, change: dict[str, str], message: str
) -> None:
    """Is a bad field a 422 naming the problem, with the rest kept, and no table opened?"""
    answer = supervisor.post("/floor/tables", {**OPEN, **change}, status=422)
    page = answer.get_data(as_text=True)
    assert message in words(page)
    if change.get("name") != "":
        assert 'value="Table 9"' in page
    assert tables(people) == []


def test_opening_twice_with_one_key_opens_one_table(people: Flask, supervisor: Web) -> None:
    """A double tap on "Open the table": one table, and the same answer twice?"""
    first = supervisor.post("/floor/tables", {**OPEN, "key": "web-open-1"})
    second = supervisor.post("/floor/tables", {**OPEN, "key": "web-open-1"})
    assert second.headers["Location"] == first.headers["Location"]
    assert second.headers["Idempotent-Replayed"] == "true"
    assert len(tables(people)) == 1


def test_a_dealer_picks_a_table(dealer: Web, floor_api: Api) -> None:
    """Does the dealer's start list every table with its seats and hand?"""
    table = six_seated(floor_api, name="Main")
    floor_api.hand(table)
    text = words(dealer.get("/tables"))
    assert "Main Pan, 10 cards, 8 packs (320 cards) · Classic · 6/8 seated" in text
    assert "hand 1 in play" in text


@pytest.mark.parametrize(
    ("now", "start"),
    [
        ("2024-05-03T15:00:00", "2024-05-03T14:00:00"),
        ("2024-05-03T14:00:00", "2024-05-03T14:00:00"),
        ("2024-05-03T05:59:00", "2024-05-02T22:00:00"),
        ("2024-05-03T23:30:00", "2024-05-03T22:00:00"),
    ],
)
def test_the_shift_starts_at_the_last_start_passed(now: str, start: str) -> None:
    """Is the shift's start the latest of the floor's start times not after now (local clock)?"""
    zone = ZoneInfo("America/Los_Angeles")
    local_now = datetime.fromisoformat(now).replace(tzinfo=zone)
    found = shift_start(local_now.astimezone(UTC), Clock(zone), "06:00, 14:00,22:00")
    assert found == datetime.fromisoformat(start).replace(tzinfo=zone)
    assert found.tzinfo is not None


def test_the_floor_sets_whether_a_split_or_borrow_needs_a_card_from_hand(
    people: Flask, supervisor: Web
) -> None:
    """Issue 9's knob is on the open-table screen, like every other knob, and is stored."""
    assert "A split or borrow must play a card from hand" in words(supervisor.get("/floor"))
    supervisor.post(
        "/floor/tables", {**OPEN, "profile": "cardroom", "rearrange_needs_card": "false"}
    )
    (table,) = tables(people)
    assert table.rules == {"rearrange_needs_card": False}
