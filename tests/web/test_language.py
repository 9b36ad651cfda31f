"""Each request speaks the language chosen for it: the signed-in person's own, else the
tablet's, else the browser's Accept-Language, else the floor's default; the same for a screen,
the API and a document. A page says its language, a PDF its /Lang, and a player's statement and
slips come in the player's language."""

from __future__ import annotations

import io
import re

import pytest
from flask import Flask
from pypdf import PdfReader

from tests.helpers import Api
from tests.screens.conftest import Web
from tests.words.small_catalogues import small_catalogues  # noqa: F401  (the fixture)

SPANISH = {"Accept-Language": "es-MX,es;q=0.9,en;q=0.5"}

pytestmark = pytest.mark.usefixtures("small_catalogues")


def spoken(web: Web, headers: dict[str, str] | None = None) -> tuple[str, str]:
    """The language a page says it is in, and how it says "Sign out"."""
    answer = web.client.get("/tables", headers=headers or {})
    assert answer.status_code == 200
    html = answer.get_data(as_text=True)
    lang = re.search(r'<html lang="([^"]+)"', html)
    out = re.search(
        r'<button type="submit" class="quiet">([^<]*)</button>\s*</form>\s*</div>', html
    )
    assert lang is not None and out is not None
    return lang.group(1), out.group(1)


def choose(web: Web, action: str, code: str) -> None:
    web.post(action, {"language": code, "page": "/tables"})


def test_the_person_beats_the_tablet_beats_the_browser_beats_the_floor(people: Flask) -> None:
    sam, ada = Web.sign_in(people, "supervisor"), Web.sign_in(people, "admin")
    assert spoken(sam) == ("en", "Sign out")  # the floor's default
    assert spoken(sam, SPANISH) == ("es", "Cerrar sesión")  # the browser's
    sam.post("/floor/devices", {"name": "Table 4 tablet"})  # this tablet, registered
    device = re.search(r'data-device="(\d+)"', sam.get("/floor/devices"))
    assert device is not None
    choose(sam, f"/floor/devices/{device.group(1)}/language", "fil")
    assert spoken(sam, SPANISH) == ("fil", "Mag-sign out")  # the tablet's
    chosen = sam.client.post("/prefs/language", data={"language": "es", "page": "/tables"})
    assert "Elegido: Español." in sam.follow(chosen)  # said in the language just chosen
    assert spoken(sam) == ("es", "Cerrar sesión")  # Sam's own
    sam_id = next(
        u["id"] for u in Api.sign_in(people, "admin").get("/users")["users"] if u["name"] == "Sam"
    )
    choose(ada, f"/floor/people/{sam_id}/language", "")  # an admin takes it back
    assert spoken(sam, SPANISH) == ("fil", "Mag-sign out")
    assert spoken(ada, SPANISH) == ("es", "Cerrar sesión")  # Ada's tablet is not Sam's
    offered = ada.get("/floor/people")
    for code, name in (("es", "Español"), ("fil", "Filipino"), ("en", "English")):
        assert f'<option value="{code}" lang="{code}">{name}</option>' in offered


def test_the_api_speaks_the_persons_language_else_the_browsers(people: Flask) -> None:
    nobody = people.test_client()
    answer = nobody.get("/api/v1/nowhere", headers={"Accept-Language": "fil"})
    assert answer.status_code == 404
    assert answer.get_json()["error"]["message"] == "Walang laman ang address na ito."
    dee = Api.sign_in(people, "dealer")
    choose(Web.sign_in(people, "dealer"), "/prefs/language", "es")
    answer = dee.call("GET", "/nowhere", headers={"Accept-Language": "fil"})
    assert answer.get_json()["error"]["message"] == "No hay nada en esta dirección."
    users = Api.sign_in(people, "admin").get("/users")["users"]
    assert {u["name"]: u["language"] for u in users}["Dee"] == "es"


def test_a_language_not_shipped_is_refused_and_changes_nothing(people: Flask) -> None:
    dee = Web.sign_in(people, "dealer")
    choose(dee, "/prefs/language", "xx")
    assert spoken(dee) == ("en", "Sign out")
    users = Api.sign_in(people, "admin").get("/users")["users"]
    assert {u["name"]: u["language"] for u in users}["Dee"] is None


