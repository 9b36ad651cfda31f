"""No document shows a code: every PDF of a hand played under every knob set away from its
profile (the hand slip and a seat's statement slip, on pages and on the receipt roll, the
table's session, the shift ledger and a player's statement) is read back as text, and nothing
in it is written the way code is."""

from __future__ import annotations

from flask import Flask

from tests.helpers import Api
from tests.reports.evening import pdf_text
from tests.reports.test_routes import fetch, window
from tests.screens.test_no_codes import CODE, knobbed  # noqa: F401  (the fixture)


def every_document(floor: Api, knobbed: dict[str, int]) -> tuple[str, ...]:  # noqa: F811
    """The address of every document of the knobbed hand, as ``floor`` prints them."""
    (session, *_) = floor.get(f"/tables/{knobbed['table_id']}/sessions")["sessions"]
    hand = knobbed["hand_id"]
    return (
        f"/reports/hands/{hand}.pdf",
        f"/reports/hands/{hand}.pdf?paper=receipt",
        f"/reports/hands/{hand}/seats/1/statement.pdf?paper=receipt",
        f"/reports/hands/{hand}/seats/1/statement.pdf",
        f"/reports/hands/{hand}/seats/5/statement.pdf",
        f"/reports/sessions/{session['id']}.pdf",
        f"/reports/shift.pdf?{window()}",
        f"/reports/players/{knobbed['player_id']}.pdf",
    )


def test_no_document_shows_a_code(people: Flask, knobbed: dict[str, int]) -> None:  # noqa: F811
    floor = Api.sign_in(people, "supervisor")
    for path in every_document(floor, knobbed):
        text = pdf_text(fetch(floor, path).data).replace("\u2212", "-")
        assert len(text) > 100, path
        found = CODE.findall(text)
        assert not found, (path, found)
