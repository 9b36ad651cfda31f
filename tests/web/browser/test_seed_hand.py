"""Seed 000's whole hand at the tablet, by tapping: open, seat six, drop, three melds, go out."""

from __future__ import annotations

import re

import pytest

from tests.web.browser.conftest import Tablet

pytestmark = pytest.mark.browser


def tap_cards(tablet: Tablet, cards: str) -> None:
    for card in cards.split():
        tablet.page.tap(f'[data-pad] [data-card="{card}"]')


def test_seed_000_by_tapping_the_card_pad(any_tablet: Tablet) -> None:
    """Does tapping through seed 000 end with +46, -11 x4 and -2 on screen, at both sizes?"""
    tablet, page = any_tablet, any_tablet.page
    tablet.sign_in("supervisor")
    assert page.url.endswith("/floor")
    tablet.shot("01-floor-empty")
    assert not page.is_visible("[data-california]")
    page.check("#collection-3")
    assert page.is_visible("[data-california]")
    assert "not allowed in California card rooms" in tablet.text("[data-california]")
    tablet.shot("01b-floor-rake-warning")
    page.check("#collection-0")

    name = f"Seed table {tablet.size}"
    page.fill("#name", name)
    page.check("#profile-0")
    page.fill("#chip_value_cents", "25")
    page.tap("button:has-text('Open the table')")
    page.wait_for_url(re.compile(r"/tables/\d+"))
    tablet.shot("02-table-new")

    for seat in range(1, 7):
        page.tap(f".chair.pos-{seat} a")
        page.wait_for_url(re.compile(rf"/seats/{seat}$"))
        if seat == 1:
            tablet.shot("03-seat-empty")
        page.fill("#player", f"Player {seat}")
        page.fill("#buy_in", "100")
        page.tap("button:has-text('Seat the player')")
        page.wait_for_url(re.compile(r"/tables/\d+$"))
    assert tablet.text(".chair.pos-6").startswith("Seat 6 Player 6 100 chips")
    tablet.shot("04-table-six-seated")

    page.tap("text=Deal hand 1")
    page.tap("label.toggle:has-text('Seat 5')")
    assert page.is_checked("input[name=dropped][value='5']")
    tablet.shot("05-deal-stay-or-drop")
    page.tap("button:has-text('Deal')")
    page.wait_for_url(re.compile(r"/hands/\d+\?done="))
    assert "dropped" in tablet.text("[data-seat-panel='5'] .seat-status")
    tablet.shot("06-hand-dealt")

    page.tap(".seat-picker [data-pick-seat='1']")
    tap_cards(tablet, "5S")
    page.tap("[data-pad-again]")
    page.tap("[data-pad-again]")
    assert page.input_value("#cards") == "5S 5S 5S"
    tablet.shot("07-hand-cards-entered")
    page.tap("button[data-action=meld]")
    said = tablet.wait_banner("Seat 1 melds 5S 5S 5S.")
    assert "each pay seat 1 (Player 1) 4 chips" in said
    assert "valle set in spades" in said
    tablet.shot("08-hand-first-meld")

    for cards in ("JH QH KH", "2C 3C 4C 5C 6C"):
        tap_cards(tablet, cards)
        page.tap("button[data-action=meld]")
        tablet.wait_banner(f"Seat 1 melds {cards}.")
    assert tablet.text("[data-seat-panel='1'] .down").startswith("11/11")
    tablet.shot("09-hand-eleven-down")

    page.tap("button[data-action=go_out]")
    page.wait_for_url(re.compile(r"/settle\?seat=1"))
    rows = settlement_rows(tablet)
    assert rows[1][:6] == ["+4", "+20", "+2", "0", "+26", "+46"]
    assert rows[2][:6] == ["-1", "-5", "0", "0", "-6", "-11"]
    assert rows[5][5] == "-2"
    tablet.shot("10-settlement-preview")

    page.tap("button:has-text('Confirm: seat 1 goes out')")
    page.wait_for_url(re.compile(r"/hands/\d+\?done=\d+"))
    nets = {
        seat: plain(page.inner_text(f"[data-seat-panel='{seat}'] [data-net]"))
        for seat in range(1, 7)
    }
    stacks = {
        seat: int(page.inner_text(f"[data-seat-panel='{seat}'] [data-stack]"))
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
    tablet.shot("11-hand-settled")

    page.tap(f"h1 a:has-text('{name}')")
    assert tablet.text(".chair.pos-1").startswith("Seat 1 Player 1 146 chips")
    assert tablet.text(".chair.pos-5").startswith("Seat 5 Player 5 98 chips")
    tablet.shot("12-table-after-hand")


def settlement_rows(tablet: Tablet) -> dict[int, list[str]]:
    """The settlement table: seat -> its figures (going out ... hand net, stack after)."""
    out = {}
    for row in tablet.page.locator("[data-settlement] tbody tr").all():
        seat = int(row.get_attribute("data-seat") or 0)
        out[seat] = [plain(td) for td in row.locator("td").all_inner_texts()]
    return out


def plain(figure: str) -> str:
    """A figure as shown (with a typographic minus sign) in plain ASCII."""
    return " ".join(figure.replace("\u2212", "-").split())
