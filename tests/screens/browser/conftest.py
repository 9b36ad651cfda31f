"""The app served by a real server thread, and Debian's Chromium driven by Playwright.

The server is werkzeug's ``make_server`` on 127.0.0.1 with a free port, over a
migrated SQLite file, with CSRF switched ON, as in production. The browser is
``/usr/bin/chromium`` (never a downloaded one). Without it these tests skip,
loudly, or FAIL when ``CI=true`` (`.ci/run` installs it). Screenshots of every
screen go to ``screenshots/`` (git-ignored), to be looked at.
"""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from werkzeug.serving import make_server

from dealer import create_app
from dealer.extensions import db
from tests.conftest import REPO
from tests.helpers import PEOPLE, add_people
from tests.html_check import take, watch

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SCREENSHOTS = REPO / "screenshots"
#: Save each screen checked as a picture to look at (about a tenth of a browser test's time):
#: ``DEALER_SCREENSHOTS=1``. The checks run either way.
SAVE_SCREENSHOTS = os.environ.get("DEALER_SCREENSHOTS") == "1"
LANDSCAPE = {"width": 1280, "height": 800}
PORTRAIT = {"width": 768, "height": 1024}
#: Every size the console is laid out for: two landscape tablets, two portrait, a phone.
SIZES = {
    "1024x768": {"width": 1024, "height": 768},
    "1280x800": LANDSCAPE,
    "768x1024": PORTRAIT,
    "810x1080": {"width": 810, "height": 1080},
    "390x844": {"width": 390, "height": 844},
}
#: What axe-core's WCAG 2.1 AA run may never find.
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
#: Every element's tag, box, display, visibility and opacity, in document order: what a theme
#: must not change.
LAYOUT = """[...document.querySelectorAll('body *')].map(e => {
    const r = e.getBoundingClientRect(), s = getComputedStyle(e);
    return [e.tagName, Math.round(r.x), Math.round(r.y), Math.round(r.width),
            Math.round(r.height), s.display, s.visibility, s.opacity].join(' ');
})"""
#: Every theme a screen is checked in: the light one, and the dark one for a dim room.
THEMES = ("light", "dark")
#: The dark theme's paper (static/app.css, room mode): the sign the dark theme is on.
DARK_PAPER = "rgb(20, 23, 26)"

pytestmark = pytest.mark.browser


def _need_chromium() -> None:
    if Path(CHROMIUM).exists():
        return
    reason = f"{CHROMIUM} is missing: the browser tests did NOT run (apt-get install chromium)"
    if os.environ.get("CI") == "true":
        pytest.fail(reason)
    pytest.skip(reason)


