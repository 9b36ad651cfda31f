"""Whole hands at the table console, deal to next deal, tapped in Chromium at every size.

Serves the app as `bench/taps.py` does (a real server thread over a migrated SQLite file, CSRF
on, Debian's /usr/bin/chromium driven by Playwright) and plays, at each size, two hands by
taps, each from its deal to the next deal:

- seed 000's hand: seat 5 drops; seat 1 melds 5S 5S 5S, JH QH KH and 2C 3C 4C 5C 6C; seat 2
  melds KD KD KD and adds a fourth KD; seat 1 goes out (Go out, the settlement checked,
  Confirm); the next hand is dealt from the hand screen with seat 6 dropping;
- a hand with a condition, an addition, a refusal and an undo: seat 1 melds 7D 7D 7D (a
  condition), seat 2 melds KD KD KD and adds a fourth KD, seat 3 melds 2H 3S 4D (refused: not
  a meld), the dealer undoes seat 2's addition from the refusal's screen (Undo, then the
  void's one button), seat 1 melds JH QH KH and 2C 3C 4C 5C 6C and goes out, and the next
  hand is dealt with nobody dropping.

Per size it prints

- taps_per_meld: the taps of seat 1's melds (seat, cards by the pad's quickest keys, Meld);
- taps_per_hand: every tap from the hand on screen to the next hand on screen (each hand's
  average), and settle_next_taps: Go out, Confirm and Deal the next hand, without the taps of
  who drops (what the players say);
- scrolls_per_hand: each control tapped that was not wholly on screen (outside the window or
  cut off by a box that scrolls: the dealer scrolls to it first), and each time the page or a
  box moved under the dealer between two taps of hers (window.scrollY or a box's scrollTop
  changed), per hand;
- hidden_money_cells: figures of the settlement (each seat's going out, conditions, pot,
  rake, at going out, hand net and stack) not wholly on screen, on the preview before Confirm
  and on the hand once settled;
- stacks_hidden_after_event: after each entry recorded, the seats in the hand whose stack
  is not wholly on screen anywhere (the board, the seat chooser, the settlement), summed;
- undo_reachable_after_refusal: after the refusal, the last good entry's Undo is on screen;
- tap_to_screen_p50_ms: as `bench/taps.py` (pointerdown to the frame painted with what was
  recorded), over every entry of both hands.

Ends with one line of key=value pairs per size.

    .venv/bin/python -m bench.hands [--size 1024x768 ...] [--shots DIR] [--no-worker]
"""

from __future__ import annotations

import argparse
import logging
import statistics
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.taps import TAP_TIMER, Counter, serve, sign_in, tap_to_screen  # noqa: E402
from tests.helpers import Api, shown  # noqa: E402
from tests.screens.browser.conftest import CHROMIUM, CHROMIUM_ARGS, SIZES  # noqa: E402

#: Is ``el`` wholly on screen: inside the window and every box around it that clips, and not
#: covered (by a bar docked over the page)?
ON_SCREEN = """el => {
  const r = el.getBoundingClientRect();
  if (r.width === 0 || r.height === 0 || el.getClientRects().length === 0) return false;
  if (r.top < -0.5 || r.left < -0.5 || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5)
    return false;
  for (let box = el.parentElement; box; box = box.parentElement) {
    const s = getComputedStyle(box);
    if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
    const b = box.getBoundingClientRect();
    if (r.top < b.top - 0.5 || r.bottom > b.bottom + 0.5 || r.left < b.left - 0.5
        || r.right > b.right + 0.5) return false;
  }
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return top !== null && (el.contains(top) || top.contains(el));  // not under a docked bar
}"""

#: Where the page and every box that scrolls stand now.
SCROLLED = """() => [window.scrollY, window.scrollX,
  ...[...document.querySelectorAll('*')].filter(e => e.scrollTop || e.scrollLeft)
     .map(e => (e.id || e.className) + ':' + e.scrollTop + ',' + e.scrollLeft)].join(' ')"""

#: The settlement's money figures (the table's cells, or a seat card's figures).
MONEY = "[data-settlement] td, [data-settlement] [data-money]"

SEED = [
    (1, "meld", "5S 5S 5S"),
    (1, "meld", "JH QH KH"),
    (1, "meld", "2C 3C 4C 5C 6C"),
    (2, "meld", "KD KD KD"),
    (2, "add", "KD"),
]
OTHER = [
    (1, "meld", "7D 7D 7D"),
    (2, "meld", "KD KD KD"),
    (2, "add", "KD"),
    (3, "refused", "2H 3S 4D"),
    (2, "undo", ""),
    (1, "meld", "JH QH KH"),
    (1, "meld", "2C 3C 4C 5C 6C"),
]


