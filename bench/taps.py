"""Seed 000's melds at the table console, tapped in Chromium: taps, scrolls and time per meld.

Serves the app from a real server thread over a migrated SQLite file in a temporary folder,
with CSRF on, and drives Debian's /usr/bin/chromium with Playwright (never a downloaded
browser) at one screen size. Each hand is seed 000's: six seats, seat 5 drops, seat 1 melds
5S 5S 5S, JH QH KH and 2C 3C 4C 5C 6C by taps (its seat when it is not the acting seat
already, the cards by the pad's quickest keys, Meld), then seat 2 melds KD KD KD and adds a
fourth KD (tapping the meld on the board), then seat 1 goes out through the API so the next
hand can be dealt. It counts

- taps: what a dealer's finger does (seat, meld, cards, the action), per seed meld;
- scrolls: each control that was off screen when it was needed (a dealer would scroll to it),
  and each time the page moved under the dealer after an event (window.scrollY changed), per
  event (melds and the addition);
- hidden payment lines: lines of the banner (who pays whom, how much, why) not wholly on
  screen after an event, cut off by the window or by a box that scrolls;
- tap to screen: what the dealer sees, timed inside the page: from the pointerdown of the
  tap on the action to the first frame painted after the banner says what was recorded (the
  frame after the swap, then the task after it: the browser has painted by then). Timed
  in the page, so Playwright's own round trips are not counted.

Ends with one line of key=value pairs, e.g. ``taps_per_meld=4 scrolls_per_event=0
hidden_payment_lines=0 tap_to_screen_p50_ms=48 size=1024x768 melds=15``.

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
from tests.helpers import PEOPLE, Api, add_people, shown  # noqa: E402
from tests.screens.browser.conftest import CHROMIUM, CHROMIUM_ARGS, SIZES, LiveServer  # noqa: E402
from tests.screens.browser.console import probe  # noqa: E402

MELDS = ("5S 5S 5S", "JH QH KH", "2C 3C 4C 5C 6C")
#: After the seed's melds: seat 2 melds a set and adds to it (an addition picks its meld).
ADDITION = ("KD KD KD", "KD")
RANKS = "A234567JQK"

#: Banner lines (the sentences of who paid whom, the net) not wholly visible: outside the
#: window, or outside a box that clips or scrolls them.
HIDDEN_LINES = """() => {
  const lines = [...document.querySelectorAll('[data-banner] .spoken li, [data-banner] .net')];
  let hidden = 0;
  for (const line of lines) {
    const r = line.getBoundingClientRect();
    let cut = r.height === 0 || r.top < 0 || r.left < 0 || r.bottom > innerHeight + 0.5
      || r.right > innerWidth + 0.5;
    for (let box = line.parentElement; box && !cut; box = box.parentElement) {
      const style = getComputedStyle(box);
      if (style.overflowY === 'visible' && style.overflowX === 'visible') continue;
      const b = box.getBoundingClientRect();
      cut = r.top < b.top - 0.5 || r.bottom > b.bottom + 0.5;
    }
    hidden += cut ? 1 : 0;
  }
  return hidden;
}"""


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


def tap_to_screen(page: Any, counter: Any, selector: str, words: str) -> float:
    """Tap ``selector`` and return the milliseconds from its pointerdown to the screen
    painted with ``words`` in the banner, as timed by the page itself."""
    page.evaluate("w => { window.tapTimer.expect = w; window.tapTimer.painted = null; }", words)
    counter.tap(selector)
    page.wait_for_function("() => window.tapTimer.painted !== null")
    return float(page.evaluate("() => window.tapTimer.painted - window.tapTimer.down"))


def quickest(cards: str) -> list[tuple[str, str]]:
    """The pad's keys for ``cards`` the fewest taps away: a set as its card and a count,
    a run in one suit as its first card, "Run to" and its last; else card by card."""
    listed = cards.split()
    if len(listed) >= 3 and len(set(listed)) == 1:
        return [("card", listed[0]), ("set", str(len(listed)))]
    ranks = [RANKS.index(card[:-1]) for card in listed]
    one_suit = len({card[-1] for card in listed}) == 1
    if len(listed) >= 3 and one_suit and ranks == list(range(ranks[0], ranks[0] + len(ranks))):
        return [("card", listed[0]), ("run", ""), ("last", listed[-1])]
    return [("card", card) for card in listed]


class Counter:
    """Taps and scrolls, as a dealer's hand would make them."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.taps = 0
        self.scrolls = 0

    def tap(self, selector: str) -> None:
        target = self.page.locator(selector).first
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

    def card(self, card: str, *, suit_known: bool = False) -> None:
        key = f'[data-pad] [data-card="{card}"]'
        if self.page.locator(key).is_visible():
            self.tap(key)
        else:  # a phone's pad: rank, then suit (after "Run to", the suit is the run's)
            self.tap(f'[data-pad] [data-rank="{card[:-1]}"]')
            if not suit_known:
                self.tap(f'[data-pad] [data-suit="{card[-1]}"]')

    def cards(self, cards: str) -> None:
        """Enter ``cards`` with the pad's quickest keys (plain cards when it has none)."""
        quick = self.page.locator("[data-pad-set]").count() > 0
        for kind, value in quickest(cards) if quick else [("card", c) for c in cards.split()]:
            if kind == "card":
                self.card(value)
            elif kind == "set":
                self.tap(f'[data-pad-set="{value}"]')
            elif kind == "run":
                self.tap("[data-pad-run]")
            else:
                self.card(value, suit_known=True)

    def meld(self, seat: int) -> None:
        """Tap the seat's (first) meld: beside the pad when shown there, else on the board."""
        beside = f"[data-melds-of='{seat}'] [data-pick-meld]"
        if self.page.locator(beside).first.is_visible():
            self.tap(beside)
        else:
            self.tap(f"[data-seat-panel='{seat}'] [data-pick-meld]")

    def seat(self, seat: int) -> None:
        """Tap the seat unless it is the acting seat already."""
        if self.page.get_attribute("[data-seat-field]", "value") != str(seat):
            self.tap(f".seat-picker [data-pick-seat='{seat}']")


