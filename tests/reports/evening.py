"""An evening played through the API, for the documents to be checked against.

Table 7 (classic, no collection, 50 cents a chip): Dee opens a session; seed 000's example
hand (seat 6 drops; seat 1 shows 5S 5S 5S, JH QH KH and a run, and goes out: +46, -11 x4,
-2); then a hand with a mis-entry voided at once; then a hand voided after settlement with
the floor's PIN. Table 9 (classic, 1 chip a hand to the house, a dollar a chip): two hands in
a session opened by dealing. Then Ana cashes out 20 at table 7 and Fay leaves.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from typing import Any

from pypdf import PdfReader

from tests.helpers import Api

SUPERVISOR = {"name": "Sam", "pin": "2222"}
PLAYERS = ("Ana", "Bea", "Cruz", "Dev", "Eli", "Fay")
WINNING_MELDS = (["5S", "5S", "5S"], ["JH", "QH", "KH"], ["2C", "3C", "4C", "5C", "6C"])


@dataclass
class Evening:
    """What was played: tables, sessions and hands, by their API ids."""

    table7: int = 0
    table9: int = 0
    session7: int = 0
    session9: int = 0
    hands7: list[int] = field(default_factory=list)
    hands9: list[int] = field(default_factory=list)

    @property
    def hands(self) -> list[int]:
        return self.hands7 + self.hands9


def play_rotated(api: Api, table: int, winner: int, dropper: int) -> dict[str, Any]:
    """Seed 000's hand with the seats turned: ``dropper`` drops, ``winner`` melds and goes out."""
    hand = api.hand(table, dropped=[dropper])
    for cards in WINNING_MELDS:
        api.event(hand["id"], {"type": "meld", "seat": winner, "cards": cards})
    settled: dict[str, Any] = api.event(hand["id"], {"type": "go_out", "seat": winner})["hand"]
    assert settled["status"] == "settled"
    return settled


def play_evening(api: Api, floor: Api) -> Evening:
    evening = Evening()
    evening.table7 = floor.table("classic", name="Table 7", chip_value_cents=50)["id"]
    evening.table9 = floor.table(
        "classic",
        name="Table 9",
        chip_value_cents=100,
        collection={"kind": "per_hand", "chips": 1},
    )["id"]
    evening.session7 = api.post(f"/tables/{evening.table7}/sessions", status=201)["id"]
    for table in (evening.table7, evening.table9):
        for seat, player in enumerate(PLAYERS, start=1):
            api.seat(table, seat, player if table == evening.table7 else f"{player} 9", 100)

    seed = play_rotated(api, evening.table7, winner=1, dropper=6)
    assert seed["net"] == {
        "1": 46,
        "2": -11,
        "3": -11,
        "4": -11,
        "5": -11,
        "6": -2,
        "pot": 0,
        "house": 0,
    }
    evening.hands7.append(seed["id"])

    hand = api.hand(evening.table7, dropped=[5])
    wrong = api.event(hand["id"], {"type": "meld", "seat": 3, "cards": ["7H", "7H", "7H"]})
    reason = "Keyed for the wrong seat: it was seat 4's <meld> & not 3's"
    api.event(hand["id"], {"type": "void", "event": wrong["event"]["id"], "reason": reason})
    for cards in WINNING_MELDS:
        api.event(hand["id"], {"type": "meld", "seat": 2, "cards": cards})
    api.event(hand["id"], {"type": "go_out", "seat": 2})
    evening.hands7.append(hand["id"])

    misdeal = play_rotated(api, evening.table7, winner=3, dropper=1)
    body = {"type": "void_hand", "reason": "Misdeal: two cards exposed", "supervisor": SUPERVISOR}
    api.event(misdeal["id"], body)
    evening.hands7.append(misdeal["id"])

    for winner, dropper in ((4, 2), (5, 1)):
        evening.hands9.append(play_rotated(api, evening.table9, winner, dropper)["id"])
    [implicit] = api.get(f"/tables/{evening.table9}/sessions")["sessions"]
    evening.session9 = implicit["id"]

    api.post(f"/tables/{evening.table7}/seats/1/chips", {"kind": "cash_out", "amount": 20})
    api.delete(f"/tables/{evening.table7}/seats/6", status=200)
    return evening


def pdf_text(data: bytes) -> str:
    """All the text of a PDF, page after page, as pypdf reads it."""
    assert data.startswith(b"%PDF-")
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def one_line(text: str) -> str:
    """``text`` with every run of white space made one space (cells wrap onto lines)."""
    return re.sub(r"\s+", " ", text)
