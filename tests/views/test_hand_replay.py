"""The hand replay: for every event of every golden hand, the table the replay shows (the API's
answer and the screen alike) is the engine's own after that event: melds and their paid
levels, each seat's status and cards down, stacks (from the ledger) and the pot."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from dealer import rules
from tests.api.test_golden_hands import BUY_IN, recorded_events
from tests.helpers import Api, add_people
from tests.rules.test_golden_hands import HAND_FILES, load
from tests.screens.conftest import Web, words
from tests.views.test_statement_words import played as one_telling


def engine_table(hand: rules.Hand) -> dict[str, Any]:
    """What the replay must show after an event, read from the engine itself."""
    return {
        "pot": hand.net[rules.POT],
        "status": hand.status,
        "winner": hand.winner,
        "seats": {
            str(seat): {
                "status": hand.seat_status[seat],
                "cards_down": hand.cards_down[seat],
                "stack": BUY_IN + hand.net[seat],
                "net": hand.net[seat],
                "melds": sorted(
                    (" ".join(str(c) for c in m.cards), m.paid) for m in hand.melds_of(seat)
                ),
            }
            for seat in hand.seats
        },
    }


def api_table(answer: dict[str, Any]) -> dict[str, Any]:
    return {
        "pot": answer["pot"],
        "status": answer["status"],
        "winner": answer["winner"],
        "seats": {
            key: {
                "status": seat["status"],
                "cards_down": seat["cards_down"],
                "stack": seat["stack"],
                "net": seat["net"],
                "melds": sorted((" ".join(m["cards"]), m["paid"]) for m in seat["melds"]),
            }
            for key, seat in answer["seats"].items()
        },
    }


def screen_table(html: str) -> dict[str, Any]:
    """The seats the screen draws, read from its marked figures."""
    seats = {}
    for part in html.split("<article")[1:]:
        seat = re.search(r'data-replay-seat="(\d)"', part)
        assert seat is not None
        melds = re.findall(r'data-cards="([^"]*)" data-paid="(\d+)"', part)
        seats[seat[1]] = {
            "status": _one(r'data-status="(\w+)"', part),
            "stack": _figure(_one(r"data-stack>(-?[\d,]+)<", part)),
            "melds": sorted((cards, int(paid)) for cards, paid in melds),
        }
    return {"pot": _figure(_one(r"data-pot>(-?[\d,]+)<", html)), "seats": seats}


def _figure(written: str) -> int:
    """A figure as English writes it on the screen (``1,000``)."""
    return int(written.replace(",", ""))


def _one(pattern: str, text: str) -> str:
    found = re.search(pattern, text)
    assert found is not None, pattern
    return found[1]


def played(floor: Api, data: dict[str, Any]) -> tuple[int, list[dict[str, Any]]]:
    """The golden hand played through the API, and the engine's table after each event
    recorded (the refused ones left out, as the hand leaves them)."""
    table = floor.table(
        data["profile"], rules=data.get("rules") or {}, collection=data.get("collection")
    )
    for seat in data["seats"]:
        floor.seat(table["id"], seat, f"Player {seat}", BUY_IN)
    hand = floor.hand(table["id"])
    engine = rules.Hand(
        rules.make_rules(data["profile"], data.get("rules") or {}),
        data["seats"],
        rules.make_collection(data.get("collection")),
    )
    after = [engine_table(engine)]
    for event, _recorded in recorded_events(floor, hand, data["events"]):
        engine.apply(rules.action_from_dict(event["action"]))
        after.append(engine_table(engine))
    return hand["id"], after


@pytest.mark.parametrize("path", [pytest.param(p, id=p.name) for p in HAND_FILES])
def test_every_event_replays_as_the_engine_stood(app: Flask, path: Path) -> None:
    add_people(app)
    floor = Api.sign_in(app, "supervisor")
    screen = Web.sign_in(app, "supervisor")
    hand, after = played(floor, load(path))
    voided = {e["seq"] for e in floor.get(f"/hands/{hand}")["events"] if e["voided"]}
    for seq, expected in enumerate(after, start=1):
        answer = floor.get(f"/hands/{hand}/replay?at={seq}")
        assert (answer["at"], answer["last"]) == (seq, len(after))
        assert api_table(answer) == expected, f"event {seq} through the API"
        assert {s["seq"] for s in answer["steps"] if s["voided"]} == voided
        shown = screen_table(screen.get(f"/hands/{hand}/replay?at={seq}"))
        assert shown == {
            "pot": expected["pot"],
            "seats": {
                k: {"status": v["status"], "stack": v["stack"], "melds": v["melds"]}
                for k, v in expected["seats"].items()
            },
        }, f"event {seq} on the screen"


def test_a_payment_a_statement_line_and_a_dispute_open_the_replay_at_their_event(
    app: Flask,
) -> None:
    floor, hand = one_telling(app)
    screen = Web.sign_in(app, "supervisor")
    view = floor.get(f"/hands/{hand}")
    event = next(e for e in view["events"] if e["payments"] and e["seq"] > 1)
    payment = screen.get(f"/hands/{hand}/events/{event['id']}/payments/1")
    assert f'href="/hands/{hand}/replay?at={event["seq"]}"' in payment
    seat = int(event["payments"][0]["from"])
    statement = screen.get(f"/hands/{hand}/seats/{seat}/statement")
    assert f'href="/hands/{hand}/replay?at={event["seq"]}"' in statement

    entries = floor.get(f"/tables/{view['table']}/ledger")["entries"]
    entry = next(e["seq"] for e in entries if e["event"] == event["id"])
    floor.post(
        f"/hands/{hand}/disputes",
        {"raised_by": "seat", "seat": seat, "claim": "That set was paid already", "entry": entry},
    )
    panel = screen.get(f"/hands/{hand}")
    link = f"/hands/{hand}/replay?entry={entry}"
    assert link in panel
    shown = screen.get(link)
    assert f'data-replay-event="{event["seq"]}"' in shown
    assert event["text"] in words(shown)
    # A payment of another hand, or a step the hand does not have: refused in words.
    assert "is not a payment of hand" in words(screen.get(f"{link}9", status=422))
    assert "there is no event 99" in words(screen.get(f"/hands/{hand}/replay?at=99", status=422))
