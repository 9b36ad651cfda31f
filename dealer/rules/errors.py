"""The engine's errors: one small hierarchy, each with a stable code and a sentence."""

from __future__ import annotations

__all__ = [
    "IllegalActionError",
    "IllegalMeldError",
    "InvalidActionError",
    "InvalidCardError",
    "InvalidRulesError",
    "NotAllowedNowError",
    "RulesError",
    "ShoeExceededError",
]


class RulesError(ValueError):
    """Base of every error the rules engine raises on bad input.

    ``code`` is a stable snake_case identifier for programs; ``message`` is one
    sentence a dealer can read aloud.
    """

    code = "rules_error"
    #: HTTP-ish category: "rules" (against the rules or malformed) or "state"
    #: (not allowed in the current state of the hand).
    kind = "rules"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


class InvalidCardError(RulesError):
    """A token that is not a Pan card (``10H``, ``8C``, a joker, ...)."""

    code = "invalid_card"


class IllegalMeldError(RulesError):
    """Cards that do not form a valid set or run, or a growth the rules forbid."""

    code = "illegal_meld"


class ShoeExceededError(RulesError):
    """More copies of a card on the table than the shoe holds: a mis-entry."""

    code = "shoe_exceeded"


class InvalidRulesError(RulesError):
    """An unknown profile, an unknown knob, or a knob value out of range."""

    code = "invalid_rules"


class InvalidActionError(RulesError):
    """A malformed action: unknown type, missing field, wrong seat, unknown meld."""

    code = "invalid_action"


class IllegalActionError(RulesError):
    """An action the rules forbid for this seat (too many cards down, ...)."""

    code = "illegal_action"


class NotAllowedNowError(RulesError):
    """An action not allowed in the hand's current state (a meld on a settled hand)."""

    code = "not_allowed_now"
    kind = "state"
