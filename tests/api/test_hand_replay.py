"""The hand replay through the API, on both databases: a step is the table as it stood, the
last by default; a step the hand does not have is refused in words."""

from __future__ import annotations

from tests.helpers import Api


def test_replay_steps_and_refusals(floor: Api) -> None:
    table = floor.table(name="Table 4")["id"]
    for seat, name in enumerate(("Rosa", "Bo", "Cy"), start=1):
        floor.seat(table, seat, name, 200)
    hand = floor.hand(table)["id"]
    floor.event(hand, {"type": "meld", "seat": 1, "cards": ["5S", "5S", "5S"]})
    meld = floor.event(hand, {"type": "meld", "seat": 2, "cards": ["KS", "KS", "KS"]})
    floor.event(hand, {"type": "void", "event": meld["event"]["id"], "reason": "wrong seat"})

    last = floor.get(f"/hands/{hand}/replay")
    assert (last["at"], last["last"]) == (4, 4)
    assert last["seats"]["2"]["melds"] == []
    assert [s["voided"] for s in last["steps"]] == [False, False, True, False]
    # After event 3 the voided meld still stood, and was paid for.
    then = floor.get(f"/hands/{hand}/replay?at=3")
    assert [m["cards"] for m in then["seats"]["2"]["melds"]] == [["KS", "KS", "KS"]]
    assert then["event"]["text"] == last["steps"][2]["text"]
    assert then["seats"]["2"]["stack"] > last["seats"]["2"]["stack"]
    assert then["seats"]["2"]["stack"] - 200 == then["seats"]["2"]["net"]

    answer = floor.call("GET", f"/hands/{hand}/replay?at=9")
    assert answer.status_code == 422
    assert answer.get_json()["error"]["message"].startswith("Hand 1 has events 1 to 4")
    assert floor.call("GET", f"/hands/{hand}/replay?at=x").status_code == 422
    assert floor.call("GET", f"/hands/{hand}/replay?step=2").status_code == 422
    assert floor.call("GET", "/hands/999/replay").status_code == 404


def test_replay_refuses_an_event_and_an_entry_together(floor: Api) -> None:
    """``at`` and ``entry`` name a step each: asked together, neither is taken silently."""
    table = floor.table(name="Table 4")["id"]
    for seat, name in enumerate(("Rosa", "Bo"), start=1):
        floor.seat(table, seat, name, 200)
    hand = floor.hand(table)["id"]
    floor.event(hand, {"type": "meld", "seat": 1, "cards": ["5S", "5S", "5S"]})
    entry = floor.get(f"/tables/{table}/ledger")["entries"][-1]["seq"]
    assert floor.get(f"/hands/{hand}/replay?entry={entry}")["at"] == 2
    answer = floor.call("GET", f"/hands/{hand}/replay?at=1&entry={entry}")
    assert answer.status_code == 422
    assert answer.get_json()["error"] == {
        "code": "invalid_query",
        "message": "Show the hand after an event or after a ledger entry, not both.",
    }


def test_search_in_words_on_both_databases(floor: Api) -> None:
    """The search in words reads the same on both databases: a name without its accent, this
    shift by default, an amount that is one payment of the seat."""
    table = floor.table(name="Table 4")["id"]
    for seat, name in enumerate(("Rósa", "Bo", "Cy"), start=1):
        floor.seat(table, seat, name, 200)
    hand = floor.hand(table, dropped=[3])["id"]
    answer = floor.get("/search?q=player+rosa,+table+4,+2+chips")
    assert answer["seats"] == []
    found = floor.get("/search?q=seat+3,+table+4,+2+chips")["seats"]
    assert [(s["hand"], s["seat"], s["player"], s["matched"]) for s in found] == [
        (hand, 3, "Cy", "paid")
    ]
    assert floor.call("GET", "/search?q=table+9").status_code == 422
