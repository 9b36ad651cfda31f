"""The count at a session's close: each table's settings for it.

- ``card_tables.count_tolerance``: the variance (in chips) a count may show without a
  supervisor's approval and reason; 0: any variance needs one.
- ``card_tables.sells_for_cash``: the table sells chips for cash into a drop box, so a count
  there also counts the drop box's cash.

The counts themselves are records of the audit trail (kind ``count``), append-only and linked
into the keyed chain like every record: no table of their own.

Revision ID: 0019_counts
Revises: 0018_identity_versions
Create Date: 2026-12-01

"""

import sqlalchemy as sa
from alembic import op

revision = "0019_counts"
down_revision = "0018_identity_versions"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # ALTER TABLE ... ADD COLUMN on both databases, never SQLite's copy of the table: that drops
    # card_tables, which the rows of every other table refer to (foreign keys are on).
    op.add_column(
        "card_tables",
        sa.Column("count_tolerance", sa.Integer(), nullable=False, server_default="0"),
    )
    op.add_column(
        "card_tables",
        sa.Column("sells_for_cash", sa.Boolean(), nullable=False, server_default=sa.false()),
    )


def downgrade() -> None:
    # ALTER TABLE ... DROP COLUMN (SQLite 3.35 and later), for the reason given above.
    op.drop_column("card_tables", "sells_for_cash")
    op.drop_column("card_tables", "count_tolerance")
