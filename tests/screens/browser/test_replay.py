"""The hand replay on a phone: the arrow keys step through the hand, and each step shows the
table as it stood (the voided meld still down before its void, gone after)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.screens.browser.conftest import LiveServer, Tablet, _tablet
from tests.screens.browser.test_screens import table_with_hand

pytestmark = pytest.mark.browser


@pytest.fixture
def phone(browser: Any, live: LiveServer) -> Iterator[Tablet]:
    yield from _tablet(browser, live, "390x844")


def test_arrows_step_through_the_hand_on_a_phone(phone: Tablet) -> None:
    page = phone.page
    world = table_with_hand(phone.live, seats=3)
    api, hand = world["api"], world["hand"]
    api.event(hand, {"type": "meld", "seat": 1, "cards": ["5S", "5S", "5S"]})
    meld = api.event(hand, {"type": "meld", "seat": 2, "cards": ["KS", "KS", "KS"]})
    api.event(hand, {"type": "void", "event": meld["event"]["id"], "reason": "wrong seat"})

    phone.sign_in("supervisor")
    phone.go(f"/hands/{hand}/replay?at=1")
    phone.shot("60-replay-phone", axe=True)
    page.keyboard.press("ArrowRight")
    page.wait_for_url(re.compile(r"at=2$"))
    page.keyboard.press("ArrowRight")
    page.wait_for_url(re.compile(r"at=3$"))
    assert page.locator('[data-replay-seat="2"] [data-meld]').count() == 1
    assert page.locator(".events .is-voided").count() == 1
    page.keyboard.press("End")
    page.wait_for_url(re.compile(r"at=4$"))
    assert page.locator('[data-replay-seat="2"] [data-meld]').count() == 0
    page.keyboard.press("ArrowRight")  # the last step: nowhere further
    page.keyboard.press("ArrowLeft")
    page.wait_for_url(re.compile(r"at=3$"))
    page.keyboard.press("Home")
    page.wait_for_url(re.compile(r"at=1$"))
    assert "Event 1 of 4" in phone.text(".replay-where")
