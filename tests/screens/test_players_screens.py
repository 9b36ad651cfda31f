"""Players on the screens: seating a known player or a new one from the seat form, the old
way (a name alone) still works, and a supervisor reads a player's statement and its PDF."""

from __future__ import annotations

import csv
import io
import re

from tests.helpers import Api
from tests.reports.evening import one_line, pdf_text
from tests.screens.conftest import Web, words


def hidden(page: str, action: str) -> dict[str, str]:
    form = re.search(rf'<form[^>]*action="{re.escape(action)}".*?</form>', page, re.S)
    assert form is not None, action
    return {
        k: v
        for k, v in re.findall(r'<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"', form.group(0))
        if k in ("csrf_token", "key", "page", "seat")
    }


def seat_by_form(web: Web, table: int, seat: int, **given: str) -> None:
    page = web.get(f"/tables/{table}/seats/{seat}")
    assert 'data-player-search="/api/v1/players"' in page
    action = f"/tables/{table}/seats"
    web.post(action, {**hidden(page, action), "buy_in": "100", **given})


def test_a_known_player_a_new_player_and_a_name_alone_found_or_made(
    dealer: Web, supervisor: Web, floor_api: Api
) -> None:
    ann = floor_api.post("/players", {"name": "Ann Lee", "card_number": "77"}, status=201)
    table = floor_api.table("classic")["id"]
    seat_by_form(dealer, table, 1, player="Ann Lee", player_id=str(ann["id"]))
    seat_by_form(dealer, table, 2, player="Bo Diddley", player_id="new")
    seat_by_form(dealer, table, 3, player="Walk-in")
    seat_by_form(dealer, table, 4, player="ann lee")  # a name alone finds the player
    seats = floor_api.get(f"/tables/{table}")["seats"]
    assert seats["1"]["player_id"] == ann["id"]
    assert seats["4"]["player_id"] == ann["id"]
    bo = floor_api.get("/players?q=Bo")["players"]
    assert [p["name"] for p in bo] == ["Bo Diddley"]
    assert seats["2"]["player_id"] == bo[0]["id"]
    # A name nobody has: the player is made, so the players fill as the floor plays.
    walk_in = floor_api.get("/players?q=Walk-in")["players"]
    assert [p["name"] for p in walk_in] == ["Walk-in"]
    assert seats["3"]["player_id"] == walk_in[0]["id"] and seats["3"]["player"] == "Walk-in"
    # The seat screen links a supervisor to the player's statement.
    assert f'href="/players/{ann["id"]}"' in supervisor.get(f"/tables/{table}/seats/1")
    assert f'href="/players/{ann["id"]}"' not in dealer.get(f"/tables/{table}/seats/1")

    # players.csv: the real player id where there is one (0 otherwise).
    export = floor_api.client.get("/exports/players.csv", headers=floor_api.headers(None))
    rows = {r["player_nickname"]: r for r in csv.DictReader(io.StringIO(export.text))}
    assert rows["Ann Lee"]["player_id"] == str(ann["id"])
    assert rows["Bo Diddley"]["player_id"] == str(bo[0]["id"])
    assert rows["Walk-in"]["player_id"] == str(walk_in[0]["id"])


def test_a_refused_choice_says_why_and_seats_nobody(dealer: Web, floor_api: Api) -> None:
    table = floor_api.table("classic")["id"]
    page = dealer.get(f"/tables/{table}/seats/1")
    action = f"/tables/{table}/seats"
    answer = dealer.post(
        action,
        {**hidden(page, action), "buy_in": "10", "player": "X", "player_id": "999"},
        status=404,
    )
    assert "There is no player 999." in words(answer.get_data(as_text=True))
    assert floor_api.get(f"/tables/{table}")["seats"] == {}


def test_a_supervisor_reads_a_statement_on_screen_and_as_a_pdf(
    supervisor: Web, dealer: Web, floor_api: Api
) -> None:
    ann = floor_api.post("/players", {"name": "Ann"}, status=201)
    table = floor_api.table("classic", chip_value_cents=25)["id"]
    floor_api.post(
        f"/tables/{table}/seats", {"seat": 1, "player_id": ann["id"], "buy_in": 80}, status=201
    )
    for seat in range(2, 5):
        floor_api.seat(table, seat, f"P{seat}")
    hand = floor_api.hand(table)["id"]
    floor_api.event(hand, {"type": "meld", "seat": 1, "cards": ["5S"] * 3})
    figures = floor_api.get(f"/players/{ann['id']}/statement")
    assert figures["net"] == 12 and figures["buy_ins"] == 80

    assert f'href="/players/{ann["id"]}"' in supervisor.get(f"/hands/{hand}")
    assert f'href="/players/{ann["id"]}"' not in dealer.get(f"/hands/{hand}")
    text = words(supervisor.get(f"/players/{ann['id']}"))
    assert "Bought in 80" in text
    assert "Won or lost at play +12" in text
    assert "hand 1 1" in text and "+12" in text
    assert "Ann" in words(supervisor.get("/players?q=an"))
    # Their payments, one tap away: the search by the player record, over the last week.
    page = supervisor.get(f"/players/{ann['id']}")
    (link,) = re.findall(r'href="(/payments\?[^"]+)"', page)
    found = words(supervisor.get(link.replace("&amp;", "&")))
    assert f"Player record #{ann['id']}" in found
    assert "seat 1 (Ann)" in found and "Any player" in found
    dealer.get(f"/players/{ann['id']}", status=403)
    refused = supervisor.get(f"/players/{ann['id']}?from=yesterday", status=422)
    assert "is not an ISO 8601 time" in words(refused)

    pdf = floor_api.client.get(f"/reports/players/{ann['id']}.pdf", headers=floor_api.headers(None))
    assert pdf.status_code == 200
    flat = one_line(pdf_text(pdf.data))
    assert "Player statement" in flat
    # Chips and their money, as every document gives them (a chip is 25 cents here).
    assert "bought in 80 chips ($20.00)" in flat
    assert "won or lost at play +12 chips (+$3.00)" in flat
    assert "Table 1 hand 1" in flat and "+12 (+$3.00)" in flat
