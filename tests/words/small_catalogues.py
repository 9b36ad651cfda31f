"""Two small catalogues, Spanish and Filipino, compiled for a test into a folder of its own
and made the app's (`dealer.words.catalogue.LOCALE_DIR`): the machinery of choosing a language
is tested with them, whatever the shipped catalogues hold."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo

from dealer.words import catalogue

#: A few messages of the screens, the API and the documents, in each language.
WORDS: dict[str, dict[str | tuple[str, str], str | tuple[str, ...]]] = {
    "es": {
        "Sign out": "Cerrar sesión",
        "Pot": "Bote",
        "in play": "en juego",
        "There is nothing at this address.": "No hay nada en esta dirección.",
        "received": "recibido",
        "Language": "Idioma",
        "Language: {name}.": "Elegido: {name}.",
        ("{count} chip", "{count} chips"): ("{count} ficha", "{count} fichas", "{count} fichas"),
    },
    "fil": {
        "Sign out": "Mag-sign out",
        "Pot": "Pusta",
        "in play": "naglalaro",
        "There is nothing at this address.": "Walang laman ang address na ito.",
        "received": "natanggap",
        "Language": "Wika",
        "Language: {name}.": "Napili: {name}.",
        ("{count} chip", "{count} chips"): ("{count} chip", "{count} na chip"),
    },
}


def compile_catalogues(folder: Path) -> Path:
    """`WORDS` compiled as ``<folder>/<language>/LC_MESSAGES/dealer.mo``; the folder."""
    for code, words in WORDS.items():
        found = Catalog(locale=code, domain="dealer")
        for message, translated in words.items():
            found.add(message, translated)
        place = folder / code / "LC_MESSAGES"
        place.mkdir(parents=True)
        with (place / "dealer.mo").open("wb") as compiled:
            write_mo(compiled, found)
    return folder


@pytest.fixture
def small_catalogues(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Spanish and Filipino shipped, as `WORDS` says them, for this test."""
    folder = compile_catalogues(tmp_path / "locale")
    monkeypatch.setattr(catalogue, "LOCALE_DIR", folder)
    return folder
