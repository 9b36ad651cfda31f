"""The headers every answer carries: what the browser may load, frame, send and keep.

A small ``after_request`` rather than flask-talisman: Talisman's defaults would redirect
every plain-HTTP request to HTTPS and mark the cookie Secure (a card room's tablets often
reach the app over the room's own network, on HTTP, until HTTPS is set up), so it would be
configured mostly by switching its features off; the headers themselves are a handful of
constant strings, tested in tests/screens/test_headers.py, and this keeps them readable in one
place.

- **Content-Security-Policy**: scripts, styles, images, fonts and calls from this site only;
  no inline script or style (the templates carry none: data goes through ``data-*``
  attributes and base.html's JSON block, which is not run), no plugins, no ``<base>``, forms
  post only here, and no other site may frame a page (``frame-ancestors 'none'``, with
  X-Frame-Options for older browsers).
- **X-Content-Type-Options: nosniff**: a download is what its type says it is.
- **Referrer-Policy: same-origin**: addresses (with table and hand ids) never leave the
  site; within it, a form's answer still finds the screen it was sent from.
- **Strict-Transport-Security** when served over HTTPS (``DEALER_SECURE_COOKIES=1``).
- **Cache-Control: no-store** on everything but the static files (and an answer that set its
  own: the live screens' version asks and the OpenAPI document, ``no-cache`` with an
  ETag): screens, the API's JSON, documents and exports show chips, and a shared tablet's
  back button or cache must not show them to the next person. Static files (the script and
  style) may be cached.
- **OPTIONS** is answered 204 with the ``Allow`` header (the methods the address takes) and
  no body, not Flask's empty ``text/html`` 200.
"""

from __future__ import annotations

from flask import Flask, Response, request

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
HSTS = "max-age=31536000; includeSubDomains"


def install(app: Flask) -> None:
    """Add the headers to every answer of ``app``."""
    static = (app.static_url_path or "/static") + "/"
    allowed = app.make_default_options_response

    def options() -> Response:
        answer = allowed()
        answer.status_code = 204
        del answer.headers["Content-Type"]
        return answer

    app.make_default_options_response = options  # type: ignore[method-assign]

    @app.after_request
    def protect(response: Response) -> Response:
        headers = response.headers
        headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        headers.setdefault("X-Frame-Options", "DENY")
        headers.setdefault("X-Content-Type-Options", "nosniff")
        headers.setdefault("Referrer-Policy", "same-origin")
        if app.config.get("SECURE_COOKIES"):
            headers.setdefault("Strict-Transport-Security", HSTS)
        if not request.path.startswith(static) and "Cache-Control" not in headers:
            # A view that chose its own caching keeps it: the live version asks answer
            # ``no-cache`` with an ETag (a version number, no chips) to be asked again.
            headers["Cache-Control"] = "no-store"
        return response
