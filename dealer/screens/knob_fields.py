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

__all__ = ["CHOICE_KNOBS", "NUMBER_KNOBS", "YES_NO", "choice_field", "knob_field"]

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


def knob_field(name: str) -> Any:
    """The field for a number knob of `NUMBER_KNOBS`; blank keeps the profile's value."""
    _name, words, low, high = next(k for k in NUMBER_KNOBS if k[0] == name)
    return IntegerField(words, render_kw={"min": low, "max": high})


def choice_field(name: str) -> Any:
    """The field for a choice knob of `CHOICE_KNOBS`; "as the profile" keeps its value."""
    _name, words, options = next(k for k in CHOICE_KNOBS if k[0] == name)
    return SelectField(
        words,
        choices=[SelectChoice("", say_later("as the profile")), *options],
        default="",
        validate_choice=False,
    )
