"""The hand as one loop, deal to next deal, at a landscape tablet and on a phone: played by
taps as `bench/hands.py` plays it (seed 000's hand, then one with a condition, an addition, a
refusal and an undo), nothing the dealer needs is ever off screen; and the table screen opens
again without the network."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bench.hands import ON_SCREEN, PLAYERS, SEED, TAP_TIMER, Hand, Tally, both_hands, entry
from tests.helpers import Api
from tests.screens.browser.conftest import LiveServer, Tablet, _tablet
from tests.screens.browser.test_offline import recorded, type_meld
from tests.screens.browser.test_screens import table_with_hand

pytestmark = pytest.mark.browser


@pytest.fixture(params=["1024x768", "390x844"])
def two_sizes(request: pytest.FixtureRequest, browser: Any, live: LiveServer) -> Iterator[Tablet]:
    yield from _tablet(browser, live, request.param)


def test_deal_to_next_deal_without_a_scroll(two_sizes: Tablet) -> None:
    """Every settlement figure and every stack on screen, Undo there after a refusal, settling
    and the next deal in three taps, a meld in four (five on a phone), no scroll."""
    tablet = two_sizes
    tablet.page.context.add_init_script(TAP_TIMER)
    floor = Api.sign_in(tablet.live.app, "supervisor")
    table = floor.table(name=f"Loop {tablet.size}", chip_value_cents=25, max_buy_in=10_000)["id"]
    for seat, player in enumerate(PLAYERS, 1):
        floor.seat(table, seat, player, 10_000)
    tablet.sign_in("dealer")
    tally = both_hands(tablet.page, floor, table, tablet.live.url, tablet.size, None)
    assert tally.scrolls == 0
    assert tally.hidden_money == 0
    assert tally.stacks_hidden == 0
    assert tally.undo_reachable
    assert tally.settle_next_taps <= 3 * tally.hands
    # a seat tapped when it is not acting already: one meld in six takes a tap more
    assert round(tally.meld_taps / tally.melds) <= (5 if tablet.size == "390x844" else 4)


#: Names too long for a phone's seat chip on one line (seat 5 drops).
LONG_NAMES = ("Esperanza", "Carmelita", "Dolores", "Guadalupe", "Ana", "Maximiliana")

#: Each seat chip's name as its text says it (soft hyphens aside), and whether every line of it
#: is drawn whole inside its chip and its box (not cut to "Espera…").
CHIP_NAMES = """() => [...document.querySelectorAll('.seat-picker .seat-chip')].map(chip => {
  const name = chip.querySelector('.chip-name'), text = name.firstChild, range = new Range();
  range.selectNodeContents(text);
  const box = name.getBoundingClientRect(), edge = chip.getBoundingClientRect();
  const left = Math.max(box.left, edge.left) - 0.5, right = Math.min(box.right, edge.right) + 0.5;
  const whole = [...range.getClientRects()].every(r => r.left >= left && r.right <= right);
  const fits = name.scrollWidth <= name.clientWidth;
  return [text.textContent.replaceAll('\\u00ad', ''), whole && fits];
})"""

#: The text of every element on screen cut short with an ellipsis.
ELLIPSES = """() => [...document.querySelectorAll('body *')]
  .filter(e => e.offsetParent !== null && getComputedStyle(e).textOverflow === 'ellipsis'
          && e.scrollWidth > e.clientWidth)
  .map(e => e.textContent.trim())"""


@pytest.fixture
def phone(browser: Any, live: LiveServer) -> Iterator[Tablet]:
    yield from _tablet(browser, live, "390x844")


def test_a_phone_shows_every_name_whole_and_the_discard_check_while_recording(
    phone: Tablet,
) -> None:
    """At 390x844, with long names and five-figure stacks: after every entry (a refusal's
    too) each seat chip's name is whole (on two lines where it must, not "Espera…" with a
    tooltip a tablet cannot hover), nothing on screen is cut with an ellipsis, "Run to…" says
    its words, and the discard's check is on screen under the pad."""
    tablet = phone
    tablet.page.context.add_init_script(TAP_TIMER)
    floor = Api.sign_in(tablet.live.app, "supervisor")
    table = floor.table(name="Long names", chip_value_cents=25, max_buy_in=10_000)["id"]
    for seat, player in enumerate(LONG_NAMES, 1):
        floor.seat(table, seat, player, 10_000)
    hand_id = floor.hand(table, dropped=[5])["id"]
    tablet.sign_in("dealer")
    tablet.go(f"/hands/{hand_id}")
    page = tablet.page
    hand, tally = Hand(page), Tally()
    hand.settled()
    for seat, action, cards in [*SEED, (3, "refused", "2H 3S 4D")]:
        entry(hand, tally, seat, action, cards)
        assert page.evaluate(CHIP_NAMES) == [[name, True] for name in LONG_NAMES]
        assert page.evaluate(ELLIPSES) == []
        for part in ("#fits", "#fits-form button"):
            assert page.locator(part).evaluate(ON_SCREEN), f"{part} after {action} {cards}"
    assert " ".join(page.inner_text("[data-pad-run]").split()) == "Run to…"
    tablet.shot("hand-long-names", axe=True)


