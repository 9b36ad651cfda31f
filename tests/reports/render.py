"""Render the example documents to PDF and PNG to look at them: ``python -m tests.reports.render``.

Writes to ``screenshots/reports/`` (git-ignored), letter and A4, with ``pdftoppm -r 60``.
"""

import shutil
import subprocess
import sys
from pathlib import Path

from dealer.reports import down_pdf, hand_slip_pdf, shift_pdf
from dealer.reports.pages import PrintOptions
from tests.reports.examples import down_example, seed_000_hand, shift_example, slip_of

OUT = Path("screenshots/reports")
PROBLEMS = (
    "Chain broken at seq 77: the hash does not match the entry before it.",
    "Table 9 has a hand still in play.",
)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for paper in ("letter", "A4"):
        options = PrintOptions(paper, timezone="America/Los_Angeles", printed_by="Flo")
        documents = {
            "slip": hand_slip_pdf(slip_of(seed_000_hand(mis_entry=True)), options),
            "slip-reprint": hand_slip_pdf(slip_of(seed_000_hand(), reprint=2), options),
            "session": down_pdf(down_example(300), options),
            "shift": shift_pdf(shift_example(), options),
            "shift-problems": shift_pdf(shift_example(PROBLEMS, reprint=1), options),
        }
        for name, data in documents.items():
            pdf = OUT / f"{name}-{paper}.pdf"
            pdf.write_bytes(data)
            if shutil.which("pdftoppm"):
                subprocess.run(
                    ["pdftoppm", "-r", "60", "-png", pdf, pdf.with_suffix("")], check=True
                )
    print(f"wrote {OUT}/", file=sys.stderr)


if __name__ == "__main__":
    main()
