"""The catalogue's extraction as a translator runs it (`pybabel extract -F pyproject.toml`, the
mappings and keywords of ``[tool.babel]``): the messages it lists, read once per worker."""

from __future__ import annotations

import logging
import tempfile
from functools import cache
from pathlib import Path

from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]


@cache
def extracted() -> frozenset[str]:
    """Every message the extraction finds in the code and the templates (a plural's both
    forms)."""
    with tempfile.TemporaryDirectory() as folder:
        pot = Path(folder) / "dealer.pot"
        babel_log = logging.getLogger("babel")
        level, babel_log.level = babel_log.level, logging.ERROR  # its warnings are its own
        try:
            CommandLineInterface().run(
                [
                    "pybabel",
                    "--quiet",
                    "extract",
                    "-F",
                    str(ROOT / "pyproject.toml"),
                    "-o",
                    str(pot),
                    str(ROOT),
                ]
            )
        finally:
            babel_log.level = level
        with pot.open("rb") as file:
            catalogue = read_po(file)
    found: set[str] = set()
    for message in catalogue:
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        found.update(i for i in ids if i)
    return frozenset(found)