@pytest.fixture
def worker_tablet(browser: Any, live: LiveServer) -> Iterator[Tablet]:
    """A landscape tablet with the service worker, as on HTTPS or localhost."""
    yield from _tablet(browser, live, "landscape", worker=True)


def test_a_reload_offline_shows_the_table_and_the_pending_entries(worker_tablet: Tablet) -> None:
    """Reloaded without the network: the hand as last seen and each pending entry in words;
    back online, each recorded once, in order, and what became of each said."""
    tablet = worker_tablet
    world = table_with_hand(tablet.live, dropped=[5])
    tablet.sign_in("dealer")
    tablet.go(f"/hands/{world['hand']}")
    page = tablet.page
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.context.set_offline(True)
    type_meld(tablet, 1, "5S 5S 5S")
    type_meld(tablet, 2, "JH QH KH")
    page.wait_for_function("() => document.querySelectorAll('[data-pending]').length === 2")
    page.reload()
    assert tablet.text("[data-seat-panel='2'] .seat-name") == "Player 2"
    assert tablet.text("[data-pending='0']") == "Pending: Seat 1 (Player 1): meld 5♠ 5♠ 5♠"
    assert tablet.text("[data-pending='1']") == "Pending: Seat 2 (Player 2): meld J♥ Q♥ K♥"
    page.context.set_offline(False)
    page.wait_for_function("() => localStorage.getItem('dealer:queue') === '[]'")
    page.wait_for_selector("#queue-fates [data-fate] >> nth=1")
    fates = [
        " ".join(t.split()) for t in page.locator("#queue-fates [data-fate]").all_inner_texts()
    ]
    assert fates == ["Recorded: Seat 1 melds 5♠ 5♠ 5♠.", "Recorded: Seat 2 melds J♥ Q♥ K♥."]
    assert recorded(world) == [(1, ["5S", "5S", "5S"]), (2, ["JH", "QH", "KH"])]


def test_without_a_service_worker_the_queue_still_lands_once(
    browser: Any, live: LiveServer
) -> None:
    """A floor on plain HTTP gets no service worker: a reload offline is the browser's own
    page, and the entries kept are sent once each when the screen is opened again."""
    context = browser.new_context(
        viewport={"width": 1280, "height": 800}, service_workers="block", has_touch=True
    )
    tablet = Tablet(context.new_page(), live, "landscape")
    try:
        world = table_with_hand(live, dropped=[5])
        tablet.sign_in("dealer")
        tablet.go(f"/hands/{world['hand']}")
        page = tablet.page
        page.context.set_offline(True)
        type_meld(tablet, 1, "5S 5S 5S")
        page.wait_for_function("() => document.querySelectorAll('[data-pending]').length === 1")
        assert tablet.text("[data-pending='0']") == "Pending: Seat 1 (Player 1): meld 5♠ 5♠ 5♠"
        with pytest.raises(Exception, match="ERR_INTERNET_DISCONNECTED"):
            page.reload()
        page.context.set_offline(False)
        tablet.go(f"/hands/{world['hand']}")
        page.wait_for_function("() => localStorage.getItem('dealer:queue') === '[]'")
        assert recorded(world) == [(1, ["5S", "5S", "5S"])]
    finally:
        context.close()
