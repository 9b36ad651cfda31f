"""Every document of the knobbed hand (`tests.reports.test_no_codes.every_document`) printed in
each shipped language holds no English message left untranslated (`tests.words.untranslated`):
the world is made in that language, as a floor speaking it makes it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask

from dealer.words.catalogue import use_catalogue
from tests.helpers import Api
from tests.reports.evening import pdf_text
from tests.reports.test_no_codes import every_document
from tests.reports.test_routes import fetch
from tests.screens.test_no_codes import knobbed  # noqa: F401  (the fixture)
from tests.words.languages import SHIPPED, compiled
from tests.words.untranslated import checker, lines


def untranslated_in_documents(
    app: Flask,
    language: str,
    knobbed: dict[str, int],  # noqa: F811
) -> dict[str, list[str]]:
    """Each document with the English messages left in it, printed in ``language``."""
    floor = Api.sign_in(app, "supervisor")
    found = {}
    for path in every_document(floor, knobbed):
        text = pdf_text(fetch(floor, path).data)
        assert len(text) > 100, path
        if left := checker(language).untranslated(lines(text)):
            found[path] = left
    return found


@pytest.fixture(params=SHIPPED)
def printed_in(request: pytest.FixtureRequest) -> Iterator[str]:
    """A shipped language, from before the test's world is made."""
    with use_catalogue(compiled(request.param)):
        yield request.param


def test_every_document_is_printed_in_the_language(
    people: Flask,
    printed_in: str,
    knobbed: dict[str, int],  # noqa: F811
) -> None:
    found = untranslated_in_documents(people, printed_in, knobbed)
    assert not found, "\n".join(f"{path}: {left}" for path, left in found.items())
