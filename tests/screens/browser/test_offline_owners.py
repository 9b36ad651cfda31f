"""An entry kept on the tablet while the connection is down stays the entry it was typed as: made
for the player in a seat, it never lands on the next player there; typed by one dealer, it is
never recorded as the next one's without their word."""

from __future__ import annotations

from itertools import count
from typing import Any

import pytest

from tests.helpers import Api
from tests.screens.browser.conftest import Tablet
from tests.screens.browser.test_offline import recorded, type_meld
from tests.screens.browser.test_screens import table_with_hand

pytestmark = pytest.mark.browser

_tables = count(1)


def _drained_to_a_refusal(tablet: Tablet, path: str) -> str:
    """Back online on ``path``: the queue's first entry sent and refused; its words."""
    page = tablet.page
    page.context.set_offline(False)
    tablet.go(path)
    page.wait_for_selector("[data-pending='0'] >> text=Refused")
    return tablet.text("#queue")


def _queue(tablet: Tablet) -> list[dict[str, Any]]:
    queued: list[dict[str, Any]] = tablet.page.evaluate(
        "JSON.parse(localStorage.getItem('dealer:queue') || '[]')"
    )
    return queued


def test_a_cash_out_queued_for_cy_is_refused_once_zed_sits_in_his_seat(tablet: Tablet) -> None:
    """Cy in seat 3 with 200; offline, the tablet queues his cash-out of 150; on another device
    Cy leaves and Zed sits in seat 3 with 300; back online, the cash-out is refused in words,
    kept on the tablet, and nothing is posted on Zed."""
    floor = Api.sign_in(tablet.live.app, "supervisor")
    table = floor.table(name=f"Seat owners {next(_tables)}")["id"]
    floor.seat(table, 3, "Cy", 200)
    tablet.sign_in("dealer")
    seat_page = f"/tables/{table}/seats/3"
    tablet.go(seat_page)
    page = tablet.page
    page.context.set_offline(True)
    page.check("input[name=kind][value=cash_out]")
    page.fill("input[name=amount]", "150")
    page.tap("button:has-text('Record chips')")
    page.wait_for_function("() => document.querySelectorAll('[data-pending]').length === 1")
    # Meanwhile, on another device.
    floor.delete(f"/tables/{table}/seats/3", status=200)
    floor.seat(table, 3, "Zed", 300)
    said = _drained_to_a_refusal(tablet, seat_page)
    assert (
        "This entry was made for Cy in seat 3, who has left; Zed sits there now: nothing was "
        "recorded on Zed." in said
    )
    # The entry, shown in words, kept on the tablet.
    assert "Refused: In or out: Cash out (to the cage) · How many chips: 150" in said
    assert len(_queue(tablet)) == 1
    seat = floor.get(f"/tables/{table}")["seats"]["3"]
    assert (seat["player"], seat["stack"]) == ("Zed", 300)
    rules = [e["rule"] for e in floor.get(f"/tables/{table}/ledger")["entries"]]
    assert rules == ["buy_in", "cash_out", "buy_in"]  # Cy in, Cy leaving, Zed in
    page.tap("#queue button:has-text('Drop it')")
    page.wait_for_function("() => localStorage.getItem('dealer:queue') === '[]'")
    assert floor.get(f"/tables/{table}")["seats"]["3"]["stack"] == 300