class LiveServer:
    """The app on a real port, in a daemon thread."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.server = make_server("127.0.0.1", 0, app, threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @classmethod
    def over(cls, path: Path) -> LiveServer:
        """The app over the (migrated) SQLite file at ``path``, with CSRF on."""
        uri = f"sqlite:///{path}"
        config = {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": uri,
            "WTF_CSRF_ENABLED": True,
            # Every test signs in from 127.0.0.1, dozens of times a minute: the per-address
            # limit on sign-in tries (tested in tests/api/test_lockout.py) is lifted here.
            "SIGN_IN_ATTEMPTS_PER_MINUTE": 0,
        }
        return cls(create_app(config))

    def stop(self) -> None:
        """Stop serving and let the database file go."""
        self.server.shutdown()
        self.thread.join(timeout=5)
        self.server.server_close()
        with self.app.app_context():
            db.session.remove()
            for engine in db.engines.values():
                engine.dispose()


@pytest.fixture(scope="session")
def live(sqlite_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    path = tmp_path_factory.mktemp("live") / "live.sqlite3"
    shutil.copyfile(sqlite_template, path)
    server = LiveServer.over(path)
    watch(server.app)  # every page served is checked: valid HTML (tests/html_check.py)
    add_people(server.app)
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    _need_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session", autouse=True)
def screenshot_folder() -> Path:
    SCREENSHOTS.mkdir(exist_ok=True)
    return SCREENSHOTS


class Tablet:
    """One tablet: a browser page at one screen size, with helpers a dealer's hands would use."""

    def __init__(self, page: Any, live: LiveServer, size: str) -> None:
        self.page = page
        self.live = live
        self.size = size

    def go(self, path: str) -> None:
        self.page.goto(self.live.url + path)

    def sign_in(self, role: str = "dealer", *, here: bool = False) -> None:
        """Sign in on the PIN pad; ``here``: on the sign-in page already open (keeps ?next=)."""
        name, pin = PEOPLE[role]
        if not here:
            self.go("/sign-in")
        self.page.fill("#name", name)
        for digit in pin:
            self.page.click(f'[data-pin-pad] [data-digit="{digit}"]')
        self.page.click("button[type=submit]:has-text('Sign in')")
        self.page.wait_for_load_state()

    def shot(self, name: str, *, axe: bool = False) -> None:
        """Check the quality bar on the page (and axe-core's), then save the whole page as
        ``screenshots/<name>-<size>.png`` when asked to (`SAVE_SCREENSHOTS`). The page is
        measured once it has loaded: a page just reached may not have its stylesheet yet."""
        self.page.wait_for_load_state("load")
        self.assert_no_sideways_scroll()
        self.assert_every_control_labelled()
        self.assert_touch_targets()
        if axe:
            self.assert_axe_finds_nothing_serious(name)
        if not SAVE_SCREENSHOTS:
            return
        path = SCREENSHOTS / f"{name}-{self.size}.png"
        # The hand's console never scrolls: the viewport is the whole of it.
        console = self.page.evaluate("document.body.classList.contains('console-page')")
        self.page.screenshot(path=str(path), full_page=not console)

    def assert_axe_finds_nothing_serious(self, name: str) -> None:
        """axe-core (bundled by axe-playwright-python, never downloaded): no serious or
        critical WCAG 2.1 AA violation on the screen as it is now, in every theme: a tablet
        that follows the device is checked as a light device and as a dark one (room mode),
        then left as its device was; a tablet that chose its theme, in that theme.

        The dark theme changes colours and nothing else (static/app.css, room mode: it sets
        the colours' variables), and this holds it to the part of that axe-core's other rules
        read: every element's box, display, visibility and opacity are the light theme's. So
        in the dark theme axe-core's rules on colours (its ``cat.color`` rules: text contrast,
        links told from text) are run again; the others read the same page as in the light
        one."""
        chosen = self.page.evaluate("document.documentElement.dataset.theme || ''")
        if chosen:
            self._axe(name, chosen)
            return
        device = self.page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
        try:
            laid_out = {}
            for theme in THEMES:
                self.page.emulate_media(color_scheme=theme)
                paper = self.page.evaluate("getComputedStyle(document.body).backgroundColor")
                assert (paper == DARK_PAPER) == (theme == "dark"), (name, theme, paper)
                laid_out[theme] = self.page.evaluate(LAYOUT)
                self._axe(name, theme, colours_only=theme != THEMES[0])
            light, dark = laid_out.values()
            moved = [f"{a} -> {b}" for a, b in zip(light, dark, strict=False) if a != b]
            if len(light) != len(dark):
                moved.append(f"{len(light)} elements -> {len(dark)}")
            assert moved == [], f"the dark theme moves more than colours on {name}: {moved[:4]}"
        finally:
            self.page.emulate_media(color_scheme="dark" if device else "light")

    def _axe(self, name: str, theme: str, *, colours_only: bool = False) -> None:
        from axe_playwright_python.sync_playwright import Axe

        # axe-core (570 kB) goes into each document once, not again for each theme and check.
        if not self.page.evaluate("typeof window.axe === 'object'"):
            self.page.evaluate(Axe().axe_script)
        run_only: dict[str, Any] = {"type": "tag", "values": AXE_TAGS}
        if colours_only:
            colour_rules = self.page.evaluate(
                "tags => axe.getRules(tags).filter(r => r.tags.includes('cat.color'))"
                ".map(r => r.ruleId)",
                AXE_TAGS,
            )
            assert "color-contrast" in colour_rules, colour_rules
            run_only = {"type": "rule", "values": colour_rules}
        options = {"runOnly": run_only, "resultTypes": ["violations"]}
        found = self.page.evaluate("o => axe.run(document, o)", options)["violations"]
        bad = [
            f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:4]}"
            for v in found
            if v["impact"] in ("serious", "critical")
        ]
        assert bad == [], f"axe-core on {name} at {self.size}, {theme} theme: {bad}"

    def assert_no_sideways_scroll(self) -> None:
        wide = self.page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert wide[0] <= wide[1], f"the page scrolls sideways at {self.size}: {wide}"

    def assert_every_control_labelled(self) -> None:
        """Every visible field has a label, every button and link a name to read out."""
        unnamed = self.page.evaluate(
            """[...document.querySelectorAll('input, select, textarea, button, a[href]')]
                .filter(e => e.type !== 'hidden' && e.offsetParent !== null)
                .filter(e => {
                    if (e.getAttribute('aria-label')) return false;
                    if (e.labels && e.labels.length) return false;
                    if (['BUTTON', 'A'].includes(e.tagName)) return !e.textContent.trim();
                    return true;
                })
                .map(e => e.outerHTML.slice(0, 100))"""
        )
        assert unnamed == [], f"controls without a label at {self.size}: {unnamed}"

    def assert_touch_targets(self) -> None:
        """Every visible control in the screen is at least 44 px tall (and wide, but for text)."""
        small = self.page.evaluate(
            """[...document.querySelectorAll(
                    'main button, main a[href], main input:not([type=hidden]), main select,'
                    + ' header button, header a')]
                .filter(e => e.offsetParent !== null)
                .map(e => [e.getBoundingClientRect(), e])
                .filter(([r, e]) => r.height < 44 || (r.width < 44 && e.tagName !== 'A'))
                .filter(([r, e]) => !(e.type === 'radio' || e.type === 'checkbox'))
                .map(([r, e]) => [Math.round(r.width), Math.round(r.height),
                                  e.outerHTML.slice(0, 80)])"""
        )
        assert small == [], f"touch targets under 44 px at {self.size}: {small}"

    def wait_banner(self, words: str) -> str:
        """Wait for the banner of an action to say ``words`` (an older banner may be up)."""
        self.page.wait_for_function(
            "w => document.querySelector('[data-banner]')?.textContent.includes(w)", arg=words
        )
        return self.text("[data-banner]")

    def text(self, selector: str = "body") -> str:
        return " ".join((self.page.text_content(selector) or "").split())


