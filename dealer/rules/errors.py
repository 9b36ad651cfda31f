"""The engine's errors: one small hierarchy, each with a stable code and a sentence.

The engine imports nothing of the app, so it cannot say its sentences in the reader's language:
a refusal carries its English message as a ``str.format`` template and the template's fields,
and the front door says it (`dealer.words.rules.refusal_words`). The error classes' names (and
`Phrase`) are keywords of the catalogue's extraction (``[tool.babel]`` in pyproject.toml), so a
template written as a refusal's first argument is one a translator is given.
"""

from __future__ import annotations

__all__ = [
    "CodedError",
    "IllegalActionError",
    "IllegalMeldError",
    "InvalidActionError",
    "InvalidCardError",
    "InvalidRulesError",
    "NotAllowedNowError",
    "Phrase",
    "RulesError",
    "ShoeExceededError",
]


class Phrase(str):
    """Words the engine puts in a refusal or a name (why cards are not a meld, a rank's name):
    English, marked for the catalogue's extraction; a refusal's field that is one is said at
    the door too."""

    __slots__ = ()


class CodedError(Exception):
    """An error with a stable snake_case ``code`` for programs and one ``message``, a sentence
    a dealer can read aloud: the base of the engine's errors and of the app's
    (`dealer.errors.DealerError`). A subclass names its code in its header:
    ``class ShoeExceededError(RulesError, code="shoe_exceeded")``. The message is made from its
    ``template`` and ``fields`` (``InvalidActionError("Seat {seat} does not exist.", seat=9)``),
    kept for the door to say in the reader's language.
    """

    code = "error"

    def __init__(self, message: str, code: str | None = None, **fields: object) -> None:
        self.template = message
        self.fields = fields
        self.message = message.format(**fields) if fields else message
        super().__init__(self.message)
        if code is not None:
            self.code = code

    def __init_subclass__(cls, code: str | None = None, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if code is not None:
            cls.code = code

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


class RulesError(CodedError, ValueError, code="rules_error"):
    """Base of every error the rules engine raises on bad input."""

    #: HTTP-ish category: "rules" (against the rules or malformed) or "state"
    #: (not allowed in the current state of the hand).
    kind = "rules"


class InvalidCardError(RulesError, code="invalid_card"):
    """A token that is not a Pan card (``10H``, ``8C``, a joker, ...)."""


class IllegalMeldError(RulesError, code="illegal_meld"):
    """Cards that do not form a valid set or run, or a growth the rules forbid."""


class ShoeExceededError(RulesError, code="shoe_exceeded"):
    """More copies of a card on the table than the shoe holds: a mis-entry."""


class InvalidRulesError(RulesError, code="invalid_rules"):
    """An unknown profile, an unknown knob, or a knob value out of range."""


class InvalidActionError(RulesError, code="invalid_action"):
    """A malformed action: unknown type, missing field, wrong seat, unknown meld."""


class IllegalActionError(RulesError, code="illegal_action"):
    """An action the rules forbid for this seat (too many cards down, ...)."""


class NotAllowedNowError(RulesError, code="not_allowed_now"):
    """An action not allowed in the hand's current state (a meld on a settled hand)."""

    kind = "state"
