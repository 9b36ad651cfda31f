"""The dealer's flow in the browser: the next hand in one tap, the last entry undone in two."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.html_check import take
from tests.screens.browser.conftest import LANDSCAPE, LiveServer, Tablet
from tests.screens.browser.test_screens import table_with_hand

pytestmark = pytest.mark.browser

SEED = (["5S", "5S", "5S"], ["JH", "QH", "KH"], ["2C", "3C", "4C", "5C", "6C"])
BACKGROUND = "getComputedStyle(document.body).backgroundColor"
#: The dark theme's paper (static/app.css, room mode).
DARK = "rgb(20, 23, 26)"


def test_the_next_hand_in_one_tap(tablet: Tablet) -> None:
    """A settled hand: one tap on "Deal the next hand" deals it, every seat staying."""
    world = table_with_hand(tablet.live, dropped=[5])
    for cards in SEED:
        world["api"].event(world["hand"], {"type": "meld", "seat": 1, "cards": cards})
    world["api"].event(world["hand"], {"type": "go_out", "seat": 1})
    tablet.sign_in("supervisor")
    tablet.go(f"/hands/{world['hand']}")
    page = tablet.page
    page.tap("[data-deal-next]")
    page.wait_for_url(re.compile(r"/hands/\d+\?done="))
    assert f"/hands/{world['hand']}?" not in page.url
    assert "hand 2" in tablet.text("h1")
    assert all(
        tablet.text(f"[data-seat-panel='{seat}'] .seat-status") == "in" for seat in range(1, 7)
    )


def test_undo_the_last_entry_in_two_taps(tablet: Tablet) -> None:
    """A meld by the pad, then Undo and Void: the meld is gone and its chips returned."""
    world = table_with_hand(tablet.live, dropped=[5])
    tablet.sign_in("dealer")
    tablet.go(f"/hands/{world['hand']}?seat=1")
    page = tablet.page
    page.tap('[data-pad] [data-card="5S"]')
    page.tap("[data-pad-set='3']")
    page.tap("button[data-action=meld]")
    tablet.wait_banner("Seat 1 melds 5♠ 5♠ 5♠.")
    page.tap("[data-undo]")  # tap 1
    page.tap("button:has-text('Void event')")  # tap 2
    said = tablet.wait_banner("void")
    assert "Undone: entered by mistake." in said
    assert tablet.text("[data-seat-panel='1'] .down").startswith("0/11")
    assert tablet.text("[data-seat-panel='2'] [data-net]") == "0"


def test_the_seed_hand_by_keys_alone(tablet: Tablet) -> None:
    """Seed 000 and an addition without touching the screen: 1, the cards, Enter (three
    melds, the seat kept); Esc, 2, a set, L for its meld, a card, Enter (an addition); Esc,
    1, G, Enter on the settlement. Esc always lands on the pad, never in Cards."""
    world = table_with_hand(tablet.live, dropped=[5])
    tablet.sign_in("supervisor")
    tablet.go(f"/hands/{world['hand']}")
    page, keys = tablet.page, tablet.page.keyboard
    keys.press("1")
    for cards in ("5s 5s 5s", "jh qh kh", "2c 3c 4c 5c 6c"):
        keys.type(cards)
        keys.press("Enter")
        tablet.wait_banner(
            f"Seat 1 melds {cards.upper().replace('S', '♠').replace('H', '♥').replace('C', '♣')}."
        )
        assert page.evaluate("document.activeElement.id") == "cards"
    keys.press("Escape")
    assert page.evaluate("document.activeElement.hasAttribute('data-pad')")
    keys.press("2")
    keys.type("kd kd kd")
    keys.press("Enter")
    tablet.wait_banner("Seat 2 melds K♦ K♦ K♦.")
    keys.press("Escape")
    keys.press("l")
    assert tablet.text("[data-acting-meld]") == "meld KD KD KD"
    keys.press("c")
    keys.type("kd")
    keys.press("Enter")
    tablet.wait_banner("Seat 2 adds K♦ to K♦ K♦ K♦.")
    keys.press("Escape")
    keys.press("1")
    keys.press("Escape")
    keys.press("g")
    page.wait_for_url(re.compile(r"/settle\?seat=1"))
    page.wait_for_function("document.activeElement.textContent.includes('Confirm')")
    keys.press("Enter")
    tablet.wait_banner("Seat 1 goes out.")
    assert "went out" in tablet.text("[data-seat-panel='1'] .seat-status")


def test_enter_without_a_seat_says_why(tablet: Tablet) -> None:
    """Enter in Cards with no seat chosen is never silent: the note says what to do."""
    world = table_with_hand(tablet.live)
    tablet.sign_in("dealer")
    tablet.go(f"/hands/{world['hand']}")
    tablet.page.keyboard.press("c")
    tablet.page.keyboard.type("5s 5s 5s")
    tablet.page.keyboard.press("Enter")
    assert tablet.text("[data-key-note]") == (
        "Choose the seat that acts first: Esc, then its number (1-8)."
    )


def test_the_dark_theme_follows_the_device_passes_axe_and_switches(
    browser: Any, live: LiveServer
) -> None:
    """A tablet set to dark: the hand (with a banner), the table and the floor are dark and
    axe-core finds nothing serious; "Theme" then makes this tablet light whatever the device."""
    context = browser.new_context(viewport=LANDSCAPE, color_scheme="dark", has_touch=True)
    context.set_default_timeout(10_000)
    tablet, page = Tablet(context.new_page(), live, "dark"), None
    try:
        page = tablet.page
        world = table_with_hand(live, dropped=[5])
        made = world["api"].event(world["hand"], {"type": "meld", "seat": 1, "cards": SEED[0]})
        tablet.sign_in("supervisor")
        tablet.go(f"/hands/{world['hand']}?seat=1&done={made['event']['id']}")
        assert page.evaluate(BACKGROUND) == DARK
        tablet.shot("40-hand-dark", axe=True)
        tablet.go(f"/tables/{world['table']}")
        tablet.shot("41-table-dark", axe=True)
        tablet.go("/floor")
        tablet.shot("42-floor-dark", axe=True)
        page.click("[data-theme-switch]")  # device -> dark (chosen)
        page.click("[data-theme-switch]")  # dark -> light, on a dark device
        page.wait_for_selector("html[data-theme=light]")
        assert page.evaluate(BACKGROUND) != DARK
    finally:
        context.close()
    assert not take(live.app)


def test_the_acting_seat_moves_on_after_a_drop_where_the_table_is_set_so(tablet: Tablet) -> None:
    """At a table left as it is, a drop keeps its seat acting; at one a supervisor set to move
    on, the next seat in play acts after it, online and when the drop waits in the queue."""
    page = tablet.page
    stays = table_with_hand(tablet.live, dropped=[5])
    moves = table_with_hand(tablet.live, dropped=[5])
    moves["api"].call("PATCH", f"/tables/{moves['table']}", {"acting_seat": "moves_on"}, status=200)
    tablet.sign_in("dealer")
    acting = "#action-form [data-seat-field]"
    for world, after in ((stays, "3"), (moves, "4")):
        tablet.go(f"/hands/{world['hand']}")
        page.tap(".seat-picker [data-pick-seat='3']")
        page.tap("button[data-action=drop]")
        tablet.wait_banner("Seat 3 drops")
        assert page.input_value(acting) == after, world
        selected = page.locator("[data-seat-panel].is-selected")
        assert selected.get_attribute("data-seat-panel") == after
    # Cut off at the table set to move on: seat 4's drop is queued and seat 6 acts (5 dropped).
    page.context.set_offline(True)
    page.tap("button[data-action=drop]")
    page.wait_for_function("() => document.querySelectorAll('[data-pending]').length === 1")
    assert page.input_value(acting) == "6"
    page.context.set_offline(False)
    tablet.go(f"/hands/{moves['hand']}")
    page.wait_for_function("() => localStorage.getItem('dealer:queue') === '[]'")
    events = moves["api"].get(f"/hands/{moves['hand']}")["events"]
    assert [e["seat"] for e in events if e["type"] == "drop"] == [5, 3, 4]  # 5 at the deal
