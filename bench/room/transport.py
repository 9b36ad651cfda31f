"""How a dealer's entries reach the app: over HTTP to a live server, or in-process.

Every POST carries a fresh ``Idempotency-Key``; an entry whose answer was lost (a dropped
connection, a timeout) or that met a 502, 503 or 504 is sent again under the same key, after a
short growing wait, so it is recorded once. Each send is timed into a `Figures`.
"""

from __future__ import annotations

import http.client
import itertools
import json
import threading
import time
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol
from urllib.parse import urlsplit

from flask import Flask

__all__ = [
    "Figures",
    "HttpTransport",
    "InProcessTransport",
    "Request",
    "Transport",
    "Unanswered",
    "open_table",
    "sign_in",
]

#: Statuses that mean "not now": the entry is sent again under the same key.
RETRY_STATUSES = frozenset((502, 503, 504))
TRIES = 6
FIRST_WAIT = 0.05
#: A connection idle this long is not reused: the server (gunicorn's keepalive, 5 s) may be
#: closing it, and a request sent as it closes is lost (it would be sent again, but counted).
IDLE_REUSE = 2.0


class Unanswered(RuntimeError):
    """No answer after every try."""


@dataclass
class Figures:
    """Every send's time, kind and status; appended from many threads (list.append is atomic)."""

    sends: list[tuple[str, float, int]] = field(default_factory=list)
    retries: int = 0
    #: While False, sends are not recorded (set-up before a timed window).
    recording: bool = True

    def add(self, kind: str, ms: float, status: int) -> None:
        if self.recording:
            self.sends.append((kind, ms, status))


class Transport(Protocol):
    figures: Figures

    def send(self, request: Request) -> tuple[int, Any]:
        """Send ``request``; return its status and JSON body."""
        ...


@dataclass(frozen=True)
class Request:
    """One request under /api/v1: a POST goes under ``key``, or a fresh one."""

    method: str
    path: str
    body: Any = None
    token: str | None = None
    #: What it is, for the figures (setup, deal, event, chips, read, session).
    kind: str = "other"
    key: str | None = None

    def headers(self) -> dict[str, str]:
        headers = {"Accept": "application/json", "X-Device": "simulated tablet"}
        if self.token is not None:
            headers["Authorization"] = f"Bearer {self.token}"
        if self.body is not None:
            headers["Content-Type"] = "application/json"
        if self.method == "POST":
            headers["Idempotency-Key"] = self.key or uuid.uuid4().hex
        return headers


class HttpTransport:
    """A live server at ``url``; one kept-alive connection per thread (or, without
    ``keep_alive``, a new connection for every request). Given several URLs (app servers on
    one database), each thread keeps to one of them, the threads taking them in turn: a
    table's tablet stays with the server it reached first."""

    def __init__(
        self,
        url: str | Sequence[str],
        timeout: float = 30.0,
        figures: Figures | None = None,
        keep_alive: bool = True,
    ) -> None:
        urls = [url] if isinstance(url, str) else list(url)
        parts = [urlsplit(u) for u in urls]
        self.servers = [(p.hostname or "127.0.0.1", p.port or 80) for p in parts]
        self._turn = itertools.count()
        self.prefix = parts[0].path.rstrip("/") + "/api/v1"
        self.timeout = timeout
        self.figures = figures or Figures()
        self.reuse_for = IDLE_REUSE if keep_alive else -1.0
        self._local = threading.local()

    def _connection(self) -> http.client.HTTPConnection:
        connection = getattr(self._local, "connection", None)
        now = time.monotonic()
        if connection is not None and now - self._local.used > self.reuse_for:
            connection.close()
            connection = None
        if connection is None:
            if not hasattr(self._local, "server"):
                self._local.server = self.servers[next(self._turn) % len(self.servers)]
            connection = http.client.HTTPConnection(*self._local.server, timeout=self.timeout)
            self._local.connection = connection
        self._local.used = now
        return connection

    def close(self) -> None:
        """Close this thread's connection."""
        self._drop_connection()

    def _drop_connection(self) -> None:
        connection = getattr(self._local, "connection", None)
        if connection is not None:
            connection.close()
        self._local.connection = None

    def send(self, request: Request) -> tuple[int, Any]:
        method, path, kind = request.method, request.path, request.kind
        headers = request.headers()
        data = json.dumps(request.body).encode() if request.body is not None else None
        wait = FIRST_WAIT
        for attempt in range(TRIES):
            if attempt:
                self.figures.retries += 1
                time.sleep(wait)
                wait *= 2
            started = time.perf_counter()
            try:
                connection = self._connection()
                connection.request(method, self.prefix + path, body=data, headers=headers)
                response = connection.getresponse()
                raw = response.read()
            except (OSError, http.client.HTTPException):
                self._drop_connection()
                continue
            if self.reuse_for < 0:
                self._drop_connection()
            ms = (time.perf_counter() - started) * 1000
            if response.status in RETRY_STATUSES:
                continue
            self.figures.add(kind, ms, response.status)
            return response.status, json.loads(raw) if raw else None
        self.figures.add(kind, 0.0, 0)
        raise Unanswered(f"{method} {path}: no answer after {TRIES} tries")


class InProcessTransport:
    """The app in this process, through Flask's test client (no server, no sockets)."""

    def __init__(self, app: Flask, figures: Figures | None = None) -> None:
        self.client = app.test_client()
        self.figures = figures or Figures()

    def send(self, request: Request) -> tuple[int, Any]:
        started = time.perf_counter()
        body = request.body
        response = self.client.open(
            "/api/v1" + request.path,
            method=request.method,
            headers=request.headers(),
            data=json.dumps(body) if body is not None else None,
        )
        ms = (time.perf_counter() - started) * 1000
        self.figures.add(request.kind, ms, response.status_code)
        return response.status_code, response.get_json(silent=True)


def sign_in(transport: Transport, person: Mapping[str, str]) -> str:
    """A bearer token for ``person`` ({"name", "pin"})."""
    status, answer = transport.send(Request("POST", "/session", dict(person), kind="setup"))
    if status != 200:
        raise Unanswered(f"signing in as {person['name']}: {status} {answer}")
    token: str = answer["token"]
    return token


def open_table(url: str, floor: Mapping[str, str], name: str, seats: int) -> tuple[str, int]:
    """Signed in at ``url`` as ``floor`` (a supervisor), a classic table called ``name`` with
    seats 1 to ``seats`` taken, 100 chips each: the floor's token and the table's id."""
    transport = HttpTransport(url, timeout=60)
    token = sign_in(transport, floor)
    status, table = transport.send(
        Request("POST", "/tables", {"name": name, "profile": "classic"}, token)
    )
    assert status == 201, table
    for seat in range(1, seats + 1):
        body = {"seat": seat, "player": f"Player {seat}", "buy_in": 100}
        status, answer = transport.send(
            Request("POST", f"/tables/{table['id']}/seats", body, token)
        )
        assert status == 201, answer
    transport.close()
    return token, int(table["id"])
