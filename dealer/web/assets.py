"""The screens' stylesheet and script as a tablet gets them: minified once, kept for a year.

Every screen loads ``static/app.css`` and ``static/dealer.js``. Their sources are written to
be read (a comment for each rule and function, indented): 97 KB of a hand page's 160 KB,
over issue 4's 150 KB for the page. They are served minified (rcssmin and rjsmin: comments
and whitespace out, nothing renamed or reordered, so the code that runs is the code in the
repository, statement for statement), and at an address that names their content
(``/static/dealer.js?v=<hash>``), answered as never changing: a tablet loads them once per
release instead of asking again on every screen it opens. An address with any other ``v``
(a page drawn before a release) or none still gets today's file, marked to be asked again.

Each file is read and minified at most once per process while it is unchanged (its size and
time of change): the served app makes them once, at its first screen; `make run` picks up an
edited file at the next request. A file that is missing is answered 404, as before, and the
screens still draw.

Flask marks an answer ``Vary: Cookie`` whenever the request's session was looked at, and every
request's is (Flask-Login looks at it after each): a browser then keeps a file only for the
cookie it was fetched with, and the screens' cookie changes as they are used, so a new tab
asked again for both files. A file answered at its hashed address is the same for everyone and
sets no cookie: its answer does not vary by cookie (`_SessionInterface`).
"""

from __future__ import annotations

import hashlib
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import rcssmin
import rjsmin
from flask import Flask, Response, request
from flask.sessions import SecureCookieSessionInterface, SessionMixin

#: What each minified file is, by name in the static folder.
ASSETS = {
    "app.css": ("text/css", rcssmin.cssmin),
    "dealer.js": ("text/javascript", rjsmin.jsmin),
    "sw.js": ("text/javascript", rjsmin.jsmin),
}
#: The service worker (static/sw.js) at the root, so that it may keep the hand screens: asked
#: again each time (a browser checks it for a new release), never kept a year.
SHELL_WORKER = "/sw.js"
#: How long a tablet keeps a file whose address names its content: a year, never asked again.
KEPT = "public, max-age=31536000, immutable"
#: A file asked for by its bare name (or a release's old hash): today's, asked again each time.
ASKED_AGAIN = "no-cache"


@dataclass(frozen=True)
class Asset:
    """One file as served: its bytes, their type, and the hash its address names."""

    body: bytes
    mimetype: str
    version: str


_made: dict[tuple[str, int, int], Asset] = {}
_making = threading.Lock()


def served(folder: str | os.PathLike[str], name: str) -> Asset:
    """``name`` in ``folder`` as it is served now (made once while the file is unchanged)."""
    path = Path(folder) / name
    stat = path.stat()
    key = (str(path), stat.st_mtime_ns, stat.st_size)
    found = _made.get(key)
    if found is None:
        with _making:
            found = _made.get(key)
            if found is None:
                mimetype, minify = ASSETS[name]
                body = minify(path.read_text(encoding="utf-8")).encode()
                found = Asset(body, mimetype, hashlib.sha256(body).hexdigest()[:16])
                _made[key] = found
    return found


class _SessionInterface(SecureCookieSessionInterface):
    """Flask's signed-cookie session, less ``Vary: Cookie`` on a file kept a year (`KEPT`)
    whose answer sets no cookie."""

    def save_session(self, app: Flask, session: SessionMixin, response: Response) -> None:
        super().save_session(app, session, response)
        headers = response.headers
        if headers.get("Cache-Control") == KEPT and "Set-Cookie" not in headers:
            response.vary.discard("Cookie")


def _version(folder: str, name: str) -> str | None:
    """The hash ``name``'s address names, or None when the file cannot be read."""
    try:
        return served(folder, name).version
    except OSError:
        return None


def install(app: Flask) -> None:
    """Serve the `ASSETS` minified from ``app``'s static route, and give each address that
    ``url_for('static', filename=...)`` builds for them their content's hash."""
    folder = app.static_folder
    if folder is None or "static" not in app.view_functions:
        return
    plain = app.view_functions["static"]
    if type(app.session_interface) is SecureCookieSessionInterface:
        app.session_interface = _SessionInterface()

    def static(filename: str) -> Any:
        if filename not in ASSETS:
            return plain(filename=filename)
        try:
            asset = served(folder, filename)
        except OSError:
            return plain(filename=filename)  # not there: answered as Flask answers it (404)
        answer = Response(asset.body, mimetype=asset.mimetype)
        answer.set_etag(asset.version)
        named = request.args.get("v") == asset.version
        answer.headers["Cache-Control"] = KEPT if named else ASKED_AGAIN
        return answer.make_conditional(request)

    app.view_functions["static"] = static

    def shell_worker() -> Any:
        answer = static("sw.js")
        answer.headers["Cache-Control"] = ASKED_AGAIN
        return answer

    app.add_url_rule(SHELL_WORKER, "shell_worker", shell_worker)

    @app.url_defaults
    def name_the_content(endpoint: str, values: dict[str, Any]) -> None:
        if endpoint == "static" and values.get("filename") in ASSETS and "v" not in values:
            version = _version(folder, values["filename"])
            if version is not None:
                values["v"] = version
