"""The language a person, a tablet and a player chose: ``users.language``,
``devices.language`` and ``players.language``, each a language's code (``es``, ``fil``) or null
for none chosen (the request's next choice then speaks: see `dealer.web.language`).

Not part of a user's or a player's versions in the keyed chain (0018): it decides nothing about
whose the chips are, only the words they are told in.

Revision ID: 0023_languages
Revises: 0022_settings_in_the_chain
Create Date: 2026-12-07

"""

import sqlalchemy as sa
from alembic import op

revision = "0023_languages"
down_revision = "0022_settings_in_the_chain"
branch_labels = None
depends_on = None

TABLES = ("users", "devices", "players")


def upgrade() -> None:
    # ALTER TABLE ... ADD COLUMN on both databases, never SQLite's copy of a table: that drops
    # it, and the rows of other tables refer to it (foreign keys are on).
    for table in TABLES:
        op.add_column(table, sa.Column("language", sa.String(length=12), nullable=True))


def downgrade() -> None:
    # ALTER TABLE ... DROP COLUMN (SQLite 3.35 and later), for the reason given above.
    for table in TABLES:
        op.drop_column(table, "language")
