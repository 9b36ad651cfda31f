"""Backups: a consistent copy of an SQLite database, taken while the app runs.

SQLite's online backup copies the database page by page from one read snapshot, so the floor
keeps recording while it runs. The head is filed as a checkpoint first: the restored copy must
hold against it. PostgreSQL is backed up with its own tools (``pg_dump``; see the README).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from sqlalchemy.orm import Session

from dealer.ledger.checkpoints import Checkpoint, checkpoint_head
from dealer.ledger.checks import Refused


def backup(session: Session, path: Path) -> Checkpoint | None:
    """Copy the app's SQLite database to the new file ``path``; the checkpoint filed before it."""
    engine = session.get_bind()
    if engine.dialect.name != "sqlite":
        raise Refused("backup_not_sqlite")
    if path.exists():
        raise Refused("backup_exists", path=path)
    checkpoint = checkpoint_head(session, f"backup to {path}")
    raw = engine.raw_connection()  # type: ignore[union-attr]
    try:
        source = raw.driver_connection
        assert isinstance(source, sqlite3.Connection)
        target = sqlite3.connect(path)
        try:
            source.backup(target)
        finally:
            target.close()
    finally:
        raw.close()
    return checkpoint
