"""Long documents built in the background: off the request, in a thread of the app's process.

A screen asks for a document (the floor's shift ledger); the build runs in a worker thread
with the app's context, and the screen reads its progress ("page 3 laid out") until the PDF
is ready, then downloads it once. Asking again for the same document (the same kind, subject
and options, by the same person) while it builds, or before its copy is taken, joins that
build: one PDF, counted once, when built (`counted_print`). A build that fails counts
nothing and says so in words. No new server: the thread is the app's own, on the embedded
SQLite default as under gunicorn's threads. The builds live in the process that runs them
(under several gunicorn workers, the worker that was asked).
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field

from flask import Flask, current_app

from dealer.errors import DealerError
from dealer.extensions import current_session
from dealer.ledger.prints import prints_so_far, record_print
from dealer.reports.pages import telling_pages
from dealer.transactions import snapshot, writing
from dealer.words.catalogue import say

__all__ = ["Build", "Builds", "builds", "counted_print"]

#: How long a finished build (its PDF not taken, or its failure) is kept: then forgotten.
KEPT_SECONDS = 3600.0

#: Lays the document out, stamped with the reprint number it is given.
Layout = Callable[[int], bytes]


def counted_print(
    kind: str, subject: str, build: Layout, user_id: int, device: str, count: bool = True
) -> tuple[bytes, int]:
    """Build the document, then count it: its PDF and its reprint number (0 the first time).

    Counted only once built, so a build that fails counts nothing and the next good copy is
    not stamped REPRINT. Should another copy be counted while this one was built, this one
    is built again with the number it got. ``count=False``: built, not counted.
    """
    with snapshot(current_session()) as session:
        expected = prints_so_far(session, kind, subject)
    data = build(expected)
    if not count:
        return data, expected
    with writing(current_session()) as session:
        reprint = record_print(session, kind, subject, user_id, device)
    return (data if reprint == expected else build(reprint)), reprint


@dataclass
class Build:
    """One document being built for one person: its state, its progress, then its PDF."""

    token: str
    key: Hashable
    user_id: int
    #: What it is, in words ("the shift ledger"), and its file's name without ".pdf".
    title: str
    stem: str
    state: str = "building"  # building, ready, failed, taken
    pages: int = 0
    reprint: int = 0
    data: bytes | None = None
    error: str = ""
    finished: threading.Event = field(default_factory=threading.Event)
    started: float = field(default_factory=time.monotonic)

    @property
    def filename(self) -> str:
        return f"{self.stem}{f'-reprint-{self.reprint}' if self.reprint else ''}.pdf"

    def words(self) -> str:
        """Where the build is, as the screen says it."""
        if self.state == "building" and not self.pages:
            return say("Building {title}: gathering the figures…", title=self.title)
        if self.state == "building":
            return say("Building {title}: page {n} laid out…", title=self.title, n=self.pages)
        if self.state == "ready":
            if self.reprint:
                return say(
                    "{title} is ready (REPRINT {n}): download it.",
                    title=self.title.capitalize(),
                    n=self.reprint,
                )
            return say("{title} is ready: download it.", title=self.title.capitalize())
        if self.state == "taken":
            return say(
                "{title} was downloaded; print it again for another copy.",
                title=self.title.capitalize(),
            )
        return self.error


class Builds:
    """The documents being built in this app's process, by what was asked and by token."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_key: dict[Hashable, Build] = {}
        self._by_token: dict[str, Build] = {}

    def ask(
        self,
        key: Hashable,
        user_id: int,
        title: str,
        stem: str,
        start: Callable[[Build], None],
    ) -> tuple[Build, bool]:
        """The build of ``key`` for this person: the one under way or waiting to be taken
        (joined), else a new one that ``start`` sets going. True when it is new."""
        key = (key, user_id)
        with self._lock:
            self._forget_old()
            found = self._by_key.get(key)
            if found is not None and found.state in ("building", "ready"):
                return found, False
            build = Build(secrets.token_urlsafe(16), key, user_id, title, stem)
            self._by_key[key] = build
            self._by_token[build.token] = build
        start(build)
        return build, True

    def _forget_old(self) -> None:
        """Forget finished builds older than `KEPT_SECONDS` (their PDFs with them)."""
        old = time.monotonic() - KEPT_SECONDS
        for token, build in list(self._by_token.items()):
            if build.finished.is_set() and build.started < old:
                del self._by_token[token]
                if self._by_key.get(build.key) is build:
                    del self._by_key[build.key]

    def find(self, token: str, user_id: int) -> Build | None:
        """The build ``token`` names, if it is this person's."""
        with self._lock:
            build = self._by_token.get(token)
        return build if build is not None and build.user_id == user_id else None

    def take(self, build: Build) -> bytes | None:
        """The finished PDF, handed over once: None if not ready or already taken."""
        with self._lock:
            if build.state != "ready" or build.data is None:
                return None
            data, build.data, build.state = build.data, None, "taken"
            return data

    def wait_all(self, timeout: float = 60.0) -> bool:
        """Wait for every build under way to end (a test's clean close); True if all did."""
        with self._lock:
            running = list(self._by_token.values())
        return all(b.finished.wait(timeout) for b in running)


def builds(app: Flask | None = None) -> Builds:
    """This app's builds (one registry per app)."""
    app = app or current_app._get_current_object()  # type: ignore[attr-defined]
    return app.extensions.setdefault("document_builds", Builds())  # type: ignore[no-any-return]


def run_in_background(
    build: Build,
    kind: str,
    subject: str,
    gather: Callable[[], Layout],
    device: str,
) -> None:
    """Start a thread that gathers the document (``gather`` returns its layout), lays it out
    telling its pages, and counts it once built; a failure is kept in words."""
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]

    def tell(n: int) -> None:
        build.pages = n

    def work() -> None:
        with app.app_context():
            try:
                with telling_pages(tell):
                    layout = gather()
                    data, reprint = counted_print(kind, subject, layout, build.user_id, device)
                build.data, build.reprint, build.state = data, reprint, "ready"
            except Exception as error:  # a build that fails: kept in words, nothing counted
                if not isinstance(error, DealerError):
                    app.logger.exception("A document built in the background failed")
                reason = str(error) if isinstance(error, DealerError) else ""
                build.error = say(
                    "{title} could not be built, and nothing was counted. {reason}Print it "
                    "again, or ask an admin if it fails again.",
                    title=build.title.capitalize(),
                    reason=f"{reason} " if reason else "",
                )
                build.state = "failed"
            finally:
                build.finished.set()

    threading.Thread(target=work, name=f"document-{build.token[:6]}", daemon=True).start()
