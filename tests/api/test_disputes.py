"""Disputes on the record through the API: a dealer opens, only a supervisor rules, and what
an upheld ruling names must belong to the disputed hand."""

from __future__ import annotations

from typing import Any

from dealer.extensions import db
from dealer.people.audit import audit_trail
from tests.api.test_hands import six_seated
from tests.helpers import Api


def melded_hand(api: Api, floor: Api) -> tuple[int, dict[str, Any]]:
    """A hand at six seats where seat 1 melded 5S 5S 5S (paid 4 by each): its id, the answer."""
    table = six_seated(api, floor, "classic")
    hand = api.hand(table)["id"]
    answer = api.event(hand, {"type": "meld", "seat": 1, "cards": ["5S"] * 3})
    return hand, answer


def test_a_dealer_opens_a_dispute_on_a_payment_and_a_supervisor_upholds_it(
    api: Api, floor: Api
) -> None:
    hand, melded = melded_hand(api, floor)
    entry = melded["payments"][0]["entry"]
    opened = api.post(
        f"/hands/{hand}/disputes",
        {"raised_by": "seat", "seat": 3, "claim": "Seat 3 says it paid 4 twice.", "entry": entry},
        status=201,
    )
    assert opened["status"] == "open" and opened["ruling"] is None
    assert (opened["hand"], opened["seat"], opened["entry"]) == (hand, 3, entry)
    assert [d["id"] for d in api.get("/disputes?status=open")["disputes"]] == [opened["id"]]

    void = api.event(hand, {"type": "void", "event": melded["event"]["id"], "reason": "paid twice"})
    ruled = floor.post(
        f"/disputes/{opened['id']}/ruling",
        {"outcome": "upheld", "reason": "The meld was voided.", "void_event": void["event"]["id"]},
        status=201,
    )
    assert ruled["status"] == "ruled"
    assert ruled["ruling"]["outcome"] == "upheld"
    assert ruled["ruling"]["void_event"] == void["event"]["id"]
    assert api.get("/disputes?status=open")["disputes"] == []
    assert api.get(f"/hands/{hand}/disputes")["disputes"] == [ruled]
    # Ruled once: a second ruling is a conflict, in words.
    again = floor.post(
        f"/disputes/{opened['id']}/ruling",
        {"outcome": "denied", "reason": "Changed my mind."},
        status=409,
    )
    assert again["error"]["code"] == "already_ruled"


def test_only_a_supervisor_rules(api: Api, floor: Api, admin: Api) -> None:
    hand, _ = melded_hand(api, floor)
    opened = api.post(
        f"/hands/{hand}/disputes", {"raised_by": "dealer", "claim": "Count again."}, status=201
    )
    refused = api.post(
        f"/disputes/{opened['id']}/ruling",
        {"outcome": "denied", "reason": "Counted right."},
        status=403,
    )
    assert refused["error"]["code"] == "supervisor_rules"
    assert "supervisor" in refused["error"]["message"]
    assert api.get(f"/hands/{hand}/disputes")["disputes"][0]["status"] == "open"
    ruled = admin.post(
        f"/disputes/{opened['id']}/ruling",
        {"outcome": "denied", "reason": "Counted right."},
        status=201,
    )
    assert ruled["ruling"]["outcome"] == "denied"


