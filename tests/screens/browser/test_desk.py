"""The dispute desk at the tablet: from a settled seed-000 hand, a supervisor reaches seat 3's
statement in one tap (at most two, as the issue asks), and its figures are the ledger's."""

from __future__ import annotations

import re

import pytest

from tests.screens.browser.conftest import Tablet
from tests.screens.browser.test_screens import SEED, table_with_hand

pytestmark = pytest.mark.browser


def signed_figure(text: str) -> int:
    return int(text.strip().replace("\u2212", "-").replace("+", ""))


def test_seat_3s_statement_in_at_most_two_taps_equals_the_ledger(any_tablet: Tablet) -> None:
    tablet, page = any_tablet, any_tablet.page
    world = table_with_hand(tablet.live, dropped=[5])
    for cards in SEED:
        world["api"].event(world["hand"], {"type": "meld", "seat": 1, "cards": cards})
    world["api"].event(world["hand"], {"type": "go_out", "seat": 1})
    table = world["api"].get(f"/tables/{world['table']}")
    seating = table["seats"]["3"]["seating"]
    account = f"seating:{seating}"
    entries = [
        e
        for e in world["api"].get(f"/tables/{world['table']}/ledger")["entries"]
        if e["hand"] == world["hand"] and account in (e["from_account"], e["to_account"])
    ]
    ledger_net = sum(e["chips"] if e["to_account"] == account else -e["chips"] for e in entries)
    assert ledger_net == -11

    tablet.sign_in("supervisor")
    tablet.go(f"/hands/{world['hand']}")
    taps = 0
    page.locator('[data-statement="3"]').tap()
    taps += 1
    page.wait_for_url(re.compile(rf"/hands/{world['hand']}/seats/3/statement$"))
    assert taps <= 2
    assert signed_figure(tablet.text("[data-statement-net]")) == ledger_net
    assert int(page.get_attribute("[data-ledger-net]", "data-ledger-net") or "0") == ledger_net
    shown = [signed_figure(c) for c in page.locator("[data-chips]").all_text_contents()]
    assert sorted(shown) == sorted(-e["chips"] for e in entries)
    running = [signed_figure(c) for c in page.locator("[data-running]").all_text_contents()]
    assert running[-1] == ledger_net
    assert "Seat 3 (Player 3) paid seat 1 (Player 1) 11 chips: 5 for conditions" in tablet.text(
        "main"
    )
    tablet.shot("40-statement", axe=True)

    # Each line opens its payment's dispute view; the settlement's figure is a way back in.
    page.locator(".statement .line-link").last.tap()
    page.wait_for_url(re.compile(r"/payments/\d+$"))
    assert "Seat 3 (Player 3) pays seat 1 (Player 1) 5 chips" in tablet.text("main")
    assert "conditions_again" not in tablet.text("main")
    tablet.shot("41-dispute-view-in-words", axe=True)
    tablet.go(f"/hands/{world['hand']}")
    page.locator('[data-settlement] [data-seat="3"] .statement-link').tap()
    page.wait_for_url(re.compile(r"/seats/3/statement$"))


def test_find_a_payment_and_the_tablets(tablet: Tablet) -> None:
    """The floor's search and the tablets screen pass the same bar as every screen."""
    world = table_with_hand(tablet.live, dropped=[5])
    world["api"].event(world["hand"], {"type": "meld", "seat": 1, "cards": SEED[0]})
    page = tablet.page
    tablet.sign_in("supervisor")
    tablet.go(f"/payments?hand={world['hand']}&seat=3")
    assert "1 payment, the newest first" in tablet.text("main")
    tablet.shot("42-find-a-payment", axe=True)
    page.locator(".found-payments .line-link").first.tap()
    page.wait_for_url(re.compile(r"/payments/\d+$"))
    tablet.go("/floor/devices")
    tablet.shot("43-tablets", axe=True)
    tablet.go("/rules/5#item-4")
    tablet.shot("44-rule-text", axe=True)