def _tablet(browser: Any, live: LiveServer, size: str, *, worker: bool = False) -> Iterator[Tablet]:
    """A tablet at ``size``; ``worker``: with the hand screen's service worker (static/sw.js),
    which Playwright's routes cannot see through, so it is left out unless a test asks."""
    viewport = SIZES.get(size) or (LANDSCAPE if size == "landscape" else PORTRAIT)
    context = browser.new_context(
        viewport=viewport,
        has_touch=True,
        device_scale_factor=1,
        service_workers="allow" if worker else "block",
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    # Anything the Content-Security-Policy refused (an inline style or script) is an error too.
    page.on(
        "console",
        lambda message: (
            errors.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    yield Tablet(page, live, size)
    context.close()
    assert not errors, f"JavaScript errors: {errors}"
    invalid = take(live.app)
    assert not invalid, "pages that are not valid HTML:\n" + "\n".join(invalid)


@pytest.fixture
def tablet(browser: Any, live: LiveServer) -> Iterator[Tablet]:
    """A landscape tablet (1280x800)."""
    yield from _tablet(browser, live, "landscape")


@pytest.fixture(params=list(SIZES))
def every_size(request: pytest.FixtureRequest, browser: Any, live: LiveServer) -> Iterator[Tablet]:
    """Each size the console is laid out for, in turn."""
    yield from _tablet(browser, live, request.param)


@pytest.fixture(params=["1024x768", "1280x800", "768x1024", "390x844"])
def four_sizes(request: pytest.FixtureRequest, browser: Any, live: LiveServer) -> Iterator[Tablet]:
    """The four sizes the issue's checks name (810x1080 is played by the seed hand only)."""
    yield from _tablet(browser, live, request.param)


@pytest.fixture(params=["landscape", "portrait"])
def any_tablet(request: pytest.FixtureRequest, browser: Any, live: LiveServer) -> Iterator[Tablet]:
    """Each screen size in turn: 1280x800 landscape, 768x1024 portrait."""
    yield from _tablet(browser, live, request.param)