def test_an_upheld_ruling_names_a_void_of_the_same_hand(api: Api, floor: Api) -> None:
    hand, melded = melded_hand(api, floor)
    other, other_meld = melded_hand(api, floor)
    void_elsewhere = api.event(
        other, {"type": "void", "event": other_meld["event"]["id"], "reason": "wrong seat"}
    )
    opened = api.post(
        f"/hands/{hand}/disputes", {"raised_by": "seat", "seat": 2, "claim": "Wrong."}, status=201
    )
    ruling = f"/disputes/{opened['id']}/ruling"
    wrong_hand = floor.post(
        ruling,
        {"outcome": "upheld", "reason": "Voided.", "void_event": void_elsewhere["event"]["id"]},
        status=422,
    )
    assert wrong_hand["error"]["code"] == "void_not_in_hand"
    not_a_void = floor.post(
        ruling,
        {"outcome": "upheld", "reason": "Voided.", "void_event": melded["event"]["id"]},
        status=422,
    )
    assert not_a_void["error"]["code"] == "not_a_void"
    nothing = floor.post(ruling, {"outcome": "upheld", "reason": "Yes."}, status=422)
    assert nothing["error"]["code"] == "upheld_without_change"
    entry = melded["payments"][0]["entry"]
    not_a_correction = floor.post(
        ruling, {"outcome": "upheld", "reason": "Yes.", "correction": entry}, status=422
    )
    assert not_a_correction["error"]["code"] == "not_a_correction"
    denied_with_void = floor.post(
        ruling,
        {"outcome": "denied", "reason": "No.", "void_event": void_elsewhere["event"]["id"]},
        status=422,
    )
    assert denied_with_void["error"]["code"] == "denied_with_change"
    # None of the refusals was recorded: the dispute is still open, and a correction of this
    # hand (the void's reversing entry) upholds it.
    void = api.event(hand, {"type": "void", "event": melded["event"]["id"], "reason": "no"})
    correction = void["payments"][0]["entry"]
    ruled = floor.post(
        ruling, {"outcome": "upheld", "reason": "Reversed.", "correction": correction}, status=201
    )
    assert ruled["ruling"]["correction"] == correction


def test_bad_input_is_a_422_in_words_and_records_nothing(api: Api, floor: Api) -> None:
    hand, melded = melded_hand(api, floor)
    other, other_meld = melded_hand(api, floor)
    path = f"/hands/{hand}/disputes"
    # Each refusal names the field, in the dealer's words (the form shows it beside it).
    bad = [
        ({"raised_by": "player", "claim": "x"}, "who raises"),
        ({"raised_by": "seat", "claim": "x"}, "seat"),
        ({"raised_by": "dealer", "seat": 2, "claim": "x"}, "seat"),
        ({"raised_by": "seat", "seat": 9, "claim": "x"}, "seat"),
        ({"raised_by": "dealer", "claim": "   "}, "claim"),
        ({"raised_by": "dealer", "claim": "x" * 501}, "claim"),
        ({"raised_by": "dealer"}, "claim"),
        ({"raised_by": "dealer", "claim": "x", "entry": "3"}, "entry"),
        (
            {"raised_by": "dealer", "claim": "x", "entry": other_meld["payments"][0]["entry"]},
            "entry",
        ),
        ({"raised_by": "dealer", "claim": "x", "colour": "red"}, "colour"),
    ]
    for body, field in bad:
        error = api.post(path, body, status=422)["error"]
        assert field in error["message"] or field in error["code"], (body, error)
    assert api.get(f"/hands/{hand}/disputes")["disputes"] == []
    assert (
        api.post(
            f"/hands/{other + 100}/disputes", {"raised_by": "dealer", "claim": "x"}, status=404
        )["error"]["code"]
        == "unknown_hand"
    )
    assert (
        floor.post("/disputes/999/ruling", {"outcome": "denied", "reason": "x"}, status=404)[
            "error"
        ]["code"]
        == "unknown_dispute"
    )
    opened = api.post(path, {"raised_by": "dealer", "claim": "x"}, status=201)
    for body in (
        {"outcome": "maybe", "reason": "x"},
        {"outcome": "denied"},
        {"outcome": "denied", "reason": ""},
    ):
        floor.post(f"/disputes/{opened['id']}/ruling", body, status=422)
    assert api.get("/disputes?status=closed", status=422)["error"]["code"] == "invalid_query"
    assert melded["payments"]


def test_opening_is_idempotent_with_a_key(api: Api, floor: Api) -> None:
    hand, _ = melded_hand(api, floor)
    body = {"raised_by": "dealer", "claim": "Count the pot."}
    first = api.call("POST", f"/hands/{hand}/disputes", body, key="k-1", status=201)
    again = api.call("POST", f"/hands/{hand}/disputes", body, key="k-1", status=201)
    assert again.get_json() == first.get_json()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert len(api.get(f"/hands/{hand}/disputes")["disputes"]) == 1
    other = {"raised_by": "dealer", "claim": "Something else."}
    api.call("POST", f"/hands/{hand}/disputes", other, key="k-1", status=409)


