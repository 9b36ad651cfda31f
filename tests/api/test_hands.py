"""Whole hands through the API, every payment and balance asserted."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers import Api

WINNER_MELDS = [["5S", "5S", "5S"], ["JH", "QH", "KH"], ["2C", "3C", "4C", "5C", "6C"]]


def six_seated(api: Api, floor: Api, profile: str, **fields: Any) -> int:
    table = floor.table(profile, **fields)
    for seat in range(1, 7):
        api.seat(table["id"], seat, f"Player {seat}", 100)
    return int(table["id"])


def moves(answer: dict[str, Any]) -> list[tuple[str, str, int, str]]:
    return [(p["from"], p["to"], p["chips"], p["rule"]) for p in answer["payments"]]


@pytest.mark.parametrize(
    ("profile", "winner", "loser", "dropped"),
    [("classic", 46, -11, -2), ("cardroom", 53, -13, -1)],
)
def test_seed_000_example(
    api: Api, floor: Api, profile: str, winner: int, loser: int, dropped: int
) -> None:
    """Six play, seat 6 drops, seat 1 shows 5S 5S 5S and JH QH KH and goes out.

    Classic (PAN_RULES.md 5.4): +46, four seats -11, the dropped seat -2. Card
    room: a 1-chip ante each, no forfeit, going out pays 2: +53, -13 x4, -1.
    """
    table = six_seated(api, floor, profile)
    hand = api.hand(table, dropped=[6])
    assert [e["type"] for e in hand["events"]] == ["deal", "drop"]
    assert hand["seats"]["6"]["status"] == "dropped"
    deal, drop = hand["events"]
    if profile == "classic":
        assert deal["payments"] == []
        assert [(p["from"], p["to"], p["chips"]) for p in drop["payments"]] == [("6", "pot", 2)]
    else:
        assert [(p["from"], p["to"], p["chips"]) for p in deal["payments"]] == [
            (str(s), "pot", 1) for s in range(1, 7)
        ]
        assert drop["payments"] == []
    payers = ["2", "3", "4", "5"]
    valle = api.event(hand["id"], {"type": "meld", "seat": 1, "cards": WINNER_MELDS[0]})
    assert moves(valle) == [(p, "1", 4, "condition") for p in payers]
    run = api.event(hand["id"], {"type": "meld", "seat": 1, "cards": WINNER_MELDS[1]})
    assert moves(run) == [(p, "1", 1, "condition") for p in payers]
    plain = api.event(hand["id"], {"type": "meld", "seat": 1, "cards": WINNER_MELDS[2]})
    assert moves(plain) == []
    assert plain["hand"]["seats"]["1"]["cards_down"] == 11
    out = api.event(hand["id"], {"type": "go_out", "seat": 1})
    going_out = 1 if profile == "classic" else 2
    pot = 2 if profile == "classic" else 6
    expected = []
    for p in payers:
        expected += [(p, "1", going_out, "going_out"), (p, "1", 5, "conditions_again")]
    assert moves(out) == [*expected, ("pot", "1", pot, "pot")]
    settled = out["hand"]
    assert settled["status"] == "settled"
    assert settled["winner"] == 1
    net = {"1": winner, **dict.fromkeys(payers, loser), "6": dropped, "pot": 0, "house": 0}
    assert settled["net"] == net
    assert sum(settled["net"].values()) == 0
    stacks = api.stacks(table)
    assert stacks == {
        1: 100 + winner,
        2: 100 + loser,
        3: 100 + loser,
        4: 100 + loser,
        5: 100 + loser,
        6: 100 + dropped,
    }
    assert api.get(f"/hands/{hand['id']}") == settled
    assert floor.get("/ledger/verify")["ok"] is True


def test_event_answer_shape(api: Api, floor: Api) -> None:
    table = six_seated(api, floor, "classic")
    hand = api.hand(table)
    answer = api.event(hand["id"], {"type": "meld", "seat": 2, "cards": ["7d", "7h", "7♣"]})
    event = answer["event"]
    assert (event["seq"], event["type"], event["seat"]) == (2, "meld", 2)
    assert event["cards"] == ["7D", "7H", "7C"]
    assert isinstance(event["id"], int)
    assert event["voided"] is False
    assert event["user"] == "Dee"
    payment = answer["payments"][0]
    assert set(payment) >= {"from", "to", "chips", "reason", "rule", "entry"}
    meld = answer["hand"]["seats"]["2"]["melds"][0]
    assert meld["cards"] == ["7C", "7D", "7H"]
    assert meld["kind"] == "set"
    assert meld["condition"]["value"] == 1
    assert meld["paid"] == 1
    entries = api.get(f"/tables/{table}/ledger")["entries"]
    assert entries[-1]["event"] == event["id"]
    assert entries[-1]["hand"] == hand["id"]


def test_add_borrow_and_split_by_meld_id(api: Api, floor: Api) -> None:
    table = six_seated(api, floor, "classic")
    hand = api.hand(table, dropped=[3, 4, 5, 6])
    answer = api.event(hand["id"], {"type": "meld", "seat": 1, "cards": ["5C", "6C", "7C"]})
    run = answer["hand"]["seats"]["1"]["melds"][0]["id"]
    answer = api.event(hand["id"], {"type": "add", "seat": 1, "meld": run, "cards": ["JC"]})
    assert answer["payments"] == []
    body = {
        "type": "split",
        "seat": 1,
        "meld": run,
        "cards": ["4C", "QC"],
        "into": [["4C", "5C", "6C"], ["7C", "JC", "QC"]],
    }
    answer = api.event(hand["id"], body)
    melds = answer["hand"]["seats"]["1"]["melds"]
    assert sorted(m["cards"][0] for m in melds) == ["4C", "7C"]
    answer = api.event(hand["id"], {"type": "meld", "seat": 2, "cards": ["KD", "KD", "KD", "KD"]})
    kings = answer["hand"]["seats"]["2"]["melds"][0]
    assert moves(answer) == [("1", "2", 2, "condition")]
    body = {"type": "borrow", "seat": 2, "meld": kings["id"], "take": ["KD"], "cards": ["JD", "QD"]}
    answer = api.event(hand["id"], body)
    assert moves(answer) == [("1", "2", 1, "condition")]
    # Meld ids are the engine's: stable and never reused within the hand.
    ids = [m["id"] for s in answer["hand"]["seats"].values() for m in s["melds"]]
    assert len(ids) == len(set(ids)) == 4


def test_a_hand_keeps_the_exact_rules_it_was_dealt_under(api: Api, floor: Api) -> None:
    table = floor.table(
        "cardroom", rules={"hand_size": 15}, collection={"kind": "per_hand", "chips": 2}
    )
    api.seat(table["id"], 1, "Ana")
    api.seat(table["id"], 2, "Ben")
    hand = api.hand(table["id"])
    assert hand["rules"] == {"profile": "cardroom", **table["rules"]}
    assert hand["rules"]["hand_size"] == 15
    assert hand["collection"] == {"kind": "per_hand", "chips": 2}


def test_a_second_hand_waits_for_the_first(api: Api, floor: Api) -> None:
    table = six_seated(api, floor, "classic")
    api.hand(table)
    error = api.post(f"/tables/{table}/hands", {}, status=409)["error"]
    assert error["code"] == "hand_in_play"


def test_a_hand_needs_two_players(api: Api, floor: Api) -> None:
    table = floor.table()
    api.seat(table["id"], 1, "Solo")
    assert api.post(f"/tables/{table['id']}/hands", {}, status=422)["error"]["code"] == (
        "not_enough_players"
    )


def test_drops_must_name_dealt_seats(api: Api, floor: Api) -> None:
    table = six_seated(api, floor, "classic")
    for dropped in ([7], [1, 1], ["1"], "1", [True]):
        api.post(f"/tables/{table}/hands", {"dropped": dropped}, status=422)
    assert api.get(f"/tables/{table}")["hand"] is None
    assert api.get(f"/tables/{table}/ledger")["entries"][-1]["rule"] == "buy_in"


def test_last_seat_left_in_takes_the_pot(api: Api, floor: Api) -> None:
    table = floor.table()
    api.seat(table["id"], 1, "Ana")
    api.seat(table["id"], 2, "Ben")
    hand = api.hand(table["id"], dropped=[2])
    assert (hand["status"], hand["winner"]) == ("settled", 1)
    assert hand["net"] == {"1": 2, "2": -2, "pot": 0, "house": 0}
    api.hand(table["id"])  # the table is free for the next hand


def test_rules_errors_are_422_and_state_errors_409(api: Api, floor: Api) -> None:
    table = six_seated(api, floor, "classic")
    hand = api.hand(table)
    for body, code in [
        ({"type": "meld", "seat": 1, "cards": ["6H", "6H", "6C"]}, "illegal_meld"),
        ({"type": "meld", "seat": 1, "cards": ["8H", "8H", "8H"]}, "invalid_card"),
        ({"type": "meld", "seat": 9, "cards": ["6H", "6H", "6H"]}, "invalid_action"),
        ({"type": "go_out", "seat": 1}, "cannot_go_out"),
        ({"type": "shuffle"}, "unknown_event_type"),
        ({"type": "add", "seat": 1, "meld": 99, "cards": ["6H"]}, "unknown_meld"),
    ]:
        assert api.event(hand["id"], body, status=422)["error"]["code"] == code, body
    api.event(hand["id"], {"type": "meld", "seat": 1, "cards": ["6H", "6H", "6H"]})
    error = api.event(hand["id"], {"type": "drop", "seat": 2}, status=409)["error"]
    assert error["code"] == "too_late_to_drop"


def test_a_meld_on_a_settled_hand_is_409(api: Api, floor: Api) -> None:
    table = floor.table()
    api.seat(table["id"], 1, "Ana")
    api.seat(table["id"], 2, "Ben")
    hand = api.hand(table["id"], dropped=[2])
    body = {"type": "meld", "seat": 1, "cards": ["6H", "6H", "6H"]}
    assert api.event(hand["id"], body, status=409)["error"]["code"] == "not_allowed_now"


def test_foul_pays_back_what_the_seat_collected(api: Api, floor: Api) -> None:
    table = six_seated(api, floor, "classic")
    hand = api.hand(table, dropped=[4, 5, 6])
    api.event(hand["id"], {"type": "meld", "seat": 1, "cards": ["5H", "5H", "5H"]})
    answer = api.event(hand["id"], {"type": "foul", "seat": 1})
    assert moves(answer) == [("1", "2", 2, "foul_refund"), ("1", "3", 2, "foul_refund")]
    assert answer["hand"]["seats"]["1"]["status"] == "fouled"


def test_void_by_event_id_reverses_its_payments(api: Api, floor: Api) -> None:
    table = six_seated(api, floor, "classic")
    hand = api.hand(table, dropped=[4, 5, 6])
    meld = api.event(hand["id"], {"type": "meld", "seat": 1, "cards": ["5H", "5H", "5H"]})
    target = meld["event"]["id"]
    void = api.event(hand["id"], {"type": "void", "event": target, "reason": "wrong cards"})
    assert [(p["from"], p["to"], p["chips"]) for p in void["payments"]] == [
        ("1", "2", 2),
        ("1", "3", 2),
    ]
    assert void["event"]["event"] == target
    assert void["event"]["event_seq"] == meld["event"]["seq"]
    assert void["hand"]["seats"]["1"]["melds"] == []
    events = void["hand"]["events"]
    assert events[-2]["voided"] is True
    assert events[-2]["voided_by"] == void["event"]["id"]
    # Each reversal points at the entry it corrects.
    entries = api.get(f"/tables/{table}/ledger")["entries"]
    reversing = [e for e in entries if e["event"] == void["event"]["id"]]
    corrected = [e["seq"] for e in entries if e["event"] == target]
    assert [e["reverses"] for e in reversing] == corrected
    assert api.get(f"/tables/{table}/balances")["seats"]["1"]["stack"] == 100


def test_void_of_another_hands_event_is_422(api: Api, floor: Api) -> None:
    table = floor.table()
    api.seat(table["id"], 1, "Ana")
    api.seat(table["id"], 2, "Ben")
    first = api.hand(table["id"], dropped=[2])
    second = api.hand(table["id"])
    other = first["events"][1]["id"]
    body = {"type": "void", "event": other, "reason": "oops"}
    assert api.event(second["id"], body, status=422)["error"]["code"] == "unknown_event"
    body = {"type": "void", "event": 10**30, "reason": "oops"}
    assert api.event(second["id"], body, status=422)["error"]["code"] == "unknown_event"


def settled_hand(api: Api, floor: Api) -> tuple[int, dict[str, Any]]:
    table = six_seated(api, floor, "classic")
    hand = api.hand(table, dropped=[6])
    for cards in WINNER_MELDS:
        api.event(hand["id"], {"type": "meld", "seat": 1, "cards": cards})
    out = api.event(hand["id"], {"type": "go_out", "seat": 1})
    return table, out


def test_void_after_settlement_needs_a_supervisor(api: Api, floor: Api) -> None:
    table, out = settled_hand(api, floor)
    hand = out["hand"]["id"]
    body = {"type": "void", "event": out["event"]["id"], "reason": "went out too soon"}
    error = api.event(hand, body, status=403)["error"]
    assert error["code"] == "supervisor_required"
    wrong = {**body, "supervisor": {"name": "Sam", "pin": "0000"}}
    assert api.event(hand, wrong, status=403)["error"]["code"] == "supervisor_not_approved"
    dealer = {**body, "supervisor": {"name": "Dee", "pin": "1111"}}
    assert api.event(hand, dealer, status=403)["error"]["code"] == "supervisor_not_approved"
    approved = api.event(hand, {**body, "supervisor": {"name": "Sam", "pin": "2222"}})
    assert approved["event"]["user"] == "Dee"
    assert approved["event"]["supervisor"] == "Sam"
    assert approved["hand"]["status"] == "playing"  # voiding the going out reopens the hand
    assert floor.get("/ledger/verify")["ok"] is True
    assert api.stacks(table)[1] == 100 + 4 * (4 + 1)  # conditions kept; going out and pot returned


def test_a_supervisor_voids_after_settlement_without_a_second_pin(floor: Api, api: Api) -> None:
    _table, out = settled_hand(api, floor)
    body = {"type": "void", "event": out["event"]["id"], "reason": "went out too soon"}
    answer = floor.event(out["hand"]["id"], body)
    assert answer["event"]["user"] == "Sam"


def test_void_hand_reverses_everything(api: Api, floor: Api) -> None:
    table = six_seated(api, floor, "cardroom", collection={"kind": "per_hand", "chips": 1})
    hand = api.hand(table, dropped=[6])
    api.event(hand["id"], {"type": "meld", "seat": 1, "cards": ["5S", "5S", "5S"]})
    api.event(hand["id"], {"type": "void_hand", "reason": "misdeal"}, status=403)
    answer = floor.event(hand["id"], {"type": "void_hand", "reason": "misdeal"})
    assert answer["hand"]["status"] == "void"
    assert set(answer["hand"]["net"].values()) == {0}
    assert api.stacks(table) == dict.fromkeys(range(1, 7), 100)
    assert api.get(f"/tables/{table}/balances")["house"] == 0
    assert floor.get("/ledger/verify")["ok"] is True
    api.hand(table)  # a void hand frees the table


def test_discard_penalty_after_settlement(api: Api, floor: Api) -> None:
    _table, out = settled_hand(api, floor)
    hand = out["hand"]["id"]
    answer = api.event(hand, {"type": "penalty", "seat": 2})
    assert [(p["from"], p["to"], p["chips"]) for p in answer["payments"]] == [
        ("2", "3", 11),
        ("2", "4", 11),
        ("2", "5", 11),
        ("2", "6", 2),
    ]
    assert api.event(hand, {"type": "penalty", "seat": 3}, status=409)["error"]["code"] == (
        "penalty_taken"
    )


def test_fits_lists_where_a_card_goes(api: Api, floor: Api) -> None:
    table = six_seated(api, floor, "classic")
    hand = api.hand(table)
    answer = api.event(hand["id"], {"type": "meld", "seat": 2, "cards": ["5C", "6C", "7C"]})
    meld = answer["hand"]["seats"]["2"]["melds"][0]["id"]
    fits = api.post(f"/hands/{hand['id']}/fits", {"card": "jc"}, status=200)
    assert fits == {"fits": [{"seat": 2, "meld": meld, "goes_out": False}]}
    assert api.post(f"/hands/{hand['id']}/fits", {"card": "KS"}, status=200) == {"fits": []}
    api.post(f"/hands/{hand['id']}/fits", {"card": "10C"}, status=422)
    api.post(f"/hands/{hand['id']}/fits", {"card": 5}, status=422)
    api.post("/hands/999/fits", {"card": "5C"}, status=404)


def test_unknown_hand_is_404(api: Api) -> None:
    api.get("/hands/999", status=404)
    api.post("/hands/999/events", {"type": "drop", "seat": 1}, status=404)


def test_moving_chips_of_a_player_who_left_is_409(api: Api, floor: Api) -> None:
    """A penalty after settlement must not charge a seat whose player has cashed out and left."""
    table, out = settled_hand(api, floor)
    api.delete(f"/tables/{table}/seats/2", status=200)
    error = api.event(out["hand"]["id"], {"type": "penalty", "seat": 2}, status=409)["error"]
    assert error["code"] == "seat_left"


def test_leaving_short_is_refused(api: Api, floor: Api) -> None:
    table = floor.table()
    api.seat(table["id"], 1, "Ana", 0)
    api.seat(table["id"], 2, "Ben", 0)
    hand = api.hand(table["id"], dropped=[2])
    assert hand["winner"] == 1
    stacks = api.get(f"/tables/{table['id']}/balances")["seats"]
    assert stacks["2"] == {"player": "Ben", "stack": -2, "short": True}
    error = api.delete(f"/tables/{table['id']}/seats/2", status=409)["error"]
    assert error["code"] == "seat_short"
