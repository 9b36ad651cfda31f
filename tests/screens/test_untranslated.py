"""Every screen of the role walk drawn in each shipped language holds no English message left
untranslated (`tests.words.untranslated`): the world is made in that language, as a floor
speaking it makes it, and every page of the pseudo-language walk is drawn in it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from markupsafe import escape
from sqlalchemy import select

from dealer.extensions import db
from dealer.models import AuditRecord
from dealer.words.catalogue import use_catalogue
from tests.screens.conftest import Web
from tests.screens.test_no_codes import knobbed  # noqa: F401  (the fixture)
from tests.screens.test_roles import PAGES, QUERIES
from tests.words.languages import SHIPPED, compiled
from tests.words.untranslated import checker, page_pieces


def walk(app: Flask, knobbed: dict[str, int]) -> Iterator[tuple[str, str]]:  # noqa: F811
    """Each page of the role walk (and the sign-in, a refusal) as drawn: its path and HTML."""
    admin = Web.sign_in(app, "admin")
    dealer_web = Web.sign_in(app, "dealer")
    pages = [(admin, template.format(**knobbed) + QUERIES.get(template, "")) for template in PAGES]
    pages.append((Web(app.test_client()), "/sign-in"))
    pages.append((dealer_web, "/floor/audit"))
    for web, path in pages:
        answer = web.client.get(path)
        assert answer.status_code in (200, 403, 422), (path, answer.status_code)
        yield path, answer.get_data(as_text=True)


@pytest.fixture(params=SHIPPED)
def drawn_in(request: pytest.FixtureRequest, people: Flask) -> Iterator[tuple[str, list[str]]]:
    """A shipped language, from before the test's world is made, and the words of the audit
    records already there (sealed in English before any language was chosen)."""
    with people.app_context():
        sealed = list(db.session.scalars(select(AuditRecord.words)))
    with use_catalogue(compiled(request.param)):
        yield request.param, sealed


def untranslated_on_screens(
    app: Flask,
    language: str,
    sealed: list[str],
    knobbed: dict[str, int],  # noqa: F811
) -> dict[str, list[str]]:
    """Each page of the walk with the English messages left on it in ``language``."""
    found = {}
    for path, html in walk(app, knobbed):
        for words in sealed:
            html = html.replace(str(escape(words)), " ")
        if left := checker(language).untranslated(page_pieces(html)):
            found[path] = left
    return found


def test_every_screen_is_drawn_in_the_language(
    people: Flask,
    drawn_in: tuple[str, list[str]],
    knobbed: dict[str, int],  # noqa: F811
) -> None:
    language, sealed = drawn_in
    found = untranslated_on_screens(people, language, sealed, knobbed)
    assert not found, "\n".join(f"{path}: {left}" for path, left in found.items())
