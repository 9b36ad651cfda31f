"""The hand screen at the tablet: refusals keep the entry, borrow, voids with a PIN, fits,
a dropped connection, the idle sign-out, the keyboard, Move to seat, the first run, and every
remaining screen at every size (axe-core included)."""

from __future__ import annotations

import itertools
import re
import shutil
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.helpers import Api
from tests.screens.browser.conftest import LiveServer, Tablet

pytestmark = pytest.mark.browser

SEED = [["5S", "5S", "5S"], ["JH", "QH", "KH"], ["2C", "3C", "4C", "5C", "6C"]]
_names = itertools.count(1)


def table_with_hand(
    live: LiveServer, seats: int = 6, dropped: list[int] | None = None
) -> dict[str, Any]:
    """A fresh table (through the API, on the live server's database) and a hand dealt at it."""
    floor = Api.sign_in(live.app, "supervisor")
    table = floor.table(name=f"Browser {next(_names)}", chip_value_cents=25)
    for seat in range(1, seats + 1):
        floor.seat(table["id"], seat, f"Player {seat}", 100)
    hand = floor.hand(table["id"], dropped=dropped or [])
    return {"api": floor, "table": table["id"], "hand": hand["id"]}


def tap_cards(tablet: Tablet, cards: str) -> None:
    for card in cards.split():
        tablet.page.tap(f'[data-pad] [data-card="{card}"]')


def history_count(tablet: Tablet) -> int:
    return tablet.page.locator(".events > li").count()


def test_a_refused_meld_keeps_the_cards_and_shows_the_message(any_tablet: Tablet) -> None:
    tablet, page = any_tablet, any_tablet.page
    world = table_with_hand(tablet.live)
    tablet.sign_in("dealer")
    tablet.go(f"/hands/{world['hand']}")
    page.tap(".seat-picker [data-pick-seat='2']")
    tap_cards(tablet, "6H 6H 6C")
    page.tap("button[data-action=meld]")
    page.locator(".banner-refused").wait_for()
    assert "6C 6H 6H is not a meld: a set must be all one suit" in tablet.text(".banner-refused")
    assert page.input_value("#cards") == "6H 6H 6C"
    assert page.get_attribute(".seat-picker [data-pick-seat='2']", "aria-current") == "true"
    assert page.locator("[data-entered='cards'] .card").count() == 3
    tablet.shot("20-hand-refused-meld")
    # Corrected on the pad, the same entry goes through.
    page.tap("[data-pad-back]")
    tap_cards(tablet, "6H")
    page.tap("button[data-action=meld]")
    tablet.wait_banner("Seat 2 melds 6♥ 6♥ 6♥.")


def test_a_borrow_by_tapping_the_meld(tablet: Tablet) -> None:
    """Seat 2 has 4D 5D 6D 7D; tap it, take the 7D, lay 7H 7C: a mixed valle set pays 1 each."""
    world = table_with_hand(tablet.live, seats=4)
    world["api"].event(
        world["hand"], {"type": "meld", "seat": 2, "cards": ["4D", "5D", "6D", "7D"]}
    )
    page = tablet.page
    tablet.sign_in("dealer")
    tablet.go(f"/hands/{world['hand']}")
    page.tap("[data-pick-meld]")
    assert page.get_attribute("[data-seat-panel='2']", "class").endswith("is-selected")
    assert tablet.text("[data-acting-meld]") == "meld 4D 5D 6D 7D"
    page.tap(".more-cards summary")
    page.tap("#take")
    tap_cards(tablet, "7D")
    page.tap("#cards")
    tap_cards(tablet, "7H 7C")
    assert page.input_value("#take") == "7D"
    assert page.input_value("#cards") == "7H 7C"
    tablet.shot("21-hand-borrow-entered")
    page.tap("button[data-action=borrow]")
    said = tablet.wait_banner("Seat 2 borrows")
    assert "Seat 2 borrows 7♦ from 4♦ 5♦ 6♦ 7♦ for 7♣ 7♦ 7♥." in said
    assert "each pay seat 2 (Player 2) 1 chip: mixed valle set (7♣ 7♦ 7♥)." in said
    melds = page.locator("[data-seat-panel='2'] [data-pick-meld]").all()
    assert [m.get_attribute("data-cards") for m in melds] == ["4D 5D 6D", "7C 7D 7H"]
    tablet.shot("22-hand-after-borrow")


