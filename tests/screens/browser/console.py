"""The table console measured in the browser: what the dealer's hand can reach without scrolling.

Shared by the seed-hand tests and `bench/taps.py`: one JavaScript probe of the screen as drawn.
"""

from __future__ import annotations

from typing import Any

#: The controls a dealer needs for every entry: the seat chooser, the pad and the actions.
CONTROLS = (".seat-picker a", ".actions button", "[data-pad] button", "[data-pad-tools] button")

PROBE = """controls => {
  const shown = e => e.offsetParent !== null && e.getClientRects().length > 0;
  const box = e => e.getBoundingClientRect();
  const out = {scrollY: window.scrollY, offscreen: [], narrow: [], overlaps: [],
               sideways: document.documentElement.scrollWidth - window.innerWidth};
  for (const sel of controls) {
    const found = [...document.querySelectorAll(sel)].filter(shown);
    if (!found.length) out.offscreen.push(sel + ': none on screen');
    for (const e of found) {
      const r = box(e);
      if (r.top < 0 || r.left < 0 || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5)
        out.offscreen.push(sel + ' ' + e.textContent.trim() + ' ' +
                           [r.left, r.top, r.right, r.bottom].map(Math.round));
    }
  }
  const tappable = 'button, input:not([type=hidden]), select, .seat-picker a, .seat-pick, .meld';
  for (const e of [...document.querySelectorAll(tappable)].filter(shown)) {
    const r = box(e);
    if (r.width < 44 || r.height < 44)
      out.narrow.push(e.outerHTML.slice(0, 70) + ' ' + [r.width, r.height].map(Math.round));
  }
  const seats = [...document.querySelectorAll('[data-seat-panel], .chair')].filter(shown).map(box);
  seats.forEach((a, i) => seats.slice(i + 1).forEach((b, j) => {
    const apart = a.right - 1 <= b.left || b.right - 1 <= a.left
      || a.bottom - 1 <= b.top || b.bottom - 1 <= a.top;
    if (!apart) out.overlaps.push([i, i + j + 1]);
  }));
  return out;
}"""


def probe(page: Any) -> dict[str, Any]:
    """The console as drawn now: scrollY, controls off screen, controls under 44 px,
    overlapping seat boxes and how far the page scrolls sideways."""
    return dict(page.evaluate(PROBE, list(CONTROLS)))


def tap_cards(page: Any, cards: str) -> int:
    """Tap each card on the pad in view (rank then suit on a phone); return the taps."""
    taps = 0
    for card in cards.split():
        key = page.locator(f'[data-pad] [data-card="{card}"]')
        if key.is_visible():
            key.tap()
            taps += 1
        else:
            page.tap(f'[data-pad] [data-rank="{card[:-1]}"]')
            page.tap(f'[data-pad] [data-suit="{card[-1]}"]')
            taps += 2
    return taps
