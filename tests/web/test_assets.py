"""The screens' stylesheet and script as a tablet gets them (dealer/web/assets.py): minified,
at an address naming their content and kept a year there, today's file at any other address.
The browser tests run every screen on the minified script; here, what is served."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from flask import Flask

from dealer.web import assets
from tests.screens.conftest import Web
from tests.web.test_headers import assert_protected

STATIC = Path(__file__).resolve().parents[2] / "static"


def linked(page: str) -> dict[str, str]:
    """The stylesheet's and the script's addresses on ``page``, by file name."""
    found = re.findall(r'"(/static/(app\.css|dealer\.js)\?v=[0-9a-f]{16})"', page)
    return {name: address for address, name in found}


def test_every_screen_links_both_files_by_their_contents_hash(supervisor: Web) -> None:
    for path in ("/sign-in", "/floor"):
        addresses = linked(supervisor.client.get(path).get_data(as_text=True))
        assert set(addresses) == {"app.css", "dealer.js"}, path
        for name, address in addresses.items():
            assert address.endswith("?v=" + assets.served(STATIC, name).version)


@pytest.mark.parametrize(
    ("name", "mimetype", "comment"),
    [("app.css", "text/css", "/*"), ("dealer.js", "text/javascript", "\n  // ")],
)
def test_the_named_address_answers_the_minified_file_kept_a_year(
    supervisor: Web, name: str, mimetype: str, comment: str
) -> None:
    client = supervisor.client
    address = linked(client.get("/floor").get_data(as_text=True))[name]
    answer = client.get(address)
    assert answer.status_code == 200
    assert answer.mimetype == mimetype
    assert answer.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert_protected(answer.headers, cached=True)
    source = (STATIC / name).read_text(encoding="utf-8")
    body = answer.get_data(as_text=True)
    assert comment in source and comment not in body
    assert len(body) < 0.8 * len(source)
    # Nothing renamed: every name the source defines or uses is still there.
    words = set(
        re.findall(
            r"[A-Za-z_][A-Za-z0-9_-]{3,}", re.sub(r"/\*.*?\*/|//[^\n]*", "", source, flags=re.S)
        )
    )
    assert words <= set(re.findall(r"[A-Za-z_][A-Za-z0-9_-]{3,}", body))
    # The same for everyone: kept whatever the cookie (Flask would say Vary: Cookie, since
    # every request's session is looked at), and no cookie set.
    assert "Vary" not in answer.headers and "Set-Cookie" not in answer.headers
    again = client.get(address, headers={"If-None-Match": answer.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""
    head = client.head(address)
    assert head.status_code == 200 and head.data == b""
    assert head.headers["Content-Length"] == str(len(answer.data))


def test_any_other_address_gets_todays_file_asked_again(people: Flask) -> None:
    client = people.test_client()
    today = client.get("/static/dealer.js?v=" + assets.served(STATIC, "dealer.js").version)
    for address in ("/static/dealer.js", "/static/dealer.js?v=0123456789abcdef"):
        answer = client.get(address)
        assert answer.status_code == 200
        assert answer.headers["Cache-Control"] == "no-cache"
        assert answer.data == today.data
    other = client.get("/static/favicon.svg")  # any other static file: as it is in the folder
    assert other.status_code == 200
    assert other.data == (STATIC / "favicon.svg").read_bytes()
    other.close()


def test_an_edited_file_is_served_with_a_new_hash(tmp_path: Path) -> None:
    shutil.copy(STATIC / "app.css", tmp_path / "app.css")
    before = assets.served(tmp_path, "app.css")
    assert assets.served(tmp_path, "app.css") is before  # made once while unchanged
    with (tmp_path / "app.css").open("a", encoding="utf-8") as css:
        css.write("\n.added { color: red; }\n")
    after = assets.served(tmp_path, "app.css")
    assert after.version != before.version
    assert after.body.endswith(b".added{color:red}")


def test_a_file_that_cannot_be_read_leaves_the_screens_drawn(
    supervisor: Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = assets.served

    def unreadable(folder: str, name: str) -> assets.Asset:
        if name == "dealer.js":
            raise FileNotFoundError(name)
        return made(folder, name)

    monkeypatch.setattr(assets, "served", unreadable)
    page = supervisor.client.get("/floor")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert '"/static/dealer.js"' in text  # linked by its bare name, answered as Flask does
    assert set(linked(text)) == {"app.css"}


def test_the_service_worker_is_served_at_the_root_minified_and_asked_again(
    supervisor: Web,
) -> None:
    """static/sw.js at /sw.js (a worker may keep only the pages under its own address),
    minified, checked for a new release each time; every screen names it."""
    answer = supervisor.client.get("/sw.js")
    assert answer.status_code == 200
    assert answer.mimetype == "text/javascript"
    assert answer.headers["Cache-Control"] == assets.ASKED_AGAIN
    body = answer.get_data(as_text=True)
    assert body == assets.served(STATIC, "sw.js").body.decode()
    # No comment left (its addresses' patterns, "/static/*", are strings, not comments).
    assert "/* " not in body and "The table screen without" not in body
    assert "caches.open" in body
    assert 'data-shell="/sw.js"' in supervisor.client.get("/floor").get_data(as_text=True)


def test_the_page_and_the_worker_keep_the_same_caches() -> None:
    """The script stores the screens it draws where the worker looks for them."""
    worker = (STATIC / "sw.js").read_text(encoding="utf-8")
    script = (STATIC / "dealer.js").read_text(encoding="utf-8")
    for name in re.findall(r'var (?:PAGES|FILES) = "([^"]+)"', worker):
        assert f'"{name}"' in script
