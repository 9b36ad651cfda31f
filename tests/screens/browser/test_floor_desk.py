"""From the floor, after a shift of 1,500 hands: a supervisor reaches the statement of a seat
in any hand of the shift in one search and at most two taps, and any open dispute in at most
two taps.

The shift is seeded fast, straight into the database by the benchmarks' shift builder (the
engine plays every hand; its events, entries and chain rows are inserted in bulk), not through
the browser; the disputes go through the API.
"""

from __future__ import annotations

import random
import re
import shutil
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from bench.reports import Ids, chain_links, insert_shift, ledger_rows, play_shift
from dealer.extensions import db
from dealer.ledger.accounts import seating_account
from dealer.ledger.keys import current_key
from dealer.models import Hand, LedgerEntry, PrintRecord, Seating
from dealer.reports import build_routes
from tests.helpers import Api, add_people
from tests.screens.browser.conftest import LiveServer, Tablet, _tablet

pytestmark = pytest.mark.browser

TABLES, HOURS, PER_HOUR = 5, 5, 60


@pytest.fixture(scope="module")
def busy(sqlite_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """The app over a shift of 1,500 hands that began five hours ago."""
    path = tmp_path_factory.mktemp("busy") / "busy.sqlite3"
    shutil.copyfile(sqlite_template, path)
    server = LiveServer.over(path)
    start = (datetime.now(UTC) - timedelta(hours=HOURS, minutes=5)).replace(microsecond=0)
    server.app.config["SHIFT_STARTS"] = (start - timedelta(minutes=10)).strftime("%H:%M")
    with server.app.app_context():
        ids = Ids()
        shift = play_shift(TABLES, HOURS, PER_HOUR, start, ids)
        entries = ledger_rows(shift.postings, ids)
        links = chain_links(shift, entries, ids, current_key(db.session()))
        with db.engine.begin() as connection:
            insert_shift(connection, shift, entries, links)
    add_people(server.app)
    yield server
    server.stop()


@pytest.fixture
def floor_tablet(browser: Any, busy: LiveServer) -> Iterator[Tablet]:
    yield from _tablet(browser, busy, "landscape")


def paid_in(busy: LiveServer, hand_id: int, seat: int) -> tuple[Hand, str, int]:
    """A hand, its seat's player and what the seat paid in it, in all (from the ledger)."""
    with busy.app.app_context():
        hand = db.session.get_one(Hand, hand_id)
        seating = hand.seats[str(seat)]
        player = db.session.scalar(select(Seating.player).where(Seating.id == seating)) or ""
        paid = db.session.scalars(
            select(LedgerEntry.chips).where(
                LedgerEntry.hand_id == hand_id,
                LedgerEntry.from_account == seating_account(seating),
            )
        ).all()
        return hand, player, sum(paid)


def test_any_seat_of_any_hand_and_any_open_dispute_from_the_floor(
    floor_tablet: Tablet, busy: LiveServer
) -> None:
    tablet, page = floor_tablet, floor_tablet.page
    floor = Api.sign_in(busy.app, "supervisor")
    rng = random.Random(22)
    disputed = [2, 5, rng.randrange(100, TABLES * HOURS * PER_HOUR)]
    for hand in disputed:
        floor.post(
            f"/hands/{hand}/disputes", {"raised_by": "seat", "seat": 3, "claim": f"Hand {hand}?"}
        )
    tablet.sign_in("supervisor")

    # Any seat of any hand: one search, then one tap to the statement.
    for hand_id in (3, rng.randrange(1, 1501), 1499):
        seat = rng.randrange(1, 7)
        hand, player, paid = paid_in(busy, hand_id, seat)
        table = f"table {hand.table_id:02d}"
        said = f"player {player.lower()}, {table}, around {hand.started_at:%H:%M}"
        said += f", {paid} chips" if paid else ""
        tablet.go("/floor")
        page.fill("#search-q", said)
        page.click(".search-box button[type=submit]")
        page.wait_for_url(re.compile(r"/search\?"))
        found = page.locator(f'[data-found-hand="{hand_id}"][data-found-seat="{seat}"]')
        found.locator("[data-statement-link]").click()  # tap 1
        page.wait_for_url(re.compile(rf"/hands/{hand_id}/seats/{seat}/statement$"))
        assert f"Seat {seat} ({player})" in tablet.text("h1")

    # Any open dispute: its flag on the floor, then the dispute.
    for hand_id in disputed:
        tablet.go("/floor")
        with busy.app.app_context():
            table = db.session.get_one(Hand, hand_id).table_id
        page.locator(f'[data-flags="{table}"] [data-flag="open_disputes"]').click()  # tap 1
        page.wait_for_url(re.compile(r"/floor/disputes\?table="))
        page.locator(f'[data-open-dispute] a[href^="/hands/{hand_id}#dispute-"]').click()  # 2
        page.wait_for_url(re.compile(rf"/hands/{hand_id}#dispute-\d+$"))
        assert f"Hand {hand_id}?" in tablet.text("#disputes")
    tablet.go("/floor")
    tablet.shot("61-floor-shift-1500", axe=False)


def test_the_shift_ledger_builds_while_the_floor_keeps_working(
    floor_tablet: Tablet, busy: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Print shift ledger after 1,500 hands: the floor says how far the build is, another
    floor screen opens meanwhile, tapping again follows the same build, and the one copy
    downloaded is the original, counted once."""
    tablet, page = floor_tablet, floor_tablet.page
    release = threading.Event()
    lay_out = build_routes.shift_pdf

    def held(*args: Any) -> bytes:  # the build waits until the test has looked around
        release.wait(60)
        return lay_out(*args)

    monkeypatch.setattr(build_routes, "shift_pdf", held)
    try:
        tablet.sign_in("supervisor")
        tablet.go("/floor")
        # built here and offered as a download: the button promises no new tab
        button = page.text_content("form[data-build] button[type=submit]") or ""
        assert "new tab" not in button and "↗" not in button
        page.click("form[data-build] button[type=submit]")
        page.wait_for_function(
            "() => document.querySelector('[data-build-said]').textContent"
            ".includes('Building the shift ledger')"
        )
        page.click("text=Every hand of the shift")  # another floor screen, meanwhile
        page.wait_for_url(re.compile(r"/floor/hands$"))
        tablet.go("/floor")
        page.wait_for_function(
            "() => document.querySelector('[data-build-said]').textContent.includes('Building')"
        )
        page.click("form[data-build] button[type=submit]")  # again: the same build
    finally:
        release.set()
    link = page.locator("[data-build-download]")
    link.wait_for(timeout=90_000)
    with page.expect_download() as download:
        link.click()
    assert "reprint" not in download.value.suggested_filename
    assert download.value.suggested_filename.startswith("shift-")
    page.wait_for_function(
        "() => document.querySelector('[data-build-said]').textContent === 'Downloaded.'"
    )
    with busy.app.app_context():
        counted = db.session.scalars(select(PrintRecord.reprint).where(PrintRecord.kind == "shift"))
        assert list(counted) == [0]
