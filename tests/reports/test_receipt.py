"""The slips for the table's 80 mm receipt printer: the seed hand on one roll's width, chosen
by the request or by the tablet."""

from __future__ import annotations

import io

from pypdf import PdfReader

from dealer.reports.pages import PrintOptions
from dealer.reports.receipt import hand_slip_receipt
from dealer.web.paper import PAPER_COOKIE
from tests.helpers import Api
from tests.reports.evening import WINNING_MELDS, one_line
from tests.reports.examples import long_hand, seed_000_hand, slip_of
from tests.reports.test_routes import fetch

MM = 72 / 25.4


def _pages(data: bytes) -> list[tuple[float, float, str]]:
    return [
        (float(p.mediabox.width) / MM, float(p.mediabox.height) / MM, p.extract_text())
        for p in PdfReader(io.BytesIO(data)).pages
    ]


def test_the_receipt_slip_is_80_mm_wide_and_holds_the_seed_hand():
    for hand in (seed_000_hand(), long_hand()):
        [(width, length, text)] = _pages(hand_slip_receipt(slip_of(hand), PrintOptions("receipt")))
        assert round(width) == 80 and 100 < length < 400
        flat = one_line(text)
        for event in hand.events:
            assert f"#{event.seq} " in flat
    flat = one_line(
        _pages(hand_slip_receipt(slip_of(seed_000_hand()), PrintOptions("receipt")))[0][2]
    )
    assert "Seats 2, 3, 4 and 6 each pay seat 1 (Ana) 4 chips: valle set in spades" in flat
    assert "Seat 1 Ana (in): +46 chips (+$23.00)" in flat and "Total 0 chips ($0.00)" in flat
    assert "Drop forfeit (tops), chips: 2" in flat and "drop_forfeit" not in flat


def test_a_slip_prints_on_the_receipt_by_request_or_by_the_tablets_choice(
    api: Api, floor: Api
) -> None:
    table = floor.table("classic", name="Table 6")["id"]
    for seat in (1, 2, 3):
        api.seat(table, seat, f"P{seat}", 50)
    hand = api.hand(table)["id"]
    for cards in WINNING_MELDS:
        api.event(hand, {"type": "meld", "seat": 1, "cards": cards})
    [(width, _, _)] = _pages(fetch(api, f"/reports/hands/{hand}.pdf?paper=receipt").data)
    assert round(width) == 80
    api.client.set_cookie(PAPER_COOKIE, "receipt")
    [(width, _, text)] = _pages(fetch(api, f"/reports/hands/{hand}.pdf").data)
    assert round(width) == 80 and "REPRINT 1" in text
    [(width, _, _)] = _pages(fetch(api, f"/reports/hands/{hand}/seats/2/statement.pdf").data)
    assert round(width) == 80
    pages = _pages(fetch(api, f"/reports/hands/{hand}.pdf?paper=page").data)
    assert round(pages[0][0]) == 216  # letter, asked for
    for asked in ("roll", ""):  # given empty is not left out: the document lists no ""
        refused = fetch(api, f"/reports/hands/{hand}.pdf?paper={asked}", status=422).get_json()
        assert refused["error"]["message"] == "paper is page or receipt."


def test_the_receipt_prints_the_table_and_the_hand_in_its_body() -> None:
    """The 80 mm slip's first printed line is the table and the hand (its header's subject is
    not all a reader gets), and its settlement comes before the events."""
    [(_, _, text)] = _pages(hand_slip_receipt(slip_of(seed_000_hand()), PrintOptions("receipt")))
    lines = text.splitlines()
    assert lines[0] == "Table 7 · hand 57"
    assert lines.index("Settlement") < 6 < lines.index("Events and payments")
    assert lines[lines.index("Settlement") + 1] == "Seat 1 Ana (in): +46 chips (+$23.00)"