def test_disputes_and_players_are_on_the_audit_trail(api: Api, floor: Api) -> None:
    hand, melded = melded_hand(api, floor)
    entry = melded["payments"][0]["entry"]
    opened = api.post(
        f"/hands/{hand}/disputes",
        {"raised_by": "seat", "seat": 2, "claim": "Paid 4 twice", "entry": entry},
        status=201,
        headers={"X-Device": "tablet 3"},
    )
    floor.post(
        f"/disputes/{opened['id']}/ruling", {"outcome": "denied", "reason": "Once."}, status=201
    )
    api.post("/players", {"name": "Ann", "card_number": "C-9"}, status=201)
    with api.client.application.app_context():
        trail = audit_trail(db.session(), kinds=["dispute_opened", "dispute_ruled", "player_added"])
        said = {line.record.kind: (line.record.words, line.record.device) for line in trail}
    # The dispute as every screen says it: the player and the payment in words, no entry's seq.
    about = (
        "Player 2, seat 2: the 4 chips paid to seat 1 (Player 1) for valle set in spades (5♠ 5♠ 5♠)"
    )
    assert said["dispute_opened"][0] == (
        f"Dispute {opened['id']} opened on hand 1 (id {hand}) · {about}: Paid 4 twice"
    )
    assert f"ledger entry {entry}" not in said["dispute_opened"][0]
    assert said["dispute_opened"][1] == "tablet 3"
    assert (
        said["dispute_ruled"][0]
        == f"Sam ruled dispute {opened['id']} on hand 1 (id {hand}) ({about}) denied: Once."
    )
    assert said["player_added"][0] == "Dee added player 1: Ann (card C-9)."


def test_a_dealer_opens_and_lists_disputes_only_at_their_own_table(
    api: Api, floor: Api, admin: Api
) -> None:
    hand, _ = melded_hand(api, floor)  # Dee dealt it: the table is Dee's
    opened = api.post(f"/hands/{hand}/disputes", {"raised_by": "dealer", "claim": "x"}, status=201)
    admin.post("/users", {"name": "Bo", "role": "dealer", "pin": "4444"}, status=201)
    bo = Api.sign_in_as(api.client.application, "Bo", "4444")
    refused = bo.post(f"/hands/{hand}/disputes", {"raised_by": "dealer", "claim": "y"}, status=403)
    assert "Dee" in refused["error"]["message"]
    bo.get(f"/hands/{hand}/disputes", status=403)
    assert bo.get("/disputes")["disputes"] == []
    assert [d["id"] for d in floor.get("/disputes")["disputes"]] == [opened["id"]]


def test_an_upheld_ruling_on_the_audit_trail_names_its_void_by_its_number_in_the_hand(
    api: Api, floor: Api
) -> None:
    """The void a ruling led to is said as the hand's screen numbers it (#3), not by an
    event's id; the audit's details keep the id."""
    hand, melded = melded_hand(api, floor)
    opened = api.post(
        f"/hands/{hand}/disputes",
        {"raised_by": "dealer", "claim": "Melded twice", "entry": melded["payments"][0]["entry"]},
        status=201,
    )
    void = api.event(hand, {"type": "void", "event": melded["event"]["id"], "reason": "twice"})
    ruled = {"outcome": "upheld", "reason": "Voided", "void_event": void["event"]["id"]}
    floor.post(f"/disputes/{opened['id']}/ruling", ruled, status=201)
    with api.client.application.app_context():
        (line,) = audit_trail(db.session(), kinds=["dispute_ruled"])
    about = "the dealer: the 4 chips seat 2 (Player 2) paid seat 1 (Player 1) for valle set in"
    assert f"({about} spades (5♠ 5♠ 5♠)) upheld, led to the void of #" in line.record.words
    assert line.record.words.endswith(f"led to the void of #{void['event']['seq']}: Voided")
    assert line.record.details["void_event"] == void["event"]["id"]
