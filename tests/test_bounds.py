"""dealer/bounds.py: names compared by what a person sees (`skeleton`), the one comparison
for users, tables, tablets and players."""

from __future__ import annotations

import pytest

from dealer.bounds import lookalike, skeleton


@pytest.mark.parametrize(
    ("name", "looks_like"),
    [
        ("S\u0430m", "Sam"),  # Cyrillic small a
        ("\u0405am", "Sam"),  # Cyrillic capital dze
        ("Sarn", "Sam"),  # r and n side by side pass for m
        ("Mae  Lee", "Mae Lee"),  # a run of spaces
        (" Mae Lee\u3000", "Mae Lee"),  # the ends, an ideographic space among them
        ("\uff33\uff41\uff4d", "Sam"),  # full-width letters
        ("SAM", "Sam"),  # case
        ("R0sa", "Rosa"),  # a zero for an O, then case
        ("\uff34able 1", "Table 1"),  # a full-width T
        ("Table l", "Table 1"),  # a small L for a one
        ("D\u0435e", "Dee"),  # Cyrillic small ie
        ("\u0391da", "Ada"),  # Greek capital alpha
    ],
)
def test_a_look_alike_has_the_skeleton_of_the_name_it_passes_for(
    name: str, looks_like: str
) -> None:
    assert skeleton(name) == skeleton(looks_like)


@pytest.mark.parametrize(
    ("name", "other"),
    [("Sam", "Sal"), ("Ann", "Anna"), ("Jos\u00e9", "Jose"), ("Table 1", "Table 7"), ("Ali", "Al")],
)
def test_names_a_person_tells_apart_keep_their_own_skeletons(name: str, other: str) -> None:
    assert skeleton(name) != skeleton(other)


def test_lookalike_names_the_first_existing_name_that_reads_the_same() -> None:
    assert lookalike("S\u0430m", ["Ada", "Sam", "Dee"]) == "Sam"
    assert lookalike("Sal", ["Ada", "Sam", "Dee"]) is None
