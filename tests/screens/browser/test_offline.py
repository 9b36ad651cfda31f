"""The table never stops for the network: entries made while the tablet is cut off are kept on
it in order, shown pending, survive a reload, and are sent once each when it reconnects; one
the server refuses holds the rest with its sentence until the dealer fixes it."""

from __future__ import annotations

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.screens.browser.conftest import Tablet
from tests.screens.browser.test_screens import table_with_hand

pytestmark = pytest.mark.browser

PLAYS = [
    (1, "5S 5S 5S"),
    (1, "JH QH KH"),
    (1, "2C 3C 4C 5C 6C"),
    (2, "KD KD KD"),
    (3, "7C 7C 7C"),
]


def type_meld(tablet: Tablet, seat: int, cards: str) -> None:
    page = tablet.page
    page.tap(f".seat-picker [data-pick-seat='{seat}']")
    page.fill("#cards", cards)
    page.tap("button[data-action=meld]")


def recorded(world: dict) -> list[tuple[int, list[str]]]:
    events = world["api"].get(f"/hands/{world['hand']}")["events"]
    return [(e["seat"], e["cards"]) for e in events if e["type"] == "meld"]


def test_offline_entries_are_kept_in_order_and_sent_once(tablet: Tablet) -> None:
    """Cut off: five melds and a buy-in kept, pending, through a reload; back online, all six
    recorded once, in order, with the chips as if made online."""
    world = table_with_hand(tablet.live, dropped=[5])
    twin = table_with_hand(tablet.live, dropped=[5])  # the same melds, made online
    tablet.sign_in("dealer")
    tablet.go(f"/hands/{world['hand']}")
    page = tablet.page
    page.context.set_offline(True)
    for number, (seat, cards) in enumerate(PLAYS, 1):
        type_meld(tablet, seat, cards)
        page.wait_for_function(
            "n => document.querySelectorAll('[data-pending]').length === n", arg=number
        )
    assert "No connection: kept on this tablet, pending" in tablet.text("#queue")
    assert tablet.text("[data-seat-panel='1'] .down").startswith("0/11")  # nothing paid yet
    # The buy-in from the hand screen itself, for the seat chosen there: kept with the melds.
    page.tap(".seat-picker [data-pick-seat='4']")
    assert tablet.text("#buy-in-h") == "Buy-in for seat 4"
    page.fill("#buy-in-amount", "25")
    page.tap("[data-buy-in] button[type=submit]")
    page.wait_for_function("() => document.querySelectorAll('[data-pending]').length === 6")
    assert (
        tablet.text("[data-pending='5']") == "Pending: Buy-in for seat 4 · Chips from the cage: 25"
    )
    with pytest.raises(PlaywrightError, match="ERR_INTERNET_DISCONNECTED"):
        page.reload()  # no service worker: the browser's own page; the queue stays on the tablet
    page.context.set_offline(False)
    tablet.go(f"/hands/{world['hand']}")
    # All sent (the last, the buy-in, answered by the hand screen again, seat 4 acting).
    page.wait_for_function("() => localStorage.getItem('dealer:queue') === '[]'")
    page.wait_for_function(
        "s => document.querySelector(s)?.textContent.startsWith('3/')",
        arg="[data-seat-panel='3'] .down",
    )
    assert page.is_hidden("#queue")
    for seat, cards in PLAYS:
        twin["api"].event(twin["hand"], {"type": "meld", "seat": seat, "cards": cards.split()})
    assert recorded(world) == [(seat, cards.split()) for seat, cards in PLAYS]
    ours = world["api"].get(f"/hands/{world['hand']}")["net"]
    theirs = twin["api"].get(f"/hands/{twin['hand']}")["net"]
    assert ours == theirs
    seats = world["api"].get(f"/tables/{world['table']}")["seats"]
    assert seats["4"]["stack"] == 100 + ours["4"] + 25  # the buy-in, recorded once


def test_a_refused_entry_holds_the_queue_until_fixed(tablet: Tablet) -> None:
    world = table_with_hand(tablet.live, dropped=[5])
    tablet.sign_in("dealer")
    tablet.go(f"/hands/{world['hand']}")
    page = tablet.page
    page.context.set_offline(True)
    type_meld(tablet, 1, "5S 5S 5S")
    type_meld(tablet, 2, "6H 6H 6C")  # a set of two suits: refused
    type_meld(tablet, 1, "JH QH KH")
    page.wait_for_function("() => document.querySelectorAll('[data-pending]').length === 3")
    page.context.set_offline(False)
    tablet.go(f"/hands/{world['hand']}")
    page.wait_for_selector("[data-pending] >> text=Refused")
    said = tablet.text("#queue")
    assert "Refused:" in said and "The entries after it wait." in said
    assert recorded(world) == [(1, ["5S", "5S", "5S"])]
    page.tap("#queue button:has-text('Fix it')")
    assert page.input_value("#cards") == "6H 6H 6C"
    page.fill("#cards", "6H 6H 6H")
    page.tap("button[data-action=meld]")
    tablet.wait_banner("Seat 1 melds J♥ Q♥ K♥.")
    assert recorded(world) == [
        (1, ["5S", "5S", "5S"]),
        (2, ["6H", "6H", "6H"]),
        (1, ["JH", "QH", "KH"]),
    ]
