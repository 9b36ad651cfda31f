"""The statement a player accepts: every chip traced to its event's one sentence, its rule in
words and its ledger entry; running totals that add up to the net the ledger holds; plurals
right; cards as suit symbols, never codes; nothing said as a negative "-1 for"."""

from __future__ import annotations

import re
from typing import Any

from flask import Flask

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


def test_every_chip_of_the_statement_traced_and_added_up(app: Flask) -> None:
    floor, hand = played(app)
    screen = Web.sign_in(app, "supervisor")
    told = {e["seq"]: e["text"] for e in floor.get(f"/hands/{hand}")["events"]}
    entries = {e["seq"]: e for e in floor.get("/tables/1/ledger")["entries"] if e["hand"] == hand}
    for seat in (1, 2, 3, 4):
        found = floor.get(f"/hands/{hand}/seats/{seat}/statement")
        page = screen.get(f"/hands/{hand}/seats/{seat}/statement")
        running = 0
        rows = re.findall(r'<tr data-entry="(\d+)".*?</tr>', page, re.S)
        assert [int(r) for r in rows] == [line["entry"] for line in found["lines"]]
        marked = re.findall(r"<tr data-entry.*?</tr>", page, re.S)
        for line, row in zip(found["lines"], marked, strict=True):
            entry = entries[line["entry"]]
            account = found["account"]
            signed = entry["chips"] if entry["to_account"] == account else -entry["chips"]
            assert line["chips"] == signed, "the line is its ledger entry's chips"
            running += signed
            assert line["running"] == running
            shown = words(row)
            assert f"ledger entry {line['entry']}" in shown
            assert f"#{line['event_seq']}: {told[line['event_seq']]}" in shown
            assert line["rule"]["name"] in shown
        assert running == found["net"] == found["ledger_net"]
        text = words(page)
        assert not re.search(r"(?<![\w#])-\d+ for", text), "a part said as a negative"
        assert not re.search(r"\b1 chips\b", text) and not re.search(r"\b[02-9] chip\b", text)
        assert not re.search(r"\b(10|[2-9JQKA])[SHDC]\b", text), "a card's code on the screen"
    bo = words(screen.get(f"/hands/{hand}/seats/2/statement"))
    assert "less 1 for 7♣ 7♦ 7♥" in bo
    assert "paid 21 chips, received 5 chips" in bo