def test_the_hand_screens_buy_in_queued_for_a_seat_that_changed_hands_is_refused(
    tablet: Tablet,
) -> None:
    world = table_with_hand(tablet.live, dropped=[5])
    floor = world["api"]
    tablet.sign_in("dealer")
    tablet.go(f"/hands/{world['hand']}")
    page = tablet.page
    page.tap(".seat-picker [data-pick-seat='5']")
    page.context.set_offline(True)
    page.fill("#buy-in-amount", "40")
    page.tap("[data-buy-in] button[type=submit]")
    page.wait_for_function("() => document.querySelectorAll('[data-pending]').length === 1")
    # On another device: the hand is voided (a misdeal), Player 5 leaves and Zed sits down.
    floor.event(world["hand"], {"type": "void_hand", "reason": "Misdeal"})
    floor.delete(f"/tables/{world['table']}/seats/5", status=200)
    floor.seat(world["table"], 5, "Zed", 60)
    said = _drained_to_a_refusal(tablet, f"/hands/{world['hand']}")
    assert "This entry was made for Player 5 in seat 5, who has left; Zed sits there now" in said
    assert floor.get(f"/tables/{world['table']}")["seats"]["5"]["stack"] == 60


def _dees_sign_in_ends_and_sam_signs_in(tablet: Tablet) -> None:
    """Still offline, the tablet left (its page would send the queue with the token of a
    sign-in now gone); Dee's sign-in ends, the connection comes back and Sam signs in."""
    page = tablet.page
    page.goto("about:blank")
    page.context.clear_cookies()
    page.context.set_offline(False)
    tablet.sign_in("supervisor")
    assert page.evaluate("document.body.getAttribute('data-user')") == "Sam"


def test_a_meld_dee_typed_is_not_recorded_as_sams_until_he_records_it_as_his(
    tablet: Tablet,
) -> None:
    """Dee types a meld offline; her sign-in ends and Sam signs in on the tablet; the meld is
    refused as not Sam's, kept, until Sam records as his what Dee typed: then it is recorded
    once, his, with her name beside it on the audit trail."""
    world = table_with_hand(tablet.live, dropped=[5])
    tablet.sign_in("dealer")
    hand = f"/hands/{world['hand']}"
    tablet.go(hand)
    page = tablet.page
    page.context.set_offline(True)
    type_meld(tablet, 1, "5S 5S 5S")
    type_meld(tablet, 2, "KD KD KD")
    page.wait_for_function("() => document.querySelectorAll('[data-pending]').length === 2")
    _dees_sign_in_ends_and_sam_signs_in(tablet)
    said = _drained_to_a_refusal(tablet, hand)
    assert "Dee typed this entry before their sign-in ended; Sam is signed in now." in said
    assert recorded(world) == []
    assert len(_queue(tablet)) == 2
    page.tap("#queue button:has-text('Record as mine what Dee typed')")
    page.wait_for_function("() => localStorage.getItem('dealer:queue') === '[]'")
    assert recorded(world) == [(1, ["5S", "5S", "5S"]), (2, ["KD", "KD", "KD"])]
    events = world["api"].get(f"/hands/{world['hand']}")["events"]
    assert [e["user"] for e in events if e["type"] == "meld"] == ["Sam", "Sam"]
    tablet.go("/floor/audit")
    assert "Sam recorded as theirs an entry Dee typed on this tablet" in tablet.text("main")


def test_a_meld_dee_typed_waits_for_her_and_goes_as_hers(tablet: Tablet) -> None:
    world = table_with_hand(tablet.live, dropped=[5])
    tablet.sign_in("dealer")
    hand = f"/hands/{world['hand']}"
    tablet.go(hand)
    page = tablet.page
    page.context.set_offline(True)
    type_meld(tablet, 1, "5S 5S 5S")
    page.wait_for_function("() => document.querySelectorAll('[data-pending]').length === 1")
    _dees_sign_in_ends_and_sam_signs_in(tablet)
    _drained_to_a_refusal(tablet, hand)
    assert recorded(world) == []
    # Sam's sign-in ends in turn; Dee signs in again: her meld goes, as hers.
    page.goto("about:blank")
    page.context.clear_cookies()
    tablet.sign_in("dealer")
    tablet.go(hand)
    page.wait_for_function("() => localStorage.getItem('dealer:queue') === '[]'")
    events = world["api"].get(f"/hands/{world['hand']}")["events"]
    assert [e["user"] for e in events if e["type"] == "meld"] == ["Dee"]
