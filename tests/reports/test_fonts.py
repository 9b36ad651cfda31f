"""Issue 10, finding 9: the documents print the names people have, not boxes."""

import io
from dataclasses import replace

from pypdf import PdfReader

from dealer.reports import down_pdf, hand_slip_pdf, shift_pdf
from dealer.reports.fonts import FONT
from dealer.reports.pages import PrintOptions
from dealer.reports.receipt import hand_slip_receipt
from tests.reports.examples import (
    down_example,
    pdf_pages,
    seed_000_hand,
    shift_example,
    slip_of,
)

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


def _fonts(data: bytes) -> set[tuple[str, bool]]:
    """Every font a PDF lists on its pages, and whether its file is embedded."""
    found = set()
    for page in PdfReader(io.BytesIO(data)).pages:
        for font in page["/Resources"].get_object().get("/Font", {}).values():
            font = font.get_object()
            descendants = font.get("/DescendantFonts")
            described = descendants[0].get_object() if descendants else font
            descriptor = described.get("/FontDescriptor")
            embedded = descriptor is not None and any(
                key in descriptor.get_object() for key in ("/FontFile", "/FontFile2", "/FontFile3")
            )
            found.add((str(font["/BaseFont"]), embedded))
    return found


def test_no_document_lists_a_font_it_does_not_embed() -> None:
    """ReportLab's canvas starts in Helvetica, which it lists and never embeds: the documents'
    canvas starts in DejaVu Sans, so every font a PDF lists is embedded (as PDF/A asks)."""
    documents = {
        "hand slip": hand_slip_pdf(slip_of(seed_000_hand())),
        "receipt": hand_slip_receipt(slip_of(seed_000_hand()), PrintOptions(page_size="receipt")),
        "session": down_pdf(down_example(3)),
        "shift": shift_pdf(shift_example()),
    }
    for name, data in documents.items():
        fonts = _fonts(data)
        assert fonts, name
        assert all(embedded for _, embedded in fonts), (name, fonts)
        assert not any("Helvetica" in font for font, _ in fonts), (name, fonts)
