"""Every page the tests render is valid HTML: no parse error (html5lib, the WHATWG parsing
algorithm), no id used twice, and none of the mistakes a validator flags that a parser
forgives (a constraint on a hidden input, a required select with no empty first choice, an
aria-label on a div or a span with no role).

`watch(app)` checks each HTML answer the app gives while the tests run; `take(app)` hands
over (and forgets) what was found, for the fixture that asserts nothing was.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import html5lib
from flask import Flask, request
from werkzeug.wrappers import Response

__all__ = ["problems", "take", "watch"]

XHTML = "{http://www.w3.org/1999/xhtml}"
#: Attributes a hidden input may not carry (HTML's content model).
NOT_ON_HIDDEN = ("required", "min", "max", "minlength", "maxlength", "pattern", "placeholder")
KEY = "html_problems"


def problems(html: str) -> list[str]:
    """What is wrong with ``html`` as a whole document, each in a line."""
    parser = html5lib.HTMLParser(tree=html5lib.getTreeBuilder("etree"))
    root = parser.parse(html)
    found = [
        f"parse error {code} {data or ''} at line {line}"
        for (line, _col), code, data in parser.errors
    ]
    ids = Counter(e.get("id") for e in root.iter() if e.get("id"))
    found += [f'id "{name}" used {n} times' for name, n in ids.items() if n > 1]
    for el in root.iter(XHTML + "input"):
        if el.get("type") == "hidden":
            bad = [a for a in NOT_ON_HIDDEN if el.get(a) is not None]
            if bad:
                found.append(f"hidden input {el.get('name')} with {', '.join(bad)}")
    for el in root.iter(XHTML + "select"):
        if el.get("required") is not None and el.get("multiple") is None:
            first = el.find(XHTML + "option")
            if first is None or (first.get("value") or first.text or "").strip():
                found.append(f"required select {el.get('name')} with no empty first choice")
    for tag in ("div", "span"):  # a generic element may not be named (Nu's "aria-label")
        for el in root.iter(XHTML + tag):
            if el.get("aria-label") is not None and el.get("role") is None:
                found.append(f"aria-label on a {tag} with no role: {el.get('aria-label')}")
    return found


def watch(app: Flask) -> Flask:
    """Check every HTML page ``app`` answers with from now on."""
    app.extensions[KEY] = []

    @app.after_request
    def check(response: Response) -> Response:
        if response.mimetype != "text/html" or response.is_streamed:
            return response
        page = response.get_data(as_text=True)
        if not page.strip():  # an answer with no body (OPTIONS, 304): no page to check
            return response
        found = problems(page)
        if found:
            app.extensions[KEY].append(f"{request.method} {request.full_path}: {found}")
        return response

    return app


def take(app: Any) -> list[str]:
    """What was found wrong since the last time (and forget it)."""
    found = list(app.extensions.get(KEY, []))
    app.extensions[KEY] = []
    return found
