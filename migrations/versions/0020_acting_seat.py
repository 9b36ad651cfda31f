"""Where the acting seat goes after a drop: a setting of the table, no longer of the tablet.

- ``card_tables.acting_seat``: ``stays`` (the acting seat stays with the seat that acted, as
  before) or ``moves_on`` (it moves on to the next seat in play after a drop or a foul). Every
  table there takes ``stays``.

Not part of a table's versions in the keyed chain (0018): it decides nothing about whose the
chips are or under what rules, only what the hand screen offers next.

Revision ID: 0020_acting_seat
Revises: 0019_counts
Create Date: 2026-12-04

"""

import sqlalchemy as sa
from alembic import op

revision = "0020_acting_seat"
down_revision = "0019_counts"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # ALTER TABLE ... ADD COLUMN on both databases, never SQLite's copy of the table: that drops
    # card_tables, which the rows of every other table refer to (foreign keys are on).
    op.add_column(
        "card_tables",
        sa.Column("acting_seat", sa.String(length=10), nullable=False, server_default="stays"),
    )


def downgrade() -> None:
    # ALTER TABLE ... DROP COLUMN (SQLite 3.35 and later), for the reason given above.
    op.drop_column("card_tables", "acting_seat")