def sign_in(page: Any, url: str) -> None:
    """The dealer signs in on the tablet, the PIN tapped on its pad."""
    page.goto(url + "/sign-in")
    name, pin = PEOPLE["dealer"]
    page.fill("#name", name)
    for digit in pin:
        page.tap(f'[data-pin-pad] [data-digit="{digit}"]')
    page.tap("button[type=submit]:has-text('Sign in')")
    page.wait_for_url("**/tables")


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
        sign_in(page, server.url)
        counter, times, melds, events, hidden, meld_taps = Counter(page), [], 0, 0, 0, 0
        for _ in range(hands):
            hand = floor.hand(table, dropped=[5])["id"]
            page.goto(f"{server.url}/hands/{hand}")
            plays = [(1, "meld", cards) for cards in MELDS]
            plays += [(2, "meld", ADDITION[0]), (2, "add", ADDITION[1])]
            for seat, action, cards in plays:
                before, taps = probe(page)["scrollY"], counter.taps
                counter.seat(seat)
                if action == "add":  # the meld just made: beside the pad, else on the board
                    counter.meld(seat)
                counter.cards(cards)
                said = f"Seat {seat} {action}s {shown(cards)}"
                times.append(tap_to_screen(page, counter, f"button[data-action={action}]", said))
                counter.scrolls += int(probe(page)["scrollY"] != before)
                hidden += page.evaluate(HIDDEN_LINES)
                events += 1
                if seat == 1:
                    meld_taps += counter.taps - taps
                    melds += 1
            floor.event(hand, {"type": "go_out", "seat": 1})
        context.close()
        browser.close()
        server.stop()
    return {
        "taps_per_meld": round(meld_taps / melds, 2),
        "scrolls_per_event": round(counter.scrolls / events, 2),
        "hidden_payment_lines": hidden,
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
