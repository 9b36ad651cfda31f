"""The shift ledger's first page: the figures a manager checks first, each equal to the sums
of the ledger's own entries (read through the API)."""

from __future__ import annotations

import re
from typing import Any

from dealer.reports.figures import amount_text, chips_text
from dealer.views.documents.shift_tally import Amount
from tests.helpers import Api
from tests.reports.evening import Evening, one_line, pdf_text
from tests.reports.test_routes import VALUE, fetch, window


def sums(entries: list[dict[str, Any]]) -> dict[str, int]:
    """What the summary adds up for one table, from its ledger entries."""
    out = dict.fromkeys(("collected", "rake", "returned", "buy_ins", "cash_outs"), 0)
    for e in entries:
        if e["to"] == "house":
            out["rake" if e["rule"] == "rake" else "collected"] += e["chips"]
        if e["from"] == "house":
            out["returned"] += e["chips"]
        if e["from"] == "cage":
            out["buy_ins"] += e["chips"]
        if e["to"] == "cage":
            out["cash_outs"] += e["chips"]
    out["drop"] = out["collected"] + out["rake"] - out["returned"]
    return out


def test_the_first_page_holds_the_summary_and_it_equals_the_ledgers_sums(
    evening: Evening,
    floor: Api,
) -> None:
    pages = pdf_text(fetch(floor, f"/reports/shift.pdf?{window()}").data).split("\nPage ")
    first = pages[0]
    total = {k: Amount() for k in ("drop", "buy_ins", "cash_outs", "collected")}
    for name, table in (("Table 7", evening.table7), ("Table 9", evening.table9)):
        value = VALUE[name]
        found = sums(floor.get(f"/tables/{table}/ledger")["entries"])
        for key in total:
            total[key] += Amount.of(found[key], value)
        row = "\n".join(
            chips_text(found[k], value) for k in ("collected", "rake", "returned", "drop")
        )
        assert re.search(rf"{name}\n\d+\n\d+ / \d+\n\d+\n{re.escape(row)}\n", first), name
        cash = f"{name}\n{chips_text(found['buy_ins'], value)}\n"
        assert cash + chips_text(found["cash_outs"], value) in first
    assert total["drop"] == Amount(12, 1200) and total["buy_ins"] == Amount(1200, 90000)
    flat = one_line(first)
    assert f"house drop {amount_text(total['drop'])}" in flat
    assert f"collected {amount_text(total['collected'])}" in flat
    assert f"cash in (buy-ins) {amount_text(total['buy_ins'])}" in flat
    assert f"cash out (cash-outs) {amount_text(total['cash_outs'])}" in flat
    assert "hands dealt 5 (1 void)" in flat and "disputes 0 open, 0 ruled" in flat
    verify = floor.get("/ledger/verify")
    assert f"chain check OK over {verify['entries']} entries" in flat
    assert re.search(r"checkpoint link \d+, checked", flat)
    # By dealer: Dee dealt all five hands (table 9's session opened by dealing).
    assert re.search(r"Dee\nTable 7, Table 9\n5\n12 chips \(\$12.00\)", first)
    assert "Appendix: every hand" not in first


def test_the_hands_can_be_left_out(evening: Evening, floor: Api) -> None:
    text = pdf_text(fetch(floor, f"/reports/shift.pdf?{window()}&hands=none").data)
    assert "Left out of this copy" in text and "\nSettled\n" not in text
    refused = fetch(floor, f"/reports/shift.pdf?{window()}&hands=some", status=422)
    assert "hands is all or none" in refused.get_json()["error"]["message"]
