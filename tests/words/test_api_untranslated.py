"""Every refusal the API answers bad input with (`tests.api.test_bad_input`'s bodies at each
address) and every refusal of the engine (`tests.words.test_refusals`'s) is said in the
language the client asks for (``Accept-Language``): no English message is left in it."""

from __future__ import annotations

import pytest
from flask import Flask

from dealer.web.refusals import refusal
from tests.api.test_bad_input import BAD_BODIES
from tests.helpers import Api
from tests.words.languages import SHIPPED, speaking
from tests.words.test_refusals import REFUSED
from tests.words.untranslated import checker

#: The addresses the bad bodies are sent to.
ADDRESSES = (
    "/tables",
    "/tables/{table}/seats",
    "/tables/{table}/seats/1/chips",
    "/tables/{table}/hands",
    "/tables/{table}/collections",
    "/hands/{hand}/events",
    "/hands/{hand}/fits",
    "/session",
    "/tables/0",
    "/hands/99999999999999999999",
    "/nowhere",
)


def api_refusals(app: Flask, language: str) -> list[str]:
    """The message of each refusal the API answers ``admin``'s bad input with, in ``language``,
    and of each of the engine's refusals as the door says it."""
    admin, floor = Api.sign_in(app, "admin"), Api.sign_in(app, "supervisor")
    table = floor.table()["id"]
    floor.seat(table, 1, "Ana")
    floor.seat(table, 2, "Ben")
    setup = {"table": table, "hand": floor.hand(table)["id"]}
    said = []
    for path in ADDRESSES:
        url = path.format(**setup)
        for body in BAD_BODIES if "{" in path or path in ("/tables", "/session") else [{}]:
            answer = admin.call(
                "POST",
                url,
                body if body is not None else "null",
                headers={"Accept-Language": language},
            )
            assert 400 <= answer.status_code < 500, (url, body, answer.status_code)
            said.append(answer.get_json()["error"]["message"])
    with speaking(language):
        for make in REFUSED.values():
            with pytest.raises(Exception) as refused:
                make()
            said.append(refusal(refused.value)[2])
    return said


@pytest.mark.parametrize("language", SHIPPED)
def test_every_api_refusal_is_said_in_the_language(people: Flask, language: str) -> None:
    said = api_refusals(people, language)
    assert len(set(said)) > 30
    assert not (left := checker(language).untranslated(said)), left


def test_the_checker_finds_english_left_in_a_language() -> None:
    """A piece that is an English message (its fields any text), or holds one of three words
    or more, is found; its translation, a name the test typed in and a kept word are not."""
    es, fil = checker("es"), checker("fil")
    assert es.untranslated(["There is nothing at this address."])  # the API's, as it was
    assert es.untranslated(["12 chips"])  # "{count} chips", its field any text
    assert es.untranslated(["Mesa: seat 2 melds 7D 7D 7D"])  # inside a longer piece
    assert not es.untranslated(["12 fichas", "Cerrar sesión", "PIN", "Table 1", "7D 7D 7D"])
    assert not fil.untranslated(["12 chip", "Dealer"])  # words Filipino keeps
    assert fil.untranslated(["Sign out"])
