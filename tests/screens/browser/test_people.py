"""People in the browser: an admin adds a dealer who then signs in; seating by name makes the
player, whose statement the floor then finds under Players."""

from __future__ import annotations

import re
from itertools import count

import pytest

from tests.screens.browser.conftest import Tablet
from tests.screens.browser.test_screens import table_with_hand

pytestmark = pytest.mark.browser

_names = count(1)


def test_an_admin_adds_a_dealer_who_then_signs_in(tablet: Tablet) -> None:
    page, name = tablet.page, f"Rosa {next(_names)}"
    tablet.sign_in("admin")
    page.click("header a:has-text('People')")
    page.wait_for_url(re.compile(r"/floor/people$"))
    page.fill("#name", name)
    page.check("input[name=role][value=dealer]")
    page.fill("#pin", "8642")
    page.fill("#pin_again", "8642")
    page.click("button:has-text('Add')")
    page.wait_for_selector(f"[data-person='{name}']")
    tablet.shot("38-people", axe=True)
    page.click("button:has-text('Sign out')")
    page.wait_for_url(re.compile(r"/sign-in"))
    page.fill("#name", name)
    for digit in "8642":
        page.click(f'[data-pin-pad] [data-digit="{digit}"]')
    page.click("button[type=submit]:has-text('Sign in')")
    page.wait_for_selector(f"header .who-name:has-text('{name}')")
    assert f"{name} (dealer)" in tablet.text("header")


def test_seating_by_name_makes_the_player(tablet: Tablet) -> None:
    world = table_with_hand(tablet.live, seats=2)
    page, name = tablet.page, f"Walk-in {next(_names)}"
    tablet.sign_in("supervisor")
    tablet.go(f"/tables/{world['table']}/seats/3")
    page.fill("#player", name)
    page.locator(".player-match").first.wait_for()  # offered above the button
    page.fill("#buy_in", "50")
    page.click("button:has-text('Seat the player')")
    page.wait_for_url(re.compile(r"/tables/\d+$"))
    tablet.go("/players")
    page.click(f"a:has-text('{name}')")
    page.wait_for_url(re.compile(r"/players/\d+$"))
    assert name in tablet.text("h1")
