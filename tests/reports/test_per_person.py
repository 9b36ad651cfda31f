"""Right per person: the shift ledger's per-player figures follow who the player is, not the
name; a print is counted only once its document is built; a bad setting is refused at start."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import Flask

from dealer import create_app
from dealer.config import BadSetting, check_settings
from dealer.reports import routes
from tests.helpers import Api
from tests.reports.evening import pdf_text
from tests.reports.test_routes import fetch, window


def test_two_players_of_one_name_are_apart_with_their_own_totals(api: Api, floor: Api) -> None:
    t1 = floor.table("classic", name="Table 1", chip_value_cents=100)["id"]
    t2 = floor.table("classic", name="Table 2", chip_value_cents=100)["id"]
    kims = [
        floor.post("/players", {"name": "Kim", "card_number": card}, status=201)["id"]
        for card in ("K-1", "K-2")
    ]
    for seat, (kim, buy_in) in enumerate(zip(kims, (300, 50), strict=True), start=1):
        body = {"seat": seat, "player_id": kim, "buy_in": buy_in}
        api.post(f"/tables/{t1}/seats", body, status=201)
    api.seat(t1, 3, "Ana", 70)  # not registered, at two tables
    api.seat(t2, 1, "Ana", 40)
    api.seat(t2, 2, "Bo", 20)
    text = pdf_text(fetch(floor, f"/reports/shift.pdf?{window()}").data)
    assert re.search(r"Kim \(card K-1\)\nTable 1\n0\n300 chips \(\$300.00\)", text)
    assert re.search(r"Kim \(card K-2\)\nTable 1\n0\n50 chips \(\$50.00\)", text)
    assert re.search(r"Ana \(seat 3, not registered\)\nTable 1\n0\n70 chips \(\$70.00\)", text)
    assert re.search(r"Ana \(seat 1, not registered\)\nTable 2\n0\n40 chips \(\$40.00\)", text)
    assert re.search(r"\nBo\nTable 2\n", text)  # a name no one else has is just the name
    assert "350 chips" not in text and "110 chips" not in text  # never one merged row


def test_a_failed_build_counts_nothing_and_the_next_copy_is_the_original(
    api: Api, floor: Api, people: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = floor.table("classic", name="Table 1")["id"]
    for seat in (1, 2, 3):
        api.seat(table, seat, f"P{seat}", 50)
    hand = api.hand(table)["id"]
    people.config["REPORT_PAGE_SIZE"] = "legal"  # changed behind the app's back
    refused = fetch(floor, f"/reports/hands/{hand}.pdf", status=503).get_json()["error"]
    assert refused["code"] == "not_configured" and "letter or A4" in refused["message"]
    people.config["REPORT_PAGE_SIZE"] = "A4"

    def broken(*args: object) -> bytes:
        raise RuntimeError("the build fell over")

    monkeypatch.setattr(routes, "hand_slip_pdf", broken)
    with pytest.raises(RuntimeError):
        floor.client.get(f"/reports/hands/{hand}.pdf", headers=floor.headers(None))
    monkeypatch.undo()
    first = fetch(floor, f"/reports/hands/{hand}.pdf")
    assert first.headers["Content-Disposition"] == f'inline; filename="hand-slip-{hand}.pdf"'
    assert "REPRINT" not in pdf_text(first.data)
    again = fetch(floor, f"/reports/hands/{hand}.pdf")
    assert "REPRINT 1" in pdf_text(again.data)


def test_settings_are_checked_at_start_in_any_case(tmp_path: Path) -> None:
    uri = f"sqlite:///{tmp_path / 'dealer.sqlite3'}"
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": uri, "REPORT_PAGE_SIZE": "a4"})
    assert app.config["REPORT_PAGE_SIZE"] == "A4"
    config: dict[str, object] = {"REPORT_PAGE_SIZE": " LETTER ", "TIMEZONE": "america/new_york"}
    check_settings(config)
    assert config["REPORT_PAGE_SIZE"] == "letter"
    assert config["TIMEZONE"] == "America/New_York"
    for name, value, words in (
        ("REPORT_PAGE_SIZE", "legal", "letter or A4"),
        ("REPORT_CURRENCY", "dollars!", "1 to 5 characters"),
        ("TIMEZONE", "Mars/Olympus", "no time zone"),
        ("SHIFT_STARTS", "6am", "times of day"),
    ):
        with pytest.raises(BadSetting, match=words):
            check_settings({name: value})
    with pytest.raises(BadSetting, match="REPORT_PAGE_SIZE is 'legal'"):
        create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": uri, "REPORT_PAGE_SIZE": "legal"})
