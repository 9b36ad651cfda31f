"""Long documents built in the background: off the request, in a thread of the app's process,
their state kept in a folder every worker of the app reads.

A screen asks for a document (the floor's shift ledger); the build runs in a worker thread
with the app's context, and the screen reads its progress ("page 3 laid out") until the PDF
is ready, then downloads it once. Asking again for the same document (the same kind, subject
and options, by the same person) while it builds, or before its copy is taken, joins that
build: one PDF, counted once, when built (`counted_print`). A build that fails counts
nothing and says so in words. No new server: the thread is the app's own, on the embedded
SQLite default as under gunicorn's threads.

Under several gunicorn workers the screen's next question may reach another worker than the
one building, so a build's state and its PDF are files in ``DOCUMENT_BUILDS_DIR`` (the
instance folder's ``builds/`` unless set), written whole and renamed into place: any worker
answers where a build is, joins it, or hands its PDF over, once (the PDF is taken by a
rename, which only one worker can win). A build whose process ended before it finished (a
worker recycled or stopped) reads as failed, so nobody waits for it. Several app servers
share builds only if they share that folder.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import secrets
import socket
import threading
import time
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from flask import Flask, current_app

from dealer.errors import DealerError
from dealer.extensions import current_session
from dealer.ledger.prints import prints_so_far, record_print
from dealer.reports.pages import telling_pages
from dealer.transactions import snapshot, writing
from dealer.words.catalogue import language, say, speaking

#: How long a finished build (its PDF not taken, or its failure) is kept: then forgotten.
KEPT_SECONDS = 3600.0

#: Lays the document out, stamped with the reprint number it is given.
Layout = Callable[[int], bytes]

#: This machine, so that a build's process is looked for only where it ran.
HOST = socket.gethostname()


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
    #: When it was asked (the wall clock: every worker compares it).
    started_at: float = field(default_factory=time.time)

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
    """The documents being built for this app, by what was asked and by token: their state in
    ``folder`` (shared by every worker of the app), the ones this process runs in memory."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self._lock = threading.Lock()
        self._running: dict[str, Build] = {}

    # -- the folder: <token>.json (the state), <token>.pdf (the document), key-<hash> (token)

    def _state_file(self, token: str) -> Path:
        return self.folder / f"{token}.json"

    def _pdf_file(self, token: str) -> Path:
        return self.folder / f"{token}.pdf"

    def _key_file(self, key: Hashable) -> Path:
        digest = hashlib.sha256(repr(key).encode("utf-8")).hexdigest()
        return self.folder / f"key-{digest}"

    def _write(self, path: Path, data: bytes) -> None:
        """Write ``path`` whole: a reader sees the old file or the new one, never half."""
        partial = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}")
        partial.write_bytes(data)
        os.replace(partial, path)

    def save(self, build: Build) -> None:
        """Write ``build``'s state (and, once ready, its PDF) where every worker reads it."""
        if build.data is not None and build.state == "ready":
            self._write(self._pdf_file(build.token), build.data)
        state = {
            "user_id": build.user_id,
            "title": build.title,
            "stem": build.stem,
            "state": build.state,
            "pages": build.pages,
            "reprint": build.reprint,
            "error": build.error,
            "started": build.started_at,
            "host": HOST,
            "pid": os.getpid(),
        }
        self._write(self._state_file(build.token), json.dumps(state).encode("utf-8"))

    def _read(self, token: str) -> Build | None:
        try:
            state = json.loads(self._state_file(token).read_text("utf-8"))
        except (OSError, ValueError):
            return None
        build = Build(
            token,
            None,
            int(state["user_id"]),
            str(state["title"]),
            str(state["stem"]),
            state=str(state["state"]),
            pages=int(state["pages"]),
            reprint=int(state["reprint"]),
            error=str(state["error"]),
            started_at=float(state["started"]),
        )
        if build.state == "building" and not _alive(state.get("host"), state.get("pid")):
            build.state, build.error = "failed", _failure(build.title)
        return build

    @contextmanager
    def _locked(self) -> Iterator[None]:
        """One asker at a time, across this process's threads and the app's workers."""
        self.folder.mkdir(parents=True, exist_ok=True)
        with self._lock, open(self.folder / ".lock", "a+b") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

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
        with self._locked():
            self._forget_old()
            try:
                token = self._key_file(key).read_text("ascii").strip()
            except OSError:
                token = ""
            found = self._read(token) if token else None
            if found is not None and found.state in ("building", "ready"):
                return found, False
            build = Build(secrets.token_urlsafe(16), key, user_id, title, stem)
            self.save(build)
            self._write(self._key_file(key), build.token.encode("ascii"))
            self._running[build.token] = build
        start(build)
        return build, True

    def _forget_old(self) -> None:
        """Forget finished builds older than `KEPT_SECONDS` (their PDFs with them)."""
        old = time.time() - KEPT_SECONDS
        for token, running in list(self._running.items()):
            if running.finished.is_set():
                del self._running[token]
        for path in self.folder.glob("*.json"):
            build = self._read(path.stem)
            if build is None or build.state == "building" or build.started_at >= old:
                continue
            for gone in (path, self._pdf_file(path.stem)):
                gone.unlink(missing_ok=True)
        for path in self.folder.glob("key-*"):
            try:
                token = path.read_text("ascii").strip()
            except OSError:
                continue
            if not self._state_file(token).exists():
                path.unlink(missing_ok=True)

    def find(self, token: str, user_id: int) -> Build | None:
        """The build ``token`` names, if it is this person's (built by any worker)."""
        build = self._read(token)
        return build if build is not None and build.user_id == user_id else None

    def take(self, build: Build) -> bytes | None:
        """The finished PDF, handed over once: None if not ready or already taken."""
        found = self._read(build.token)
        if found is None or found.state != "ready":
            return None
        held = self.folder / f".{build.token}.taken.{os.getpid()}.{threading.get_ident()}"
        try:
            os.rename(self._pdf_file(build.token), held)  # only one taker wins the rename
        except FileNotFoundError:
            return None
        try:
            data = held.read_bytes()
        finally:
            held.unlink(missing_ok=True)
        found.state = "taken"
        self.save(found)
        return data

    def wait_all(self, timeout: float = 60.0) -> bool:
        """Wait for every build this process runs to end (a test's clean close); True if all
        did."""
        with self._lock:
            running = list(self._running.values())
        return all(b.finished.wait(timeout) for b in running)


