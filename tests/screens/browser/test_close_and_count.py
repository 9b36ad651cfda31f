"""The close of a down and its count on the table screen, as one guided step: each write
confirmed on screen, the ledger's figure and the variance shown, a variance approved by a
third person, a refusal resent without retyping, and the session's report still offered."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from tests.helpers import Api
from tests.reports.evening import WINNING_MELDS
from tests.screens.browser.conftest import LiveServer, Tablet

pytestmark = pytest.mark.browser

_names = itertools.count(1)


def down_played(live: LiveServer, role: str = "dealer") -> dict[str, Any]:
    """A table taking 1 chip a seat a hand, a session opened by ``role`` and one hand of three
    seats played in it: the ledger expects 3 chips in the tray."""
    floor = Api.sign_in(live.app, "supervisor")
    name = f"Count {next(_names)}"
    table = floor.table(name=name, collection={"kind": "per_hand", "chips": 1})["id"]
    dealer = Api.sign_in(live.app, role)
    down = dealer.post(f"/tables/{table}/sessions", status=201)["id"]
    for seat in (1, 2, 3):
        dealer.seat(table, seat, f"P{seat}", 100)
    hand = dealer.hand(table)["id"]
    for cards in WINNING_MELDS:
        dealer.event(hand, {"type": "meld", "seat": 1, "cards": cards})
    dealer.event(hand, {"type": "go_out", "seat": 1})
    return {"table": table, "session": down, "dealer": dealer}


def close_with(tablet: Tablet, supervisor: tuple[str, str] | None) -> None:
    page = tablet.page
    page.click("#table-session summary")
    if supervisor is not None:
        page.fill("#session-sup-name", supervisor[0])
        page.fill("#session-sup-pin", supervisor[1])
    page.click("#table-session button[type=submit].primary")


def record_count(tablet: Tablet, **typed: str) -> None:
    """Type what is given into the count form (the fields' ids, less ``count-``), then send."""
    for field, value in typed.items():
        tablet.page.fill(f"#count-{field.replace('_', '-')}", value)
    tablet.page.click(".count-form button[type=submit]")


def test_close_with_a_supervisor_then_count_a_matching_tray(tablet: Tablet) -> None:
    world = down_played(tablet.live)
    page = tablet.page
    tablet.sign_in("dealer")
    tablet.go(f"/tables/{world['table']}")
    close_with(tablet, ("Sam", "2222"))
    done = page.locator("[data-step-done]")
    done.wait_for()
    assert f"Session {world['session']} is closed, its close confirmed by Sam." in done.inner_text()
    assert "Next: count the tray." in done.inner_text()
    assert "confirmed by Sam" in tablet.text("[data-close-state]")
    assert "3 chips in the tray (the session's drop)" in tablet.text("[data-expected-tray]")
    tablet.shot("70-close-confirmed", axe=True)

    record_count(tablet, tray="3", witness="Ada", witness_pin="3333")
    page.locator("[data-counted-tray]").wait_for()
    assert "the tray matches the ledger, confirmed by Ada" in tablet.text("[data-step-done]")
    assert tablet.text("[data-counted-tray]") == "3 chips in the tray"
    assert tablet.text("[data-variance]") == "none: the tray matches the ledger"
    assert tablet.text("[data-count-confirmed]") == "Ada (counted by Dee)"
    tablet.shot("71-count-matching", axe=True)

    # Closed, confirmed and counted: the table still offers that session's report.
    tablet.go(f"/tables/{world['table']}")
    report = page.locator(f"[data-close-step='{world['session']}'] .print-form")
    assert "Session report" in report.inner_text()
    assert report.get_attribute("action") == f"/print/sessions/{world['session']}.pdf"


def test_an_admins_variance_is_approved_by_a_second_supervisor(tablet: Tablet) -> None:
    world = down_played(tablet.live, "admin")
    page = tablet.page
    tablet.sign_in("admin")
    tablet.go(f"/tables/{world['table']}")
    close_with(tablet, None)  # an admin confirms their own close
    page.locator("[data-step-done]").wait_for()
    reason = "Five chips of the next down were put in this tray."
    record_count(tablet, tray="8", witness="Dee", witness_pin="1111", reason=reason)
    refused = page.locator(".close-step .banner-refused")
    refused.wait_for()
    # The admin's own sign-in does not approve the count they made.
    assert "a supervisor other than Ada, who counted, and Dee, who confirmed" in (
        refused.inner_text()
    )
    record_count(tablet, sup_name="Sam", sup_pin="2222")
    page.locator("[data-count-approved]").wait_for()
    assert tablet.text("[data-variance]") == "+5 chips"
    assert tablet.text("[data-count-approved]") == f"Sam: {reason}"
    assert tablet.text("[data-count-confirmed]") == "Dee (counted by Ada)"
    assert "approved by Sam" in tablet.text("[data-step-done]")
    tablet.shot("72-count-variance-approved", axe=True)


def test_a_refused_count_is_resent_without_retyping(tablet: Tablet) -> None:
    world = down_played(tablet.live)
    page = tablet.page
    tablet.sign_in("dealer")
    tablet.go(f"/tables/{world['table']}")
    close_with(tablet, ("Sam", "2222"))
    page.locator("[data-step-done]").wait_for()
    typed = {"tray": "8", "witness": "Ada", "witness_pin": "3333"}
    record_count(tablet, **typed, sup_name="Sam", sup_pin="2222")  # and no reason
    refused = page.locator(".close-step .banner-refused")
    refused.wait_for()
    assert "Give the reason for the variance." in refused.inner_text()
    assert "What you entered is kept" in refused.inner_text()
    kept = {
        field: page.input_value(f"#count-{field}")
        for field in ("tray", "witness", "witness-pin", "sup-name", "sup-pin", "reason")
    }
    assert kept == {
        "tray": "8",
        "witness": "Ada",
        "witness-pin": "3333",
        "sup-name": "Sam",
        "sup-pin": "2222",
        "reason": "",
    }
    tablet.shot("73-count-refused-kept", axe=True)
    record_count(tablet, reason="Five chips over: a player's tip went into the tray.")
    page.locator("[data-count-approved]").wait_for()
    assert tablet.text("[data-variance]") == "+5 chips"
