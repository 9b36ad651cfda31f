"""One telling of every hand: each event has one sentence, and the API's answer, the hand
screen's history, the seats' statements and the printed hand slip all say it, verbatim."""

from __future__ import annotations

import io
from typing import Any

from flask import Flask
from pypdf import PdfReader

from tests.helpers import Api, add_people
from tests.screens.conftest import Web, words

ACTIONS: list[dict[str, Any]] = [
    {"type": "meld", "seat": 1, "cards": ["5S", "5S", "5S"]},
    {"type": "add", "seat": 1, "meld": 1, "cards": ["5S"]},
    {"type": "meld", "seat": 2, "cards": ["4D", "5D", "6D", "7D"]},
    {"type": "borrow", "seat": 2, "meld": 2, "take": ["7D"], "cards": ["7C", "7H"]},
    {"type": "meld", "seat": 3, "cards": ["5C", "6C", "7C", "JC"]},
    {
        "type": "split",
        "seat": 3,
        "meld": 4,
        "cards": ["4C", "QC"],
        "into": [["4C", "5C", "6C"], ["7C", "JC", "QC"]],
    },
    {"type": "meld", "seat": 4, "cards": ["KS", "KS", "KS"]},
    {"type": "void", "event": "the meld of seat 4", "reason": "wrong seat"},
    {"type": "meld", "seat": 1, "cards": ["JH", "QH", "KH"]},
    {"type": "meld", "seat": 1, "cards": ["2C", "3C", "4C", "5C"]},
    {"type": "go_out", "seat": 1},
]


def played(app: Flask) -> tuple[Api, int]:
    """A hand of meld, add, borrow, split, conditions, a void and a going out."""
    add_people(app)
    floor = Api.sign_in(app, "supervisor")
    table = floor.table(name="Table 4")["id"]
    for seat, name in enumerate(("Rosa", "Bo", "Cy", "Di"), start=1):
        floor.seat(table, seat, name, 200)
    hand = floor.hand(table)["id"]
    last = 0
    for body in ACTIONS:
        if body["type"] == "void":
            body = {**body, "event": last}
        last = floor.event(hand, body)["event"]["id"]
    return floor, hand


def slip_text(web: Web, hand: int) -> str:
    answer = web.client.post(f"/print/hands/{hand}.pdf")
    assert answer.status_code == 200
    pages = PdfReader(io.BytesIO(answer.data)).pages
    return " ".join(" ".join((p.extract_text() or "").split()) for p in pages)


def test_each_event_is_one_sentence_at_every_door(app: Flask) -> None:
    floor, hand = played(app)
    events = floor.get(f"/hands/{hand}")["events"]
    assert [e["type"] for e in events] == ["deal", *[a["type"] for a in ACTIONS]]
    web = Web.sign_in(app, "supervisor")
    history = words(web.get(f"/hands/{hand}").split('id="history-h"')[1])
    slip = slip_text(web, hand)
    statements = {
        seat: words(web.get(f"/hands/{hand}/seats/{seat}/statement")) for seat in range(1, 5)
    }
    for event in events:
        said = event["text"]
        assert f"#{event['seq']} {said}" in history, said
        assert said in slip, said
        for payment in event["payments"]:
            for party in (payment["from"], payment["to"]):
                if party.isdigit():
                    assert f"#{event['seq']}: {said}" in statements[int(party)], (party, said)
    assert events[2]["text"] == "Seat 1 adds 5♠ to 5♠ 5♠ 5♠"
    assert events[4]["text"] == "Seat 2 borrows 7♦ from 4♦ 5♦ 6♦ 7♦ for 7♣ 7♦ 7♥"
    assert events[8]["text"] == "Void of #8 (Seat 4 melds K♠ K♠ K♠): wrong seat"


def test_a_payment_is_said_the_same_in_the_api_and_the_statement(app: Flask) -> None:
    floor, hand = played(app)
    events = floor.get(f"/hands/{hand}")["events"]
    statement = floor.get(f"/hands/{hand}/seats/2/statement")
    for line in statement["lines"]:
        event = next(e for e in events if e["id"] == line["event"])
        assert line["event_text"] == event["text"]
        assert line["reason"] == event["payments"][line["payment"] - 1]["reason"]
    assert statement["lines"][-1]["running"] == statement["net"] == statement["ledger_net"]