def _alive(host: object, pid: object) -> bool:
    """Whether the process that runs a build is still there (another machine's: assumed)."""
    if host != HOST or not isinstance(pid, int):
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _failure(title: str, reason: str = "") -> str:
    return say(
        "{title} could not be built, and nothing was counted. {reason}Print it "
        "again, or ask an admin if it fails again.",
        title=title.capitalize(),
        reason=f"{reason} " if reason else "",
    )


def builds(app: Flask | None = None) -> Builds:
    """This app's builds (one registry per app, in its ``DOCUMENT_BUILDS_DIR``)."""
    app = app or current_app._get_current_object()  # type: ignore[attr-defined]
    found: Builds | None = app.extensions.get("document_builds")
    if found is None:
        found = app.extensions["document_builds"] = Builds(app.config["DOCUMENT_BUILDS_DIR"])
    return found


def run_in_background(
    build: Build,
    kind: str,
    subject: str,
    gather: Callable[[], Layout],
    device: str,
) -> None:
    """Start a thread that gathers the document (``gather`` returns its layout), lays it out
    telling its pages, and counts it once built; a failure is kept in words. Each step is
    saved where every worker reads it."""
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    store = builds(app)
    asker = language()  # the thread speaks the language of who asked for the document

    def tell(n: int) -> None:
        build.pages = n
        store.save(build)

    def work() -> None:
        with app.app_context(), speaking(asker):
            try:
                with telling_pages(tell):
                    layout = gather()
                    data, reprint = counted_print(kind, subject, layout, build.user_id, device)
                build.data, build.reprint, build.state = data, reprint, "ready"
            except Exception as error:  # a build that fails: kept in words, nothing counted
                if not isinstance(error, DealerError):
                    app.logger.exception("A document built in the background failed")
                build.error = _failure(
                    build.title, str(error) if isinstance(error, DealerError) else ""
                )
                build.state = "failed"
            finally:
                try:
                    store.save(build)
                finally:
                    build.data = None  # kept in the folder, handed over from there
                    build.finished.set()

    threading.Thread(target=work, name=f"document-{build.token[:6]}", daemon=True).start()
