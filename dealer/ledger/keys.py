"""The ledger's key: the HMAC key of the keyed chain, and the Ed25519 key that signs checkpoints.

Neither is ever in the database. The one secret is ``LEDGER_KEY`` (or the file
``instance/ledger_key``, made 0600 on first run); the signing key is derived from it, so a
restore on another machine needs that one secret and nothing more. The signing key's public
half is written into every checkpoint: anyone can check a checkpoint's signature with it, and
only the holder of the secret can make one.
"""

from __future__ import annotations

import hashlib
import hmac
from functools import cache

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from sqlalchemy.orm import Session

from dealer import settings

#: What the signing key's seed is derived for; a new purpose would need a new label.
SIGNING_LABEL = b"dealer checkpoint signing key v1"


class LedgerKey:
    """The secret behind the keyed chain, and what is derived from it."""

    __slots__ = ("_signer", "public", "secret")

    def __init__(self, secret: bytes) -> None:
        if not secret:
            raise ValueError("The ledger key is empty: set LEDGER_KEY or keep instance/ledger_key.")
        self.secret = secret
        self._signer = Ed25519PrivateKey.from_private_bytes(
            hmac.digest(secret, SIGNING_LABEL, "sha256")
        )
        #: The signing key's public half, hex: printed in each checkpoint.
        self.public = self._signer.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.public)

    def mac(self, message: bytes) -> str:
        """HMAC-SHA256 of ``message`` under the secret, hex."""
        return hmac.digest(self.secret, message, "sha256").hex()

    def sign(self, message: bytes) -> str:
        """The Ed25519 signature of ``message``, hex."""
        return self._signer.sign(message).hex()


def fingerprint(public: str) -> str:
    """A short name for a public key (hex), to print on paper."""
    return hashlib.sha256(bytes.fromhex(public)).hexdigest()[:16]


def signature_ok(public: str, message: bytes, signature: str) -> bool:
    """Whether ``signature`` (hex) is ``public``'s (hex) Ed25519 signature of ``message``."""
    try:
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(public)).verify(
            bytes.fromhex(signature), message
        )
    except (ValueError, InvalidSignature):
        return False
    return True


@cache
def _key(secret: str) -> LedgerKey:
    return LedgerKey(secret.encode())


def current_key(session: Session) -> LedgerKey:
    """The ledger key (``LEDGER_KEY``) of the app whose database ``session`` works on."""
    return _key(str(settings.of(session).config["LEDGER_KEY"]))