def test_a_void_after_settlement_needs_a_supervisors_pin(any_tablet: Tablet) -> None:
    """The dealer voids the going out: the screen asks for the floor's name and PIN on the spot."""
    tablet, page = any_tablet, any_tablet.page
    world = table_with_hand(tablet.live, dropped=[5])
    for cards in SEED:
        world["api"].event(world["hand"], {"type": "meld", "seat": 1, "cards": cards})
    world["api"].event(world["hand"], {"type": "go_out", "seat": 1})
    tablet.sign_in("dealer")
    tablet.go(f"/hands/{world['hand']}")
    page.locator(".event", has_text="Seat 1 goes out").get_by_role("link", name="Void…").tap()
    page.wait_for_url(re.compile(r"/events/\d+/void$"))
    assert "A supervisor must approve this" in tablet.text("main")
    page.fill("#reason", "counted 10, not 11")
    page.fill("#supervisor_name", "Sam")
    for digit in "2222":
        page.tap(f'[data-pin-pad] [data-digit="{digit}"]')
    tablet.shot("23-void-supervisor-pin")
    page.tap("button:has-text('Void event')")
    tablet.wait_banner("Void of #6 (Seat 1 goes out): counted 10, not 11.")
    assert "in play" in tablet.text(".hand-head")
    assert "Dee, approved by Sam" in tablet.text(".events")
    tablet.shot("24-hand-reopened-after-void")


def test_fits_flags_a_discard_that_takes_a_seat_out(tablet: Tablet) -> None:
    world = table_with_hand(tablet.live, dropped=[5])
    for cards in [*SEED[:2], ["2C", "3C", "4C", "5C"]]:
        world["api"].event(world["hand"], {"type": "meld", "seat": 1, "cards": cards})
    page = tablet.page
    tablet.sign_in("dealer")
    tablet.go(f"/hands/{world['hand']}")
    page.tap("#fits")
    tap_cards(tablet, "6C")
    assert page.input_value("#fits") == "6C"
    page.tap("#fits-form button")
    page.locator(".fits-list").wait_for()
    assert "GOES OUT: seat 1 (Player 1), 2♣ 3♣ 4♣ 5♣" in tablet.text("#fits-result")
    assert page.locator(".meld.fits-out").count() == 1
    assert "discard fits: GOES OUT" in tablet.text(".meld.fits-out")
    tablet.shot("25-hand-fits-goes-out")


def test_a_dropped_connection_keeps_the_entry_and_sends_it_once_back(tablet: Tablet) -> None:
    """Cut off: the meld is kept on the tablet, pending, the Cards free for the next; the
    connection back, it is sent and recorded once."""
    world = table_with_hand(tablet.live)
    page = tablet.page
    tablet.sign_in("dealer")
    tablet.go(f"/hands/{world['hand']}?seat=1")
    before = history_count(tablet)
    tap_cards(tablet, "KD KD KD")
    page.context.set_offline(True)
    page.tap("button[data-action=meld]")
    page.locator("[data-pending]").wait_for()
    assert "Pending: " in tablet.text("#queue")
    assert page.input_value("#cards") == ""
    tablet.shot("26-hand-connection-dropped")
    page.context.set_offline(False)
    tablet.wait_banner("Seat 1 melds K♦ K♦ K♦.")
    assert history_count(tablet) == before + 1


