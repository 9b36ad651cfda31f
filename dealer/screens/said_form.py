"""Every form of the screens says its words as it is made: a field's label, its description,
the words of its static choices and the words of its attributes (a placeholder, a title, an
accessible label) are declared in English at the form's class (marked with
`dealer.words.catalogue.say_later` for the catalogue's extraction) and said in the catalogue's
language when the form is drawn, so a form declared at import still speaks the language chosen
at start."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from flask_wtf import FlaskForm
from wtforms import Field, SelectChoice

from dealer.words.catalogue import say

#: The attributes of a field whose value a person reads (or hears, on a screen reader).
READ_ATTRIBUTES = ("placeholder", "title", "aria-label")


def said_field(field: Field, labelled: bool = True) -> Field:
    """``field`` with its label (when ``labelled``: one given where the field is declared, not
    WTForms' own made from its name, as a hidden field's), description, choices' words and read
    attributes said."""
    if labelled and field.label.text:
        field.label.text = say(field.label.text)
    if isinstance(field.description, str) and field.description:
        field.description = say(field.description)
    if field.render_kw:
        field.render_kw = {
            key: say(value) if key in READ_ATTRIBUTES and isinstance(value, str) else value
            for key, value in field.render_kw.items()
        }
    choices = getattr(field, "choices", None)
    if isinstance(choices, list | tuple) and all(_worded(c) for c in choices):
        field.choices = [
            replace(c, label=say(c.label))
            if isinstance(c, SelectChoice)
            else (c[0], say(c[1]), *c[2:])
            for c in choices
        ]
    return field


def _worded(choice: Any) -> bool:
    """Is ``choice`` a static choice with words: a `SelectChoice` (WTForms' own, a dataclass)
    or a (value, words, ...) tuple?"""
    if isinstance(choice, SelectChoice):
        return isinstance(choice.label, str)
    return isinstance(choice, tuple) and len(choice) >= 2 and isinstance(choice[1], str)


class SaidForm(FlaskForm):
    """A screen's form: its fields said as they are bound (see the module)."""

    class Meta(FlaskForm.Meta):
        def bind_field(self, form: Any, unbound_field: Any, options: Any) -> Field:
            labelled = bool(unbound_field.args) or "label" in unbound_field.kwargs
            return said_field(super().bind_field(form, unbound_field, options), labelled)

    def first_refusal(self) -> str | None:
        """The first sentence shown on the form: for a screen that shows it in its banner."""
        return next((str(e) for f in self._fields.values() for e in f.errors), None)
