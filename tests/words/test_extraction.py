"""The catalogue's extraction finds the messages of the code, the forms and the templates, so a
translator is given every one (the screens' and documents' catalogue tests also hold every
message they said to it)."""

from __future__ import annotations

from tests.words.extraction import extracted


def test_the_extraction_finds_every_kind_of_message() -> None:
    found = extracted()
    assert "Seat the player" in found  # a template's
    assert "Chips in the tray" in found  # a form's label, marked say_later
    assert "Packs in the shoe" in found  # the vocabulary's knob names, marked say_later
    assert {"{count} chip", "{count} chips"} <= found  # a plural, both forms
    assert "Page {page} of {pages}" in found  # a document's