def test_a_resend_of_a_request_already_recorded_records_nothing(tablet: Tablet) -> None:
    """The answer was lost, not the request: sent again with the same key, it gets the first
    answer and records nothing more."""
    world = table_with_hand(tablet.live)
    page = tablet.page
    tablet.sign_in("dealer")
    tablet.go(f"/hands/{world['hand']}?seat=1")
    before = history_count(tablet)
    tap_cards(tablet, "KC KC KC")
    page.route("**/events", lambda route: (route.fetch(), route.abort()))
    page.tap("button[data-action=meld]")
    page.locator("[data-pending]").wait_for()
    page.unroute("**/events")
    page.tap("#queue button:has-text('Send now')")
    tablet.wait_banner("Seat 1 melds K♣ K♣ K♣.")
    assert history_count(tablet) == before + 1


def test_the_idle_sign_out_keeps_what_was_entered(tablet: Tablet) -> None:
    world = table_with_hand(tablet.live)
    page = tablet.page
    tablet.sign_in("dealer")
    tablet.go(f"/hands/{world['hand']}")
    page.tap(".seat-picker [data-pick-seat='3']")
    tap_cards(tablet, "QS QS QS")
    page.evaluate("window.dealer.idleNow()")
    page.wait_for_url(re.compile(r"/sign-in\?next="))
    assert "Signed out after 15 minutes without a touch" in tablet.text(".notices")
    tablet.shot("27-signed-out-idle")
    tablet.sign_in("dealer", here=True)
    page.wait_for_url(lambda url: urlsplit(url).path == f"/hands/{world['hand']}")
    offer = page.locator("#kept-offer")
    offer.wait_for()
    assert "Cards: QS QS QS" in tablet.text("#kept-offer")
    tablet.shot("28-kept-entry-offered")
    page.tap("#kept-offer button:has-text('Put it back')")
    assert page.input_value("#cards") == "QS QS QS"
    assert page.get_attribute(".seat-picker [data-pick-seat='3']", "aria-current") == "true"
    assert page.is_enabled("button[data-action=meld]")
    page.tap("button[data-action=meld]")
    tablet.wait_banner("Seat 3 melds Q♠ Q♠ Q♠.")


def test_signing_out_by_hand_keeps_what_was_entered(tablet: Tablet) -> None:
    world = table_with_hand(tablet.live)
    page = tablet.page
    tablet.sign_in("dealer")
    tablet.go(f"/hands/{world['hand']}?seat=4")
    tap_cards(tablet, "JD QD KD")
    page.tap("button:has-text('Sign out')")
    page.wait_for_url(re.compile(r"/sign-in"))
    assert "Anything entered but not sent is kept on this tablet." in tablet.text(".notices")
    tablet.sign_in("dealer", here=True)
    page.wait_for_url(lambda url: urlsplit(url).path == f"/hands/{world['hand']}")
    assert "Cards: JD QD KD" in tablet.text("#kept-offer")
    page.tap("#kept-offer button:has-text('Discard it')")
    assert not page.is_visible("#kept-offer")
    assert page.input_value("#cards") == ""
    tablet.go(f"/hands/{world['hand']}")
    assert not page.is_visible("#kept-offer")


def test_without_javascript_the_hand_still_works(browser: Any, live: LiveServer) -> None:
    """Scripts off: sign in by typing, choose the seat by its link, type the cards, meld."""
    world = table_with_hand(live)
    context = browser.new_context(
        viewport={"width": 1280, "height": 800}, java_script_enabled=False
    )
    page = context.new_page()
    try:
        page.goto(live.url + f"/hands/{world['hand']}")
        page.fill("#name", "Dee")
        page.fill("#pin", "1111")
        page.click("button:has-text('Sign in')")
        page.wait_for_url(re.compile(rf"/hands/{world['hand']}$"))
        assert not page.is_visible("[data-pad]")  # the pad needs the script; typing does not
        page.click(".seat-picker [data-pick-seat='6']")
        page.wait_for_url(re.compile(r"\?seat=6$"))
        assert page.get_attribute(".seat-picker [data-pick-seat='6']", "aria-current") == "true"
        page.fill("#cards", "7s 7s 7s")
        page.click("button[data-action=meld]")
        page.wait_for_url(re.compile(r"done=\d+&seat=6$"))
        assert "Seat 6 melds 7♠ 7♠ 7♠." in page.inner_text("[data-banner]")
        page.fill("#fits", "7S")
        page.click("#fits-form button")
        page.wait_for_url(re.compile(r"fits=7S"))
        assert "✓ seat 6 (Player 6), 7♠ 7♠ 7♠" in page.inner_text("#fits-result")
    finally:
        context.close()


