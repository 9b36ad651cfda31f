"""The engine's errors: one small hierarchy, each with a stable code and a sentence."""

from __future__ import annotations

__all__ = [
    "CodedError",
    "IllegalActionError",
    "IllegalMeldError",
    "InvalidActionError",
    "InvalidCardError",
    "InvalidRulesError",
    "NotAllowedNowError",
    "RulesError",
    "ShoeExceededError",
]


class CodedError(Exception):
    """An error with a stable snake_case ``code`` for programs and one ``message``, a sentence
    a dealer can read aloud: the base of the engine's errors and of the app's
    (`dealer.errors.DealerError`). A subclass names its code in its header:
    ``class ShoeExceededError(RulesError, code="shoe_exceeded")``.
    """

    code = "error"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
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
