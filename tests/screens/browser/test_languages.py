"""Two people, two languages, one floor: each signs in on their own tablet, chooses their
language on screen, and both see the same hand at once, each in their own words."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa

from dealer.extensions import db
from dealer.models import User
from tests.screens.browser.conftest import LiveServer, Tablet, _tablet
from tests.screens.browser.test_screens import table_with_hand
from tests.words.small_catalogues import small_catalogues  # noqa: F401  (the fixture)

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("small_catalogues")]


def choose_my_language(tablet: Tablet, code: str) -> None:
    """Choose ``code`` in the header's language form, as a person does for themself."""
    tablet.page.select_option("header select[name=language]", code)
    tablet.page.click("header [data-language-form] button")
    tablet.page.wait_for_load_state()


def test_two_people_see_one_hand_each_in_their_own_words(browser: Any, live: LiveServer) -> None:
    world = table_with_hand(live, seats=2)
    dees, sams = _tablet(browser, live, "landscape"), _tablet(browser, live, "landscape")
    dee, sam = next(dees), next(sams)
    try:
        dee.sign_in("dealer")
        sam.sign_in("supervisor")
        choose_my_language(dee, "es")
        choose_my_language(sam, "fil")
        for tablet in (dee, sam):
            tablet.go(f"/hands/{world['hand']}")
        # Both hand screens open together; each reloaded while the other is open.
        seen = {}
        for name, tablet in (("dee", dee), ("sam", sam), ("dee", dee)):
            tablet.page.reload()
            seen[name] = (
                tablet.page.get_attribute("html", "lang"),
                tablet.text(".pot-figure").split()[0],
                tablet.text("header .who form:last-of-type button"),
            )
        assert seen == {
            "dee": ("es", "Bote", "Cerrar sesión"),
            "sam": ("fil", "Pusta", "Mag-sign out"),
        }
        dee.shot("52-hand-in-spanish", axe=True)
        sam.shot("52-hand-in-filipino")
    finally:
        with live.app.app_context():
            db.session.execute(sa.update(User).values(language=None))
            db.session.commit()
        for tablets in (dees, sams):
            next(tablets, None)
