"""Seed 000's melds at the table console, tapped in Chromium: taps, scrolls and time per meld.

Serves the app from a real server thread over a migrated SQLite file in a temporary folder,
with CSRF on, and drives Debian's /usr/bin/chromium with Playwright (never a downloaded
browser) at one screen size. Each hand is seed 000's: six seats, seat 5 drops, seat 1 melds
5S 5S 5S, JH QH KH and 2C 3C 4C 5C 6C by taps (its seat, each card, Meld), then goes out
through the API so the next hand can be dealt. For every meld it counts

- taps: what a dealer's finger does (seat, cards, Meld);
- scrolls: each control that was off screen when it was needed (a dealer would scroll to it),
  and each time the page moved under the dealer after an event (window.scrollY changed);
- tap to screen: what the dealer sees, timed inside the page: from the pointerdown of the
  tap on Meld to the first frame painted after the banner says what was recorded (the
  frame after the swap, then the task after it: the browser has painted by then). Timed
  in the page, so Playwright's own round trips are not counted.

Ends with one line of key=value pairs, e.g.
``taps_per_meld=6.7 scrolls_per_meld=0 tap_to_screen_p50_ms=48 size=1024x768 melds=15``.

    .venv/bin/python bench/taps.py [--size 1024x768] [--hands 5]
"""

from __future__ import annotations

import argparse
import logging
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

from flask_migrate import upgrade

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dealer.extensions import db  # noqa: E402
from dealer.rules import parse_cards  # noqa: E402
from dealer.words.rules import meld_words  # noqa: E402
from tests.helpers import PEOPLE, Api, add_people  # noqa: E402
from tests.screens.browser.conftest import CHROMIUM, CHROMIUM_ARGS, SIZES, LiveServer  # noqa: E402
from tests.screens.browser.console import probe  # noqa: E402

MELDS = ("5S 5S 5S", "JH QH KH", "2C 3C 4C 5C 6C")

#: Installed in every page before its own scripts: the time of each pointerdown, and the time
#: the screen was painted once the banner holds the expected words (``window.tapTimer``).
TAP_TIMER = """
window.tapTimer = { down: null, painted: null, expect: null, waiting: false };
document.addEventListener("pointerdown", function () {
  window.tapTimer.down = performance.now();
  window.tapTimer.painted = null;
}, true);
document.addEventListener("DOMContentLoaded", function () {  // the body is swapped whole
  new MutationObserver(function () {
    var timer = window.tapTimer;
    var banner = document.querySelector("[data-banner]");
    if (!timer.expect || timer.waiting || timer.painted !== null || !banner) return;
    if (!banner.textContent.includes(timer.expect)) return;
    timer.waiting = true;
    requestAnimationFrame(function () {
      setTimeout(function () { timer.painted = performance.now(); timer.waiting = false; }, 0);
    });
  }).observe(document.documentElement, { childList: true, subtree: true, characterData: true });
});
"""


def tap_to_screen(page: Any, counter: Counter, selector: str, words: str) -> float:
    """Tap ``selector`` and return the milliseconds from its pointerdown to the screen
    painted with ``words`` in the banner, as timed by the page itself."""
    page.evaluate("w => { window.tapTimer.expect = w; window.tapTimer.painted = null; }", words)
    counter.tap(selector)
    page.wait_for_function("() => window.tapTimer.painted !== null")
    return float(page.evaluate("() => window.tapTimer.painted - window.tapTimer.down"))


class Counter:
    """Taps and scrolls, as a dealer's hand would make them."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.taps = 0
        self.scrolls = 0

    def tap(self, selector: str) -> None:
        target = self.page.locator(selector)
        box = target.bounding_box()
        size = self.page.viewport_size
        off = box is None or (
            box["y"] < 0
            or box["x"] < 0
            or box["y"] + box["height"] > size["height"]
            or box["x"] + box["width"] > size["width"]
        )
        self.scrolls += int(off)  # the dealer scrolls to it first
        target.tap()
        self.taps += 1

    def card(self, card: str) -> None:
        key = f'[data-pad] [data-card="{card}"]'
        if self.page.locator(key).is_visible():
            self.tap(key)
        else:  # a phone's pad: rank, then suit
            self.tap(f'[data-pad] [data-rank="{card[:-1]}"]')
            self.tap(f'[data-pad] [data-suit="{card[-1]}"]')


def serve(folder: Path) -> tuple[Any, LiveServer]:
    server = LiveServer.over(folder / "taps.sqlite3")
    with server.app.app_context():
        upgrade()
        db.session.remove()
    add_people(server.app)
    return server.app, server


def play(size: str, hands: int) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        app, server = serve(Path(folder))
        floor = Api.sign_in(app, "supervisor")
        table = floor.table(name="Bench", chip_value_cents=25, max_buy_in=10_000)["id"]
        for seat in range(1, 7):
            floor.seat(table, seat, f"Player {seat}", 10_000)
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport=SIZES[size], has_touch=True)
        context.add_init_script(TAP_TIMER)
        page = context.new_page()
        page.goto(server.url + "/sign-in")
        name, pin = PEOPLE["dealer"]
        page.fill("#name", name)
        for digit in pin:
            page.tap(f'[data-pin-pad] [data-digit="{digit}"]')
        page.tap("button[type=submit]:has-text('Sign in')")
        page.wait_for_url("**/tables")
        counter, times, melds = Counter(page), [], 0
        for _ in range(hands):
            hand = floor.hand(table, dropped=[5])["id"]
            page.goto(f"{server.url}/hands/{hand}")
            for cards in MELDS:
                before = probe(page)["scrollY"]
                counter.tap(".seat-picker [data-pick-seat='1']")
                for card in cards.split():
                    counter.card(card)
                words = f"Seat 1 melds {meld_words(parse_cards(cards.split()))}."
                times.append(tap_to_screen(page, counter, "button[data-action=meld]", words))
                counter.scrolls += int(probe(page)["scrollY"] != before)
                melds += 1
            floor.event(hand, {"type": "go_out", "seat": 1})
        context.close()
        browser.close()
        server.stop()
    return {
        "taps_per_meld": round(counter.taps / melds, 2),
        "scrolls_per_meld": round(counter.scrolls / melds, 2),
        "tap_to_screen_p50_ms": round(statistics.median(times)),
        "tap_to_screen_max_ms": round(max(times)),
        "size": size,
        "melds": melds,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", choices=list(SIZES), default="1024x768")
    parser.add_argument("--hands", type=int, default=5)
    args = parser.parse_args()
    if not Path(CHROMIUM).exists():
        sys.exit(f"{CHROMIUM} is missing: apt-get install chromium")
    result = play(args.size, args.hands)
    print(
        " ".join(
            f"{key}={value:g}" if isinstance(value, float) else f"{key}={value}"
            for key, value in result.items()
        )
    )


if __name__ == "__main__":
    main()
