"""The version of the rules engine installed: recorded on every hand as it is dealt.

It is the app's version and a digest of the engine's own source, so any change to the rules,
even one nobody remembered to number, gives a new version. A hand whose stored events no longer
replay as recorded, under another version than its own, is an engine change, not tampering:
`verify` reports it apart, and its chips stand as its ledger entries say.
"""

from __future__ import annotations

import hashlib
from functools import cache
from importlib import metadata
from pathlib import Path

from dealer import rules


@cache
def engine_version() -> str:
    """``<app version>+<12 hex digits of the engine's source>``, e.g. ``0.1.0+3f2a9b1c0d4e``."""
    digest = hashlib.sha256()
    for source in sorted(Path(rules.__file__).parent.glob("*.py")):
        digest.update(source.name.encode() + b"\0" + source.read_bytes() + b"\0")
    try:
        app = metadata.version("dealer")
    except metadata.PackageNotFoundError:
        app = "0"
    return f"{app}+{digest.hexdigest()[:12]}"