def test_the_dispute_view_from_a_payment(tablet: Tablet) -> None:
    world = table_with_hand(tablet.live, dropped=[5])
    world["api"].event(world["hand"], {"type": "meld", "seat": 1, "cards": SEED[0]})
    page = tablet.page
    tablet.sign_in("dealer")
    tablet.go(f"/hands/{world['hand']}")
    page.locator(".payers a", has_text="seat 3 (Player 3)").first.tap()
    page.wait_for_url(re.compile(r"/payments/2$"))
    text = tablet.text("main")
    assert "Seat 3 (Player 3) pays seat 1 (Player 1) 4 chips" in text
    assert "Conditions rule 4: When a condition is laid or grows" in text
    assert "section 4" not in text
    assert "Ledger entries" in text
    tablet.shot("29-dispute-view")


def test_the_other_screens(four_sizes: Tablet) -> None:
    """Sign-in, the dealer's tables, a seat, a void, a payment, the 403 page, four-colour suits,
    a table's settings: no sideways scroll, and nothing serious or critical for axe-core in
    either theme, at every size."""
    tablet, page = four_sizes, four_sizes.page
    world = table_with_hand(tablet.live, dropped=[5])
    meld = world["api"].event(
        world["hand"], {"type": "meld", "seat": 1, "cards": ["AD", "2D", "3D"]}
    )
    world["api"].event(world["hand"], {"type": "meld", "seat": 2, "cards": ["KC", "KC", "KC"]})
    tablet.go("/")
    tablet.shot("30-start", axe=True)
    tablet.go("/sign-in")
    tablet.shot("30-sign-in", axe=True)
    tablet.sign_in("dealer")
    assert page.url.endswith("/tables")
    tablet.shot("31-tables-pick", axe=True)
    tablet.go(f"/tables/{world['table']}/seats/2")
    tablet.shot("32-seat-in-hand", axe=True)
    tablet.go(f"/hands/{world['hand']}/events/{meld['event']['id']}/void")
    tablet.shot("32b-void", axe=True)
    tablet.go(f"/hands/{world['hand']}/events/{meld['event']['id']}/payments/1")
    tablet.shot("32c-payment", axe=True)
    tablet.go("/floor")
    assert "This screen is for a supervisor or above." in tablet.text("main")
    tablet.shot("33-forbidden", axe=True)
    tablet.go(f"/hands/{world['hand']}?seat=1")
    page.wait_for_selector("body.four-colour [data-pad]")  # four colours by default
    colours = page.evaluate(
        """[...'SHDC'].map(s => getComputedStyle(document.querySelector(
            `[data-pad] .suit-${s}`)).color)"""
    )
    assert len(set(colours)) == 4, colours
    tablet.shot("34-hand-four-colour", axe=True)
    tablet.go("/sign-in")
    tablet.sign_in("supervisor")
    tablet.go("/hands/999")
    tablet.shot("34b-unknown-hand", axe=True)
    tablet.go("/floor")
    tablet.shot("35-floor-tables", axe=True)
    tablet.go(f"/tables/{world['table']}/settings")
    tablet.shot("35b-table-settings", axe=True)
    tablet.go(f"/hands/{world['hand']}?seat=1")
    targets = page.evaluate(
        """[...document.querySelectorAll('main button, main a, main input, main select')]
            .filter(e => e.offsetParent)
            .map(e => [e.getBoundingClientRect().height, e.outerHTML.slice(0, 80)])
            .filter(([h]) => h < 44)"""
    )
    assert targets == [], targets


