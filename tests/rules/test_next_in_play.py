"""Play order: the seat after another still in the hand ("Next seat", and after a drop)."""

from __future__ import annotations

from dealer import rules


def test_next_in_play_goes_round_the_table_past_seats_not_in() -> None:
    """After seat 2 comes 4 when 3 dropped; after 6 it wraps round to 1; alone, nobody."""
    hand = rules.Hand(rules.make_rules("classic"), [1, 2, 3, 4, 6])
    hand.apply(rules.Drop(3))
    assert hand.next_in_play(2) == 4
    assert hand.next_in_play(6) == 1
    assert hand.next_in_play(3) == 4  # the dropped seat's next is still the next one in