@dataclass
class Tally:
    """What one size's hands counted."""

    hands: int = 0
    meld_taps: int = 0
    melds: int = 0
    hand_taps: int = 0
    settle_next_taps: int = 0
    hidden_money: int = 0
    stacks_hidden: int = 0
    undo_reachable: bool = False
    scrolls: int = 0
    times: list[float] = field(default_factory=list)


class Hand(Counter):
    """A dealer's taps, with a scroll counted for a control cut off by a box that scrolls and
    for anything on the screen that moved between two taps of hers."""

    def __init__(self, page: Any) -> None:
        super().__init__(page)
        self.seen = ""

    def tap(self, selector: str) -> None:
        target = self.page.locator(selector).first
        if self.seen and self.page.evaluate(SCROLLED) != self.seen:
            self.scrolls += 1  # the screen moved under her since her last tap
        off = not target.evaluate(ON_SCREEN)
        self.scrolls += int(off)
        target.tap()
        self.taps += 1
        if off:  # the scroll to it is counted once: what the screen is now, it moved to
            try:
                self.seen = self.page.evaluate(SCROLLED)
            except Exception:  # the tap went to another page
                self.seen = ""

    def settled(self) -> None:
        """The screen as it stands after a tap's answer: what the next tap compares with."""
        self.page.wait_for_load_state()
        self.seen = self.page.evaluate(SCROLLED)


def stacks_hidden(page: Any) -> int:
    """Seats in the hand (not dropped) whose stack is nowhere wholly on screen."""
    seats = page.eval_on_selector_all(
        "[data-seat-panel]:not(.status-dropped)", "ps => ps.map(p => p.dataset.seatPanel)"
    )
    script = f"seats => {{ const seen = {ON_SCREEN}; return seats.filter(seat => ![...document"
    script += ".querySelectorAll(`[data-seat-panel='${seat}'] [data-stack], .seat-picker"
    script += " [data-pick-seat='${seat}'] [data-stack], [data-settlement] [data-seat='${seat}']"
    script += " [data-stack]`)].some(seen)).length; }"
    return int(page.evaluate(script, seats))


def money_hidden(page: Any) -> int:
    """Settlement figures not wholly on screen, once the screen is painted."""
    page.evaluate(
        "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"
    )
    # in one task of the page: a live redraw never swaps the figures while they are read
    script = f"sel => {{ const seen = {ON_SCREEN}; "
    script += "return [...document.querySelectorAll(sel)].filter(e => !seen(e)).length; }"
    return int(page.evaluate(script, MONEY))


def entry(hand: Hand, tally: Tally, seat: int, action: str, cards: str) -> None:
    page = hand.page
    taps = hand.taps
    if action == "undo":
        tally.undo_reachable = page.locator("[data-undo]").count() > 0 and bool(
            page.locator("[data-undo]").first.evaluate(ON_SCREEN)
        )
        if tally.undo_reachable:
            hand.tap("[data-undo]")
        else:  # the way back without it: the history's Void…, and a reason typed
            hand.tap("#history .event a.button[href*='/void']")
        page.wait_for_url("**/void**")
        hand.settled()
        if not page.locator("#reason").input_value():
            page.fill("#reason", "Entered by mistake")
            hand.taps += 1
        hand.tap("form[data-send] button[type=submit].danger")
        page.wait_for_selector("[data-banner]")
        hand.settled()
        return
    hand.seat(seat)
    if action == "add":
        hand.meld(seat)
    if page.locator("#cards").input_value():
        hand.tap("[data-pad-clear]")
    hand.cards(cards)
    if action == "refused":
        hand.tap("button[data-action=meld]")
        page.wait_for_selector(".banner-refused")
        hand.settled()
        return
    said = f"Seat {seat} {action}s {shown(cards)}"
    tally.times.append(tap_to_screen(page, hand, f"button[data-action={action}]", said))
    hand.settled()
    tally.stacks_hidden += stacks_hidden(page)
    if seat == 1 and action == "meld":
        tally.meld_taps += hand.taps - taps
        tally.melds += 1


