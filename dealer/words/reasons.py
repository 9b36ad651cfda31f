"""A ledger entry's reason in the reader's language.

The reason column keeps the English the posting wrote (the chain's hashes cover it, and the API
serves it as stored). It was written from a template (the engine's `rules.REASONS`, the floor's
`FLOOR_REASONS`, wrapped in a `NOTES` when a supervisor approved it or a collection was taken
early), so a door reads it back against them and says the template with the fields it finds:
the figures as they are, a condition named again from its cards, the reason a void returns
said the same way. English reads back word for word; a reason no template fits (written by an
older version) is shown as stored.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import replace
from functools import cache

from dealer import rules
from dealer.rules.payments import REASONS
from dealer.words.catalogue import say, say_later, say_n
from dealer.words.rules import condition_words, event_text_words

#: The floor's reasons: chips from the cage and back.
FLOOR_REASONS = {
    "seated": say_later("{player} sits in seat {seat} and buys in for {chips}"),
    "buy_in": say_later("{player} in seat {seat} buys in for {chips}"),
    "cash_out": say_later("{player} in seat {seat} cashes out {chips}"),
    "leaving": say_later("{player} leaves seat {seat} and cashes out {chips}"),
}
#: What a reason says of who approved it, or of a collection taken before it was due.
NOTES = {
    "approved": say_later("{reason} (approved by {name})"),
    "supervisor": say_later("{reason} (a supervisor's: {name})"),
    "early": say_later("{reason} (taken early: {minutes} min before it was due, {name})"),
}
#: What each field of a template may be when read back (anything else: any text).
_SHAPES = {
    "cards": r"[A2-7JQK][CDHS](?: [A2-7JQK][CDHS])*",
    "seats": r"\d+ seats?",
    **dict.fromkeys(
        ("chips", "seat", "payer", "other", "size", "minutes", "collected", "cap"),
        r"\d+",
    ),
    "seq": r"\d+",
    # A percentage is a field with its sign (a "%" in a message's words reads as a %-format).
    "percent": r"\d+%",
}
#: Every condition a meld can meet under some rules, so a stored condition can be named again.
_ANY_RULES = replace(rules.PROFILES["classic"], mixed_valle_condition=True)


def _pattern(template: str) -> re.Pattern[str]:
    parts = re.split(r"\{(\w+)\}", template)
    return re.compile(
        "".join(
            re.escape(part) if i % 2 == 0 else f"(?P<{part}>{_SHAPES.get(part, '.+?')})"
            for i, part in enumerate(parts)
        ),
        re.S,
    )


#: Every template a reason is written from, by name.
_TEMPLATES = {**REASONS, **FLOOR_REASONS, **NOTES}


@cache
def _read(name: str) -> re.Pattern[str]:
    return _pattern(_TEMPLATES[name])


#: The templates an entry's reason may have been written from, by its reason code (a note
#: first: it wraps another).
_BY_CODE = {
    "collection": ("early", "per_hand", "time"),
    "condition": ("grown", "condition"),
    "pot": ("pot", "last_seat"),
    "buy_in": ("approved", "supervisor", "seated", "buy_in"),
    "cash_out": ("approved", "supervisor", "cash_out", "leaving"),
}
#: What a returned payment's reason may have been (a void returns an engine's payment).
_RETURNED = tuple(name for name in REASONS if name not in ("void", "void_hand"))


def _condition(name: str, fields: Mapping[str, str]) -> str:
    return condition_words(rules.parse_cards(fields["cards"]), _ANY_RULES) or name


def _seats(text: str, _fields: Mapping[str, str]) -> str:
    return say_n("{n} seat", "{n} seats", int(text.split()[0]))


#: How a field read back is said (the rest are figures, cards, names or text typed in).
_SAID: dict[str, Callable[[str, Mapping[str, str]], str]] = {
    "condition": _condition,
    "seats": _seats,
    "text": lambda text, _fields: event_text_words(text),
    "reason": lambda text, _fields: _said(text, _RETURNED),
}


def _said(stored: str, names: tuple[str, ...]) -> str:
    for name in names:
        found = _read(name).fullmatch(stored)
        if found is None:
            continue
        fields = found.groupdict()
        if name in NOTES:  # the reason it wraps was written from one of the others
            inner = tuple(n for n in names if n not in NOTES)
            return say(_TEMPLATES[name], name=fields["name"], **_note(fields, inner))
        said = {k: _SAID[k](v, fields) if k in _SAID else v for k, v in fields.items()}
        return say(_TEMPLATES[name], **said)
    return stored


def _note(fields: Mapping[str, str], inner: tuple[str, ...]) -> dict[str, str]:
    return {k: _said(v, inner) if k == "reason" else v for k, v in fields.items() if k != "name"}


def reason_words(reason_code: str, stored: str) -> str:
    """The reason ``stored`` with a ledger entry of ``reason_code``, in the reader's language."""
    names = _BY_CODE.get(reason_code, (reason_code,) if reason_code in _TEMPLATES else ())
    return _said(stored, names)
