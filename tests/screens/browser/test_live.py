"""Live screens in the browser: what one tablet records shows on another within 2 s, and
nothing the other's dealer is typing is lost."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.screens.browser.conftest import LiveServer, Tablet, _tablet
from tests.screens.browser.test_screens import history_count, table_with_hand, tap_cards

pytestmark = pytest.mark.browser


@pytest.fixture
def other_tablet(browser: Any, live: LiveServer) -> Iterator[Tablet]:
    """A second tablet (its own cookies), in portrait."""
    yield from _tablet(browser, live, "portrait")


def test_a_meld_on_one_tablet_shows_on_another_while_it_types(
    tablet: Tablet, other_tablet: Tablet
) -> None:
    world = table_with_hand(tablet.live)
    hand = f"/hands/{world['hand']}"
    tablet.sign_in("dealer")
    tablet.go(hand)
    other_tablet.sign_in("supervisor")
    other_tablet.go(hand)
    watcher = other_tablet.page
    before = history_count(other_tablet)
    # The other dealer has started typing an entry of their own.
    watcher.click("#cards")
    watcher.keyboard.type("7D 7D")

    tablet.page.tap(".seat-picker [data-pick-seat='1']")
    tap_cards(tablet, "5S 5S 5S")
    tablet.page.tap("button[data-action=meld]")
    tablet.wait_banner("meld")
    recorded = time.monotonic()

    watcher.wait_for_function(
        "n => document.querySelectorAll('.events > li').length > n", arg=before, timeout=2_000
    )
    seen_after = time.monotonic() - recorded
    assert seen_after < 2.0
    assert "5♠" in other_tablet.text("[data-seat-panel='1'] .melds")
    # What they typed is still there, and still where they type.
    assert watcher.input_value("#cards") == "7D 7D"
    assert watcher.evaluate("document.activeElement.id") == "cards"


def test_the_floor_flags_a_short_stack_seated_elsewhere(tablet: Tablet) -> None:
    world = table_with_hand(tablet.live, seats=2)
    tablet.sign_in("supervisor")
    tablet.go("/floor")
    row = f"[data-flags='{world['table']}']"
    assert "short" not in tablet.text(row)
    tablet.page.fill("#name", "Typed table name")
    world["api"].seat(world["table"], 3, "Short Sam", 1)
    tablet.page.wait_for_function(
        "sel => document.querySelector(sel).textContent.includes('1 short stack')",
        arg=row,
        timeout=2_000,
    )
    assert tablet.page.input_value("#name") == "Typed table name"
