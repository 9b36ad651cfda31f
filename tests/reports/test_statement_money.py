"""A seat's printed statement gives money beside its chips, as every other document does: at
table 7 a chip is worth 50 cents, and seed 000's winner (seat 1) took 46 chips."""

from __future__ import annotations

from tests.helpers import Api
from tests.reports.evening import Evening, one_line, pdf_text
from tests.reports.test_routes import fetch


def test_the_seat_statement_gives_money_beside_chips(evening: Evening, api: Api) -> None:
    hand = evening.hands7[0]
    for paper in ("page", "receipt"):
        path = f"/reports/hands/{hand}/seats/1/statement.pdf?paper={paper}"
        flat = one_line(pdf_text(fetch(api, path).data))
        assert "+46 chips (+$23.00)" in flat, paper
        assert "+11 chips (+$5.50)" in flat, paper  # what each losing seat paid it, net
