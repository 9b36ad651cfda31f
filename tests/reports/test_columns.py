"""A document's columns fit the language printed: a header's word is never broken in two, and
a table whose headers fit (English's) keeps the widths its document gave it."""

from __future__ import annotations

import re

import pytest
from reportlab.pdfbase.pdfmetrics import stringWidth

from dealer.reports import down_pdf
from dealer.reports.columns import PAD, header_widths, label_width
from dealer.reports.fonts import BOLD
from tests.reports.examples import down_example, pdf_pages
from tests.words.languages import speaking


def test_headers_that_fit_keep_their_widths() -> None:
    widths = [26.0, 58.0, 100.0]
    assert header_widths(["Seat", "Player", "Buy-ins"], widths, 7.5) == widths
    assert header_widths(["Voids / events", "x"], [53.0, 74.0], 5.5, whole=True) == [53.0, 74.0]


def test_a_header_word_too_long_takes_room_from_the_columns_with_some_to_spare() -> None:
    widths = [26.0, 58.0, 100.0]
    fitted = header_widths(["Asiento", "Jugador", "Compras de fichas"], widths, 7.5)
    assert fitted[0] >= stringWidth("Asiento", BOLD, 7.5) + 2 * PAD
    assert sum(fitted) == pytest.approx(sum(widths))
    assert fitted[1] < widths[1] and fitted[2] < widths[2]
    # The longer a column's spare room, the more it gives.
    assert widths[2] - fitted[2] > widths[1] - fitted[1]


@pytest.mark.parametrize(
    ("language", "seat", "player"), [("es", "Asiento", "Jugador"), ("fil", "Upuan", "Manlalaro")]
)
def test_the_down_reports_seat_column_holds_its_header_whole(
    language: str, seat: str, player: str
) -> None:
    with speaking(language):
        text = "\n".join(pdf_pages(down_pdf(down_example(12))))
    assert re.search(rf"\b{seat}\n{player}\n", text), "the Seat column's header broken"


def test_a_summarys_label_is_given_room_rather_than_clipped() -> None:
    with speaking("es"):
        text = "\n".join(pdf_pages(down_pdf(down_example(12))))
    assert "anulaciones y correcciones\n" in text
    assert label_width(["mesa", "sesión"], 262.8, 0.4) == 262.8 * 0.4  # labels that fit
