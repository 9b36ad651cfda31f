"""Errors the service layer raises; the API answers each with its status and the error shape.

The rules engine has its own (`dealer.rules.RulesError`); these cover what the
engine does not know about: people, tables, seats, ids and request bodies.
"""

from __future__ import annotations

from dealer.rules.errors import CodedError
from dealer.words.catalogue import say


def storage_words() -> str:
    """What a tablet says when the database cannot write."""
    return say("Not recorded: the database cannot write; the entry is kept.")


def busy_words() -> str:
    """What it says when another write held the database for longer than a write waits
    (SQLite's "database is locked")."""
    return say(
        "Not recorded: the database was busy with other writes for too long; the entry is "
        "kept. Send it again in a moment."
    )


def read_busy_words() -> str:
    """The same, for a read."""
    return say(
        "The database was busy with other writes for too long: nothing could be read. "
        "Try again in a moment."
    )


def read_storage_words() -> str:
    """What it says when the database cannot be read (gone, or refusing connections)."""
    return say("The database does not answer: nothing could be read. Try again in a moment.")


class DealerError(CodedError, code="invalid"):
    """A request the app refuses: ``status``, a snake_case ``code`` and one sentence.

    A subclass names both in its header: ``class NotFound(DealerError, status=404, ...)``.
    """

    status = 422

    def __init_subclass__(cls, status: int | None = None, **kwargs: str | None) -> None:
        super().__init_subclass__(**kwargs)
        if status is not None:
            cls.status = status


class Invalid(DealerError):
    """Malformed or against the rules (422)."""


class NotSignedIn(DealerError, status=401, code="not_signed_in"):
    """Nobody is signed in, or the sign-in has ended (401)."""


class Forbidden(DealerError, status=403, code="forbidden"):
    """Signed in, but not allowed to do this (403)."""


class NotFound(DealerError, status=404, code="not_found"):
    """Nothing by that id (404)."""


class Conflict(DealerError, status=409, code="conflict"):
    """Not allowed in the current state (409)."""


class UnsupportedMediaType(DealerError, status=415, code="unsupported_media_type"):
    """A body that is not JSON where JSON is asked for (415)."""


class TooManyAttempts(DealerError, status=429, code="too_many_attempts"):
    """Locked out for a while; ``retry_after`` seconds go into the Retry-After header."""

    def __init__(self, message: str, code: str | None = None, retry_after: int = 60) -> None:
        super().__init__(message, code)
        self.retry_after = retry_after


class StorageUnavailable(DealerError, status=503, code="storage_unavailable"):
    """The database cannot write (disk full, a read-only file or database, the server gone):
    nothing was recorded, and the tablet keeps the entry to send again (503)."""

    def __init__(self, message: str | None = None, code: str | None = None) -> None:
        super().__init__(message or storage_words(), code)


class NotConfigured(DealerError):
    """A setting the request needs is not one the app can use (changed after start): nothing
    was made or counted (503)."""

    status = 503
    code = "not_configured"
