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
    with op.batch_alter_table("card_tables") as batch:
        batch.add_column(
            sa.Column("count_tolerance", sa.Integer(), nullable=False, server_default="0")
        )
        batch.add_column(
            sa.Column("sells_for_cash", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("card_tables") as batch:
        batch.drop_column("sells_for_cash")
        batch.drop_column("count_tolerance")
