"""The dispute desk at the tablet: from a settled seed-000 hand, a dealer puts seat 3's claim on
the record, the supervisor rules on it from the hand screen, and the hand slip (read back with
pypdf) carries both; and the seat form finds a player as a name is typed, or adds one."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Route

from tests.helpers import Api
from tests.reports.evening import one_line, pdf_text
from tests.reports.test_routes import fetch
from tests.screens.browser.conftest import Tablet
from tests.screens.browser.test_screens import table_with_hand

pytestmark = pytest.mark.browser

SEED = (["5S", "5S", "5S"], ["JH", "QH", "KH"], ["2C", "3C", "4C", "5C", "6C"])


def test_a_dispute_opened_and_ruled_from_the_hand_screen_is_on_the_slip(tablet: Tablet) -> None:
    world = table_with_hand(tablet.live, dropped=[5])
    api, hand = world["api"], world["hand"]
    for cards in SEED:
        api.event(hand, {"type": "meld", "seat": 1, "cards": cards})
    out = api.event(hand, {"type": "go_out", "seat": 1})
    paid = next(p for p in out["payments"] if p["from"] == "3")
    page = tablet.page

    tablet.sign_in("dealer")
    tablet.go(f"/hands/{hand}")
    page.tap(".open-dispute summary")
    page.select_option("#raised_by", "3")
    page.fill("#claim", "Seat 3 says it owed 2, not 8")
    page.select_option("#entry", str(paid["entry"]))
    tablet.shot("40-dispute-opening")
    page.tap("button:has-text('Put the dispute on record')")
    page.wait_for_selector("#dispute-1, .dispute")
    said = tablet.text("#disputes")
    assert "Player 3, seat 3: the " in said and "Seat 3 says it owed 2, not 8" in said
    assert "Awaiting a supervisor's ruling." in said

    page.context.clear_cookies()  # the supervisor takes the tablet
    tablet.sign_in("supervisor")
    tablet.go(f"/hands/{hand}")
    dispute = page.locator(".dispute").last
    # Ruling from the hand screen: two taps (the reason's field, then the outcome's button).
    dispute.get_by_label("Why").tap()
    page.keyboard.type("2 going out and 6 conditions paid again: 8 is right")
    tablet.shot("41-dispute-ruling", axe=True)
    dispute.get_by_role("button", name="Deny dispute").tap()
    page.wait_for_selector(".dispute .ruling")
    ruled = tablet.text("#disputes")
    assert "Ruled denied by Sam" in ruled
    assert "8 is right" in ruled

    slip = one_line(pdf_text(fetch(api, f"/reports/hands/{hand}.pdf").data))
    assert "Disputes (1, 0 open)" in slip
    # The dispute as the hand's screen says it: the player and the payment, no entry's seq.
    n = paid["chips"]
    paid_to = "chip paid to" if n == 1 else "chips paid to"
    assert f"Player 3, seat 3: the {n} {paid_to} seat 1 (Player 1) for " in slip
    assert ": Seat 3 says it owed 2, not 8" in slip
    assert f"(ledger entry {paid['entry']})" not in slip
    assert "DENIED: 2 going out and 6 conditions paid again: 8 is right" in slip
    assert "ruled by Sam" in slip


def test_a_player_is_found_as_you_type_or_added_in_two_taps(tablet: Tablet) -> None:
    floor = Api.sign_in(tablet.live.app, "supervisor")
    table = floor.table(name=f"Players {tablet.size}")["id"]
    known = floor.post("/players", {"name": "Annabel Known", "card_number": "A-1"}, status=201)
    page = tablet.page
    tablet.sign_in("dealer")

    tablet.go(f"/tables/{table}/seats/1")
    page.fill("#player", "Annab")
    # a dealer finds the player by name; the card number is a supervisor's to read
    match = page.locator(".player-match", has_text="Annabel Known")
    assert "A-1" not in match.inner_text()
    match.tap()
    assert page.input_value("#player") == "Annabel Known"
    assert "Player chosen: Annabel Known" in tablet.text("[data-player-chosen]")
    page.fill("#buy_in", "100")
    tablet.shot("42-seat-player-chosen", axe=True)
    page.tap("button:has-text('Seat the player')")
    page.wait_for_url(re.compile(r"/tables/\d+$"))

    tablet.go(f"/tables/{table}/seats/2")
    # The players found arrive without moving the button a finger may be about to tap: the
    # search's answer is held until the button's place is read, then let through.
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    page.route("**/api/v1/players?*", hold)
    page.fill("#player", "Zed Newcomer")
    for _ in range(250):  # the search is asked 150 ms after typing stops: 5 s at most
        if held:
            break
        page.wait_for_timeout(20)
    assert held, "the players' search was not asked"
    button = page.locator("button:has-text('Seat the player')")
    before = button.bounding_box()
    held[0].continue_()
    page.locator(".player-match", has_text="Add Zed Newcomer as a new player").wait_for()
    assert button.bounding_box() == before
    page.unroute("**/api/v1/players?*")
    page.locator(".player-match", has_text="Add Zed Newcomer as a new player").tap()
    page.fill("#buy_in", "50")
    page.tap("button:has-text('Seat the player')")
    page.wait_for_url(re.compile(r"/tables/\d+$"))

    seats = floor.get(f"/tables/{table}")["seats"]
    assert seats["1"]["player_id"] == known["id"]
    added = floor.get("/players?q=Zed Newcomer")["players"]
    assert [p["name"] for p in added] == ["Zed Newcomer"]
    assert seats["2"]["player_id"] == added[0]["id"]


def test_two_players_of_one_name_are_told_apart_by_their_player_number(tablet: Tablet) -> None:
    """Two real players may both be Rosa: the seat form offers each with their number."""
    floor = Api.sign_in(tablet.live.app, "supervisor")
    table = floor.table(name=f"Two Rosas {tablet.size}")["id"]
    first = floor.post("/players", {"name": "Rosa Twice"}, status=201)["id"]
    second = floor.post("/players", {"name": "Rosa Twice"}, status=201)["id"]
    page = tablet.page
    tablet.sign_in("dealer")
    tablet.go(f"/tables/{table}/seats/1")
    page.fill("#player", "Rosa Tw")
    page.locator(".player-match", has_text=f"Rosa Twice (player {second})").wait_for()
    offered = page.locator(".player-match").all_inner_texts()
    assert f"Rosa Twice (player {first})" in offered
    page.locator(".player-match", has_text=f"Rosa Twice (player {second})").tap()
    assert f"Player chosen: Rosa Twice (player {second})" in tablet.text("[data-player-chosen]")
