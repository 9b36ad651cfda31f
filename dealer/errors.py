"""Errors the service layer raises; the API answers each with its status and the error shape.

The rules engine has its own (`dealer.rules.RulesError`); these cover what the
engine does not know about: people, tables, seats, ids and request bodies.
"""

from __future__ import annotations

__all__ = [
    "Conflict",
    "DealerError",
    "Forbidden",
    "Invalid",
    "NotFound",
    "NotSignedIn",
    "StorageUnavailable",
    "TooManyAttempts",
    "UnsupportedMediaType",
]


#: What a tablet says when the database cannot write.
STORAGE_WORDS = "Not recorded: the database cannot write; the entry is kept."
#: What it says when the database cannot be read (gone, or refusing connections).
READ_STORAGE_WORDS = "The database does not answer: nothing could be read. Try again in a moment."


class DealerError(Exception):
    """A request the app refuses: ``status``, a snake_case ``code`` and one sentence."""

    status = 422
    code = "invalid"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code


class Invalid(DealerError):
    """Malformed or against the rules (422)."""


class NotSignedIn(DealerError):
    status = 401
    code = "not_signed_in"


class Forbidden(DealerError):
    status = 403
    code = "forbidden"


class NotFound(DealerError):
    status = 404
    code = "not_found"


class Conflict(DealerError):
    """Not allowed in the current state (409)."""

    status = 409
    code = "conflict"


class UnsupportedMediaType(DealerError):
    status = 415
    code = "unsupported_media_type"


class TooManyAttempts(DealerError):
    """Locked out for a while; ``retry_after`` seconds go into the Retry-After header."""

    status = 429
    code = "too_many_attempts"

    def __init__(self, message: str, code: str | None = None, retry_after: int = 60) -> None:
        super().__init__(message, code)
        self.retry_after = retry_after


class StorageUnavailable(DealerError):
    """The database cannot write (disk full, a read-only file or database, the server gone):
    nothing was recorded, and the tablet keeps the entry to send again (503)."""

    status = 503
    code = "storage_unavailable"

    def __init__(self, message: str = STORAGE_WORDS, code: str | None = None) -> None:
        super().__init__(message, code)


class NotConfigured(DealerError):
    """A setting the request needs is not one the app can use (changed after start): nothing
    was made or counted (503)."""

    status = 503
    code = "not_configured"
