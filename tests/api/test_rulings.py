"""The rulings of issue 9 through the API: unclaimed melds, a card from hand, the last foul."""

from __future__ import annotations

from tests.api.test_hands import six_seated
from tests.helpers import Api


def test_an_unclaimed_condition_pays_nothing_then_or_at_going_out(api: Api, floor: Api) -> None:
    table = six_seated(api, floor, "classic")
    hand = api.hand(table)["id"]
    answer = api.event(hand, {"type": "meld", "seat": 1, "cards": ["5S"] * 3, "claimed": False})
    assert answer["payments"] == []
    assert answer["event"]["claimed"] is False
    assert "not claimed: nothing paid" in answer["event"]["text"]
    api.event(hand, {"type": "meld", "seat": 1, "cards": ["JH", "QH", "KH"]})
    api.event(hand, {"type": "meld", "seat": 1, "cards": ["2C", "3C", "4C", "5C", "6C"]})
    out = api.event(hand, {"type": "go_out", "seat": 1})
    # Each of five seats pays going out (1) and, again, only the claimed JH QH KH (1): the
    # unclaimed 5S 5S 5S (worth 4 from each) is never paid, then or at going out.
    again = [p["chips"] for p in out["payments"] if p["rule"] == "conditions_again"]
    assert again == [1] * 5
    assert out["hand"]["net"]["1"] == 5 + 5 + 5


def test_claimed_that_is_not_true_or_false_is_a_422_naming_the_field(api: Api, floor: Api) -> None:
    table = six_seated(api, floor, "classic")
    hand = api.hand(table)["id"]
    for bad in ("no", 0, None, [False]):
        body = {"type": "meld", "seat": 1, "cards": ["5S"] * 3, "claimed": bad}
        error = api.event(hand, body, status=422)["error"]
        assert "(claimed)" in error["message"], bad


def test_the_card_room_refuses_a_split_that_plays_no_card_from_hand(api: Api, floor: Api) -> None:
    table = six_seated(api, floor, "cardroom")
    hand = api.hand(table)["id"]
    laid = api.event(hand, {"type": "meld", "seat": 1, "cards": ["5S"] * 6})
    meld = laid["hand"]["seats"]["1"]["melds"][0]["id"]
    split = {"type": "split", "seat": 1, "meld": meld, "cards": [], "into": [["5S"] * 3] * 2}
    error = api.event(hand, split, status=422)["error"]
    assert error["code"] == "needs_card_from_hand"


def test_the_last_foul_is_refused_and_names_the_supervisor(api: Api, floor: Api) -> None:
    created = floor.table("classic")
    for seat in (1, 2):
        api.seat(created["id"], seat, f"P{seat}")
    hand = api.hand(created["id"])["id"]
    api.event(hand, {"type": "foul", "seat": 1})
    error = api.event(hand, {"type": "foul", "seat": 2}, status=409)["error"]
    assert error["code"] == "no_seat_can_go_out"
    assert "supervisor" in error["message"]
