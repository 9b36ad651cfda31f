"""The page checker finds what the Nu HTML checker flags and a parser forgives."""

from __future__ import annotations

from tests.html_check import problems

PAGE = "<!doctype html><html lang=en><head><title>t</title></head><body>{}</body></html>"


def test_a_name_on_a_div_with_no_role_is_flagged() -> None:
    assert problems(PAGE.format('<div aria-label="Rank, then suit">x</div>')) == [
        "aria-label on a div with no role: Rank, then suit"
    ]
    assert problems(PAGE.format('<div role="group" aria-label="Rank, then suit">x</div>')) == []