def pdf_of(data: bytes) -> tuple[str, str]:
    reader = PdfReader(io.BytesIO(data))
    return reader.trailer["/Root"]["/Lang"], "\n".join(p.extract_text() for p in reader.pages)


def test_a_players_statement_and_slips_come_in_the_players_language(people: Flask) -> None:
    floor = Api.sign_in(people, "supervisor")
    table = floor.table()["id"]
    rosa = floor.post("/players", {"name": "Rosa"}, status=201)["id"]
    floor.post(f"/tables/{table}/seats", {"seat": 1, "player_id": rosa, "buy_in": 50}, status=201)
    floor.seat(table, 2, "Walk-in", 50)
    choose(Web.sign_in(people, "supervisor"), f"/players/{rosa}/language", "es")
    hand = floor.hand(table)["id"]
    slips = {
        (seat, paper): floor.client.get(
            f"/reports/hands/{hand}/seats/{seat}/statement.pdf?paper={paper}",
            headers=floor.headers(None),
        )
        for seat in (1, 2)
        for paper in ("page", "receipt")
    }
    for (seat, paper), answer in slips.items():
        assert answer.status_code == 200, (seat, paper, answer.get_data(as_text=True))
        lang, text = pdf_of(answer.get_data())
        assert (lang, "fichas" in text) == (("es", True) if seat == 1 else ("en", False))
    statement = floor.client.get(f"/reports/players/{rosa}.pdf", headers=floor.headers(None))
    assert pdf_of(statement.get_data())[0] == "es"


def test_the_api_keeps_a_new_players_and_persons_language(people: Flask) -> None:
    floor, ada = Api.sign_in(people, "supervisor"), Api.sign_in(people, "admin")
    rosa = floor.post("/players", {"name": "Rosa", "language": "es"}, status=201)
    assert rosa["language"] == "es"
    assert floor.get(f"/players/{rosa['id']}")["language"] == "es"
    person = {"name": "Lito", "role": "dealer", "pin": "2468", "language": "fil"}
    assert ada.post("/users", person, status=201)["language"] == "fil"
    refused = floor.call("POST", "/players", {"name": "Nena", "language": "xx"}, status=422)
    assert refused.get_json()["error"]["code"] == "unknown_language"
    assert "Choose one of the languages shown" in refused.get_json()["error"]["message"]
    assert floor.get("/players?q=Nena")["players"] == []


def test_figures_and_days_are_written_as_the_readers_language_writes_them(people: Flask) -> None:
    """A statement of 12,000 chips bought in, on screen and printed: Spanish groups with a
    point and writes the day first, Filipino as English groups and month first; English keeps
    the house's ISO day."""
    floor = Api.sign_in(people, "supervisor")
    table = floor.table(max_buy_in=20000, approval_above=20000)["id"]
    rosa = floor.post("/players", {"name": "Rosa"}, status=201)["id"]
    floor.post(
        f"/tables/{table}/seats", {"seat": 1, "player_id": rosa, "buy_in": 12000}, status=201
    )
    day = floor.get(f"/players/{rosa}/statement")["days"][0]["day"]  # ISO, in every language
    year, month, date = (int(part) for part in day.split("-"))
    sam = Web.sign_in(people, "supervisor")
    expected = {
        "es": ("12.000", f"{date}/{month}/{year}"),
        "fil": ("12,000", f"{month}/{date}/{year}"),
        "en": ("12,000", day),
    }
    for code, (figure, written) in expected.items():
        page = sam.client.get(f"/players/{rosa}", headers={"Accept-Language": code})
        html = page.get_data(as_text=True)
        assert f'data-figure="buy_ins">{figure}<' in html, code
        assert f"<tr><td>{written}</td><td>{figure}</td>" in html, code
    choose(sam, f"/players/{rosa}/language", "es")
    printed = floor.client.get(f"/reports/players/{rosa}.pdf", headers=floor.headers(None))
    text = pdf_of(printed.get_data())[1]
    assert "12.000" in text and f"{date}/{month}/{year}" in text
    assert "12,000" not in text and day not in text
