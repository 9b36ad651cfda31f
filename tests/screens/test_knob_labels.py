"""The open-table form's knob labels are the vocabulary's words for the knobs (written again
there as messages marked for the catalogue), one for every knob of the engine."""

from __future__ import annotations

from dealer.rules.profiles import KNOBS
from dealer.screens.forms import KNOB_LABELS
from dealer.words.rules import knob_words


def test_every_knob_has_the_vocabulary_s_label() -> None:
    assert set(KNOB_LABELS) == set(KNOBS)
    for knob, label in KNOB_LABELS.items():
        words = knob_words(knob)
        assert label == (f"{words} (10; 15 for Fifteen)" if knob == "hand_size" else words)
