"""Seed 000's whole hand at the tablet, by tapping, at every size the console is laid out for:
open, seat six, drop, three melds, go out. Every meld is entered without scrolling: the seat
chooser, the pad and the actions stay on screen before and after each event, the page never
moves, no seat box covers another, nothing is under 44 px, and axe-core finds nothing serious
or critical on any screen visited."""

from __future__ import annotations

import re

import pytest

from tests.helpers import shown
from tests.screens.browser.conftest import Tablet
from tests.screens.browser.console import probe, tap_cards

pytestmark = pytest.mark.browser

MELDS = ("5S 5S 5S", "JH QH KH", "2C 3C 4C 5C 6C")


def assert_console(tablet: Tablet, when: str, scroll_y: float | None = None) -> dict[str, object]:
    seen = probe(tablet.page)
    where = f"{when} at {tablet.size}"
    assert seen["offscreen"] == [], f"controls off screen {where}: {seen['offscreen']}"
    assert seen["narrow"] == [], f"controls under 44 px {where}: {seen['narrow']}"
    assert seen["overlaps"] == [], f"seat boxes overlap {where}: {seen['overlaps']}"
    assert seen["sideways"] <= 0, f"the page scrolls sideways {where}"
    if scroll_y is not None:
        assert seen["scrollY"] == scroll_y, f"the page scrolled {where}"
    return seen


def test_seed_000_by_taps_at_every_size(every_size: Tablet) -> None:
    """Does tapping through seed 000 end with +46, -11 x4 and -2, every meld without a scroll?"""
    tablet, page = every_size, every_size.page
    tablet.sign_in("supervisor")
    assert page.url.endswith("/floor")
    tablet.shot("01-floor-empty", axe=True)
    page.check("#collection-3")
    assert "not allowed in California card rooms" in tablet.text("[data-california]")
    page.check("#collection-0")

    name = f"Seed table {tablet.size}"
    page.fill("#name", name)
    page.check("#profile-0")
    page.fill("#chip_value_cents", "25")
    page.tap("button:has-text('Open the table')")
    page.wait_for_url(re.compile(r"/tables/\d+"))
    tablet.shot("02-table-new", axe=True)

    for seat in range(1, 7):
        page.tap(f".chair.pos-{seat} a")
        page.wait_for_url(re.compile(rf"/seats/{seat}$"))
        if seat == 1:
            tablet.shot("03-seat-empty", axe=True)
        page.fill("#player", f"Player {seat}")
        # the players found are offered above the button: tap it once they are in place
        page.locator(".player-match").first.wait_for()
        page.fill("#buy_in", "100")
        page.tap("button:has-text('Seat the player')")
        page.wait_for_url(re.compile(r"/tables/\d+$"))
    assert tablet.text(".chair.pos-6").startswith("Seat 6 Player 6 100 chips")
    assert_console_free_table(tablet)
    tablet.shot("04-table-six-seated", axe=True)

    page.tap("text=Deal hand 1")
    page.tap("label.toggle:has-text('Seat 5')")
    assert page.is_checked("input[name=dropped][value='5']")
    tablet.shot("05-deal-stay-or-drop", axe=True)
    page.tap("button:has-text('Deal')")
    page.wait_for_url(re.compile(r"/hands/\d+\?done="))
    assert "dropped" in tablet.text("[data-seat-panel='5'] .seat-status")
    tablet.shot("06-hand-dealt", axe=True)

    for number, cards in enumerate(MELDS, 1):
        before = assert_console(tablet, f"before meld {number}")
        if number == 1:
            assert tablet.text("[data-acting]") == "Tap the seat that acts"
            page.tap(".seat-picker [data-pick-seat='1']")
        # The acting seat stays with the seat that last acted: no tap to choose it again.
        assert tablet.text("[data-acting]") == "Seat 1 Player 1"
        tap_cards(page, cards)
        assert page.input_value("#cards") == cards
        if number == 1:
            tablet.shot("07-hand-cards-entered", axe=True)
        assert_console(tablet, f"with meld {number} entered", before["scrollY"])
        page.tap("button[data-action=meld]")
        said = tablet.wait_banner(f"Seat 1 melds {shown(cards)}.")
        assert_console(tablet, f"after meld {number}", before["scrollY"])
        if number == 1:
            assert "each pay seat 1 (Player 1) 4 chips" in said
            assert "valle set in spades" in said
            tablet.shot("08-hand-first-meld", axe=True)
    assert tablet.text("[data-seat-panel='1'] .down").startswith("11/11")
    tablet.shot("09-hand-eleven-down", axe=True)

    page.tap(".seat-picker [data-pick-seat='1']")
    page.tap("button[data-action=go_out]")
    page.wait_for_url(re.compile(r"/settle\?seat=1"))
    rows = settlement_rows(tablet)
    assert rows[1][:6] == ["+4", "+20", "+2", "0", "+26", "+46"]
    assert rows[2][:6] == ["-1", "-5", "0", "0", "-6", "-11"]
    assert rows[5][5] == "-2"
    confirm = page.locator("button:has-text('Confirm: seat 1 goes out')").bounding_box()
    assert confirm["y"] + confirm["height"] <= page.viewport_size["height"], "Confirm is cut off"
    tablet.shot("10-settlement-preview", axe=True)

    page.tap("button:has-text('Confirm: seat 1 goes out')")
    page.wait_for_url(re.compile(r"/hands/\d+\?done=\d+"))
    nets = {
        seat: plain(page.inner_text(f"[data-seat-panel='{seat}'] [data-net]"))
        for seat in range(1, 7)
    }
    stacks = {
        seat: int(page.inner_text(f"[data-seat-panel='{seat}'] [data-stack]").replace(",", ""))
        for seat in range(1, 7)
    }
    assert nets == {1: "+46", 2: "-11", 3: "-11", 4: "-11", 5: "-2", 6: "-11"}
    assert {seat: stack - 100 for seat, stack in stacks.items()} == {
        1: 46,
        2: -11,
        3: -11,
        4: -11,
        5: -2,
        6: -11,
    }
    assert "went out" in tablet.text("[data-seat-panel='1'] .seat-status")
    tablet.shot("11-hand-settled", axe=True)

    page.tap(f"h1 a:has-text('{name}')")
    assert tablet.text(".chair.pos-1").startswith("Seat 1 Player 1 146 chips")
    assert tablet.text(".chair.pos-5").startswith("Seat 5 Player 5 98 chips")
    tablet.shot("12-table-after-hand", axe=True)


def assert_console_free_table(tablet: Tablet) -> None:
    """The table screen: no seat box covers another, nothing scrolls sideways."""
    seen = probe(tablet.page)
    assert seen["overlaps"] == [], f"seat boxes overlap at {tablet.size}: {seen['overlaps']}"
    assert seen["sideways"] <= 0


def settlement_rows(tablet: Tablet) -> dict[int, list[str]]:
    """The settlement, seat by seat: seat -> its figures (going out ... hand net, stack after)."""
    out = {}
    for row in tablet.page.locator("[data-settlement] > li").all():
        seat = int(row.get_attribute("data-seat") or 0)
        out[seat] = [plain(figure) for figure in row.locator("[data-money]").all_inner_texts()]
    return out


def plain(figure: str) -> str:
    """A figure as shown (with a typographic minus sign) in plain ASCII."""
    return " ".join(figure.replace("\u2212", "-").split())
