"""The type the documents are set in: DejaVu Sans, which prints the names people have.

Its condensed cut, close to Helvetica's width, so the columns laid out for Helvetica fit.

ReportLab's built-in Helvetica knows only Latin-1: "Δημήτρης" or "Łukasz" would print as
boxes. DejaVu Sans (Debian's ``fonts-dejavu-core``, installed by .ci/run) covers Greek,
Cyrillic, Latin Extended and more; ReportLab embeds the subset it uses. Where the font is
not installed the documents still print, in Helvetica, and the log says why names may
show as boxes.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError, TTFont

FONT_FOLDER = Path(os.environ.get("DEALER_FONT_FOLDER", "/usr/share/fonts/truetype/dejavu"))
log = logging.getLogger(__name__)


def _register() -> tuple[str, str, float]:
    """The regular and bold font names, and their widest average glyph in em."""
    try:
        pdfmetrics.registerFont(TTFont("DejaVuSans", str(FONT_FOLDER / "DejaVuSansCondensed.ttf")))
        pdfmetrics.registerFont(
            TTFont("DejaVuSans-Bold", str(FONT_FOLDER / "DejaVuSansCondensed-Bold.ttf"))
        )
    except (OSError, TTFError) as exc:
        log.warning(
            "DejaVu Sans was not found in %s (%s): documents use Helvetica, which prints "
            "names outside Latin-1 as boxes. Install fonts-dejavu-core.",
            FONT_FOLDER,
            exc,
        )
        return "Helvetica", "Helvetica-Bold", 0.6
    pdfmetrics.registerFontFamily("DejaVuSans", normal="DejaVuSans", bold="DejaVuSans-Bold")
    return "DejaVuSans", "DejaVuSans-Bold", 0.6


FONT, BOLD, AVERAGE_EM = _register()
