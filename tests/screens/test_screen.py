"""What every screen shares: a seat's name that may break on a narrow chip."""

from __future__ import annotations

from dealer.screens.screen import breakable

SOFT = "\u00ad"


def test_a_long_name_breaks_between_its_syllables() -> None:
    """A soft hyphen where a syllable starts: before a consonant and its vowel, or before two
    consonants that start one together (Pe-dro, Chris-to-pher)."""
    said = {
        name: breakable(name).replace(SOFT, "-")
        for name in (
            "Esperanza",
            "Carmelita",
            "Concepción",
            "Pedro",
            "Christopher",
            "Maria Guadalupe",
        )
    }
    assert said == {
        "Esperanza": "Es-pe-ran-za",
        "Carmelita": "Car-me-li-ta",
        "Concepción": "Con-cep-ción",
        "Pedro": "Pe-dro",
        "Christopher": "Chris-to-pher",
        "Maria Guadalupe": "Ma-ria Gua-da-lu-pe",
    }


def test_a_break_leaves_two_letters_on_each_side() -> None:
    said = [breakable(name) for name in ("Ana", "Bea T10", "O'Brien", "Ana-María", "JOSÉ")]
    assert said == ["Ana", "Bea T10", "O'Brien", f"Ana-Ma{SOFT}ría", f"JO{SOFT}SÉ"]
