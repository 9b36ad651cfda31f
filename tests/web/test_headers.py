"""Issue 10, finding 7: the security headers on every answer, no inline script or style,
and nothing that shows chips kept in a cache."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import Flask

from dealer.web.headers import CONTENT_SECURITY_POLICY
from tests.helpers import Api
from tests.screens.conftest import Web

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def assert_protected(headers: object, *, cached: bool = False) -> None:
    csp = headers["Content-Security-Policy"]  # type: ignore[index]
    assert "frame-ancestors 'none'" in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert "script-src 'self'" in csp and "style-src 'self'" in csp
    assert headers["X-Content-Type-Options"] == "nosniff"  # type: ignore[index]
    assert headers["Referrer-Policy"] == "same-origin"  # type: ignore[index]
    assert headers["X-Frame-Options"] == "DENY"  # type: ignore[index]
    if not cached:
        assert headers["Cache-Control"] == "no-store"  # type: ignore[index]


def test_screens_api_documents_and_errors_carry_the_headers(
    people: Flask, supervisor: Web, floor_api: Api
) -> None:
    table = floor_api.table()
    for path in ("/floor", f"/tables/{table['id']}", "/floor/sign-ins", "/sign-in"):
        assert_protected(supervisor.client.get(path).headers)
    assert_protected(floor_api.call("GET", f"/tables/{table['id']}/balances").headers)
    assert_protected(people.test_client().get("/api/v1/nowhere").headers)
    assert_protected(people.test_client().get("/healthz").headers)
    assert "Strict-Transport-Security" not in people.test_client().get("/healthz").headers


def test_static_files_may_be_cached(people: Flask) -> None:
    answer = people.test_client().get("/static/app.css")
    assert answer.status_code == 200
    assert_protected(answer.headers, cached=True)
    assert answer.headers.get("Cache-Control") != "no-store"
    answer.close()


def test_secure_cookies_set_secure_and_hsts(people: Flask) -> None:
    """With DEALER_SECURE_COOKIES=1 (SECURE_COOKIES), is the cookie Secure and HSTS sent?"""
    people.config["SECURE_COOKIES"] = True
    people.config["SESSION_COOKIE_SECURE"] = True
    answer = people.test_client().post("/api/v1/session", json={"name": "Dee", "pin": "1111"})
    assert "Secure" in answer.headers["Set-Cookie"]
    assert answer.headers["Strict-Transport-Security"].startswith("max-age=")


def test_the_config_reads_secure_cookies_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from dealer.config import Config

    monkeypatch.setenv("DEALER_SECURE_COOKIES", "1")
    config = Config(str(tmp_path))
    assert config.SESSION_COOKIE_SECURE is True and config.SECURE_COOKIES is True
    monkeypatch.delenv("DEALER_SECURE_COOKIES")
    assert Config(str(tmp_path)).SESSION_COOKIE_SECURE is False


@pytest.mark.parametrize("template", sorted(TEMPLATES.rglob("*.html")), ids=str)
def test_no_template_has_inline_script_or_style(template: Path) -> None:
    """The CSP forbids inline script and style: no template may need them."""
    text = template.read_text()
    assert not re.search(r"\sstyle\s*=", text), "a style= attribute"
    assert "<style" not in text
    assert not re.search(r"\son[a-z]+\s*=", text), "an inline event handler"
    assert "javascript:" not in text
    for tag in re.findall(r"<script\b[^>]*>", text):
        assert "src=" in tag or 'type="application/json"' in tag, tag


def test_the_policy_is_one_constant() -> None:
    assert CONTENT_SECURITY_POLICY.count("default-src") == 1