def settle_and_deal(
    hand: Hand, tally: Tally, drops: list[int], shots: Path | None, size: str
) -> None:
    """Go out for seat 1, check the settlement, confirm, and deal the next hand."""
    page = hand.page
    taps = hand.taps
    hand.seat(1)
    tally.settle_next_taps -= hand.taps - taps  # choosing the seat is not part of settling
    hand.tap("button[data-action=go_out]")
    page.wait_for_url("**/settle**")
    hand.settled()
    tally.hidden_money += money_hidden(page)
    if shots:
        page.screenshot(path=str(shots / f"hand-settle-{size}-{tally.hands}.png"))
    hand.tap("form.confirm-row button.primary")
    page.wait_for_selector("[data-deal-next]")
    hand.settled()
    tally.hidden_money += money_hidden(page)
    tally.stacks_hidden += stacks_hidden(page)
    if shots:
        page.screenshot(path=str(shots / f"hand-settled-{size}-{tally.hands}.png"))
    before = hand.taps
    for seat in drops:
        hand.tap(f"form.next-deal label:has(input[name=dropped][value='{seat}'])")
    tally.settle_next_taps -= hand.taps - before
    number = page.locator("h1").first.inner_text()
    hand.tap("[data-deal-next]")
    page.wait_for_function("n => document.querySelector('h1').innerText !== n", arg=number)
    page.wait_for_selector("[data-action=meld]")
    hand.settled()
    tally.settle_next_taps += hand.taps - taps


def both_hands(page: Any, floor: Api, table: int, url: str, size: str, shots: Path | None) -> Tally:
    """Deal seed 000's hand (seat 5 drops), play it and the hand after it on ``page``, signed
    in at ``url``, at ``table``; what they counted."""
    tally = Tally()
    hand_id = floor.hand(table, dropped=[5])["id"]
    page.goto(f"{url}/hands/{hand_id}")
    hand = Hand(page)
    hand.settled()
    for plays, drops in ((SEED, [6]), (OTHER, [])):
        start = hand.taps
        for seat, action, cards in plays:
            entry(hand, tally, seat, action, cards)
            if shots and action == "refused":
                page.screenshot(path=str(shots / f"hand-refused-{size}.png"))
        if shots and tally.hands == 0:
            page.screenshot(path=str(shots / f"hand-recording-{size}.png"))
        settle_and_deal(hand, tally, drops, shots, size)
        tally.hand_taps += hand.taps - start
        tally.hands += 1
    tally.scrolls = hand.scrolls
    return tally


def figures(tally: Tally, size: str) -> dict[str, Any]:
    return {
        "size": size,
        "taps_per_meld": round(tally.meld_taps / tally.melds, 2),
        "taps_per_hand": round(tally.hand_taps / tally.hands, 1),
        "settle_next_taps": round(tally.settle_next_taps / tally.hands, 1),
        "scrolls_per_hand": round(tally.scrolls / tally.hands, 1),
        "hidden_money_cells": tally.hidden_money,
        "stacks_hidden_after_event": tally.stacks_hidden,
        "undo_reachable_after_refusal": "yes" if tally.undo_reachable else "no",
        "tap_to_screen_p50_ms": round(statistics.median(tally.times)),
    }


PLAYERS = ("Rosa", "Carmen", "Dolores", "Esperanza", "Ana", "Lupe")


def play(playwright: Any, size: str, shots: Path | None, worker: bool = True) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        app, server = serve(Path(folder))
        floor = Api.sign_in(app, "supervisor")
        table = floor.table(name="Bench", chip_value_cents=25, max_buy_in=10_000)["id"]
        for seat, player in enumerate(PLAYERS, 1):
            floor.seat(table, seat, player, 10_000)
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = browser.new_context(
            viewport=SIZES[size], has_touch=True, service_workers="allow" if worker else "block"
        )
        context.add_init_script(TAP_TIMER)
        page = context.new_page()
        sign_in(page, server.url)
        tally = both_hands(page, floor, table, server.url, size, shots)
        context.close()
        browser.close()
        server.stop()
    return figures(tally, size)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", choices=list(SIZES), action="append")
    parser.add_argument("--shots", type=Path, help="save a screenshot of each step here")
    parser.add_argument(
        "--no-worker",
        action="store_true",
        help="block the service worker, as a floor on plain HTTP has none (its cost per tap)",
    )
    args = parser.parse_args()
    if not Path(CHROMIUM).exists():
        sys.exit(f"{CHROMIUM} is missing: apt-get install chromium")
    from playwright.sync_api import sync_playwright

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    if args.shots:
        args.shots.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        for size in args.size or list(SIZES):
            result = play(playwright, size, args.shots, worker=not args.no_worker)
            print(" ".join(f"{key}={value}" for key, value in result.items()), flush=True)


if __name__ == "__main__":
    main()
