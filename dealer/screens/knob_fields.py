"""The rule knobs a table may set away from its profile, as the open-table form's fields: each
knob's label is the vocabulary's message (`dealer.words.rules.KNOB_NAMES`), said as the form
is made; a number knob is bounded as the engine bounds it, a choice knob offers its values in
words, and a blank keeps the profile's."""

from __future__ import annotations

from typing import Any

from wtforms import IntegerField, SelectChoice, SelectField

from dealer.bounds import KNOB_BOUNDS
from dealer.rules.profiles import KNOBS
from dealer.words.catalogue import say_later
from dealer.words.rules import ADDITION_PAY_NAMES, KNOB_NAMES

YES_NO = [SelectChoice("true", say_later("yes")), SelectChoice("false", say_later("no"))]


def _words(knob: str) -> str:
    """A knob's label on the form: the vocabulary's message (`dealer.words.rules.KNOB_NAMES`),
    with the usual answer where it helps; said as the form is made."""
    if knob == "hand_size":
        return say_later("Cards dealt (10; 15 for Fifteen)")
    return KNOB_NAMES.get(knob) or say_later("Another setting")


#: Knobs a table may override, with the words the floor sees. Blank keeps the profile's.
NUMBER_KNOBS = tuple((name, _words(name), low, high) for name, (low, high) in KNOB_BOUNDS.items())
CHOICE_KNOBS = (
    (
        "addition_pay",
        _words("addition_pay"),
        [SelectChoice(value, words) for value, words in ADDITION_PAY_NAMES.items()],
    ),
    *(
        (name, _words(name), YES_NO)
        for name in KNOBS
        if name not in KNOB_BOUNDS and name != "addition_pay"
    ),
)


def knob_fields() -> dict[str, Any]:
    """One optional field per knob of the engine, so a knob added there appears on the form
    too: a number bounded as the engine bounds it (blank keeps the profile's), a choice with
    "as the profile" first."""
    numbers = {
        name: IntegerField(words, render_kw={"min": low, "max": high})
        for name, words, low, high in NUMBER_KNOBS
    }
    keep = SelectChoice("", say_later("as the profile"))
    return {
        **numbers,
        **{
            name: SelectField(words, choices=[keep, *options], default="", validate_choice=False)
            for name, words, options in CHOICE_KNOBS
        },
    }
