"""Disputes on the documents: the hand slip lists its hand's, the session and shift reports
count theirs and list each one with its ruling (read back with pypdf)."""

from __future__ import annotations

from tests.helpers import Api
from tests.reports.evening import one_line, pdf_text
from tests.reports.test_routes import fetch, window


def test_the_slip_and_the_reports_list_disputes_with_their_rulings(api: Api, floor: Api) -> None:
    table = floor.table("cardroom", name="Table 3")["id"]
    session = api.post(f"/tables/{table}/sessions", status=201)["id"]
    for seat in (1, 2, 3):
        api.seat(table, seat, f"P{seat}", 50)
    hand = api.hand(table)["id"]
    melded = api.event(hand, {"type": "meld", "seat": 1, "cards": ["KS", "KS", "KS"]})
    entry = melded["payments"][0]["entry"]
    ruled = api.post(
        f"/hands/{hand}/disputes",
        {"raised_by": "seat", "seat": 2, "claim": "Paid for kings twice", "entry": entry},
        status=201,
    )
    void = api.event(hand, {"type": "void", "event": melded["event"]["id"], "reason": "twice"})
    floor.post(
        f"/disputes/{ruled['id']}/ruling",
        {"outcome": "upheld", "reason": "Voided the kings", "void_event": void["event"]["id"]},
        status=201,
    )
    api.post(
        f"/hands/{hand}/disputes", {"raised_by": "dealer", "claim": "Count the pot"}, status=201
    )

    slip = one_line(pdf_text(fetch(api, f"/reports/hands/{hand}.pdf").data))
    assert "disputes 2 (1 open)" in slip
    assert "Disputes (2, 1 open)" in slip
    # Who raised it and the payment in words, as the screens say it: no internal id printed.
    said = (
        "P2, seat 2: the 2 chips paid to seat 1 (P1) for set of kings in spades (K♠ K♠ K♠): "
        "Paid for kings twice"
    )
    assert said in slip
    assert "UPHELD: Voided the kings" in slip
    assert "led to the void of #3" in slip
    assert f"(ledger entry {entry})" not in slip and f"(event {void['event']['id']})" not in slip
    assert "ruled by Sam" in slip and "opened by Dee" in slip
    assert "the dealer: Count the pot" in slip and "OPEN: awaiting a supervisor's ruling" in slip

    report = one_line(pdf_text(fetch(api, f"/reports/sessions/{session}.pdf").data))
    assert "disputes 2 (1 open)" in report
    assert "Table 3 hand 1" in report and said in report
    assert f"(ledger entry {entry})" not in report

    shift = one_line(pdf_text(fetch(floor, f"/reports/shift.pdf?{window()}").data))
    assert "disputes 1 open, 1 ruled" in shift  # the summary's line
    assert "UPHELD: Voided the kings" in shift
    assert said in shift and f"(ledger entry {entry})" not in shift


def test_a_hand_with_no_dispute_says_so(api: Api, floor: Api) -> None:
    table = floor.table("cardroom")["id"]
    for seat in (1, 2):
        api.seat(table, seat, f"P{seat}", 50)
    hand = api.hand(table)["id"]
    slip = one_line(pdf_text(fetch(api, f"/reports/hands/{hand}.pdf").data))
    assert "disputes none" in slip  # the summary says so; no empty section on a one-page slip
    assert "Disputes" not in slip