def test_a_meld_by_keyboard_alone_then_moved_to_the_right_seat(tablet: Tablet) -> None:
    """Seat key, the cards typed, Enter: recorded, the seat still acting, focus back in Cards.
    The wrong seat is then fixed with one tap on "Move to 2"."""
    world = table_with_hand(tablet.live, dropped=[5])
    page = tablet.page
    tablet.sign_in("dealer")
    tablet.go(f"/hands/{world['hand']}")
    page.keyboard.press("1")
    assert tablet.text("[data-acting]") == "Seat 1 Player 1"
    assert page.evaluate("document.activeElement.id") == "cards"
    page.keyboard.type("5s 5s 5s")
    page.keyboard.press("Enter")
    tablet.wait_banner("Seat 1 melds 5♠ 5♠ 5♠.")
    assert tablet.text("[data-acting]") == "Seat 1 Player 1"
    assert page.evaluate("document.activeElement.id") == "cards"
    tablet.shot("36-hand-keyboard-meld")
    page.tap("[data-banner] button[aria-label='Move to seat 2']")
    said = tablet.wait_banner("Seat 2 melds 5♠ 5♠ 5♠.")
    assert "Wrong seat: entered for seat 1, moved to seat 2." in said
    assert tablet.text("[data-seat-panel='1'] .down").startswith("0/11")
    assert tablet.text("[data-seat-panel='2'] .down").startswith("3/11")
    tablet.shot("37-hand-moved-to-seat-2")


def test_a_first_run_creates_the_first_admin_on_screen(
    browser: Any, sqlite_template: Path, tmp_path: Path
) -> None:
    """The app on an empty database: the first screen creates the admin, who lands on the floor."""
    path = tmp_path / "first.sqlite3"
    shutil.copyfile(sqlite_template, path)
    server = LiveServer.over(path)
    context = browser.new_context(viewport={"width": 1024, "height": 768}, has_touch=True)
    try:
        tablet = Tablet(context.new_page(), server, "1024x768")
        tablet.go("/")
        tablet.page.wait_for_url(re.compile(r"/first-run$"))
        tablet.shot("00-first-run", axe=True)
        tablet.page.fill("#name", "Ann")
        tablet.page.fill("#pin", "4321")
        tablet.page.fill("#pin_again", "4321")
        tablet.page.tap("button:has-text('Create the admin and sign in')")
        tablet.page.wait_for_url(re.compile(r"/floor$"))
        assert "Ann (admin)" in tablet.text("header")
    finally:
        context.close()
        server.stop()


def test_a_meld_not_claimed_pays_nothing_and_the_switch_is_off_after(any_tablet: Tablet) -> None:
    """Issue 9: the "Not claimed" switch on the pad; the banner and history say so; off after."""
    tablet, page = any_tablet, any_tablet.page
    world = table_with_hand(tablet.live)
    tablet.sign_in("dealer")
    tablet.go(f"/hands/{world['hand']}")
    page.tap(".seat-picker [data-pick-seat='1']")
    tap_cards(tablet, "5S 5S 5S")
    page.tap("label.not-claimed")
    assert page.is_checked("input[name=not_claimed]")
    tablet.assert_axe_finds_nothing_serious("21-hand-not-claimed")
    page.tap("button[data-action=meld]")
    said = tablet.wait_banner("Seat 1 melds 5♠ 5♠ 5♠")
    assert "not claimed: nothing paid" in said
    assert "not claimed: nothing paid" in tablet.text(".events")
    assert not page.is_checked("input[name=not_claimed]")
    hand = world["api"].get(f"/hands/{world['hand']}")
    assert hand["events"][-1]["payments"] == []
    # The next meld, claimed, collects as usual.
    page.tap(".seat-picker [data-pick-seat='2']")
    tap_cards(tablet, "JH QH KH")
    page.tap("button[data-action=meld]")
    tablet.wait_banner("Seat 2 melds J♥ Q♥ K♥")
    assert world["api"].get(f"/hands/{world['hand']}")["events"][-1]["payments"] != []
