"""Issue 10, finding 9: the documents print the names people have, not boxes."""

from dataclasses import replace

from dealer.reports import hand_slip_pdf
from dealer.reports.fonts import FONT
from tests.reports.examples import pdf_pages, seed_000_hand, slip_of

NAMES = ("Δημήτρης", "Łukasz", "Ёлка Чернова")


def test_the_documents_are_set_in_dejavu_sans() -> None:
    """fonts-dejavu-core is installed (.ci/run): Helvetica would print these as boxes."""
    assert FONT == "DejaVuSans"


def test_greek_polish_and_cyrillic_names_read_back_from_the_pdf() -> None:
    slip = slip_of(seed_000_hand())
    seats = tuple(replace(seat, player=NAMES[i % len(NAMES)]) for i, seat in enumerate(slip.seats))
    slip = replace(slip, dealer="Δημήτρης", table="Stół Łukasza", seats=seats)
    text = "\n".join(pdf_pages(hand_slip_pdf(slip)))
    for name in (*NAMES, "Stół Łukasza"):
        assert name in text
