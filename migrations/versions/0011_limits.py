"""Per-table authority and money limits (issue 10).

- ``card_tables.min_buy_in``, ``max_buy_in``, ``approval_above``: the table's money limits
  (a buy-in below the minimum or above the maximum is refused; a buy-in or a cash-out above
  ``approval_above`` needs a supervisor's name and PIN). Existing tables get the defaults of
  ``dealer.bounds.BUY_IN_DEFAULTS`` (written here as numbers: a migration is history).
- ``table_assignments``: a supervisor assigning a dealer to a table, or ending it. Append-only
  like the ledger (0006): ending an assignment is a new row (``assigned`` false), never an
  update, so the floor's history of who was sent where reads as it happened.

Revision ID: 0011_limits
Revises: 0010_audit
Create Date: 2026-12-01

"""

import sqlalchemy as sa
from alembic import op

revision = "0011_limits"
down_revision = "0010_audit"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("card_tables") as batch:
        batch.add_column(sa.Column("min_buy_in", sa.Integer(), nullable=False, server_default="1"))
        batch.add_column(
            sa.Column("max_buy_in", sa.Integer(), nullable=False, server_default="2000")
        )
        batch.add_column(
            sa.Column("approval_above", sa.Integer(), nullable=False, server_default="1000")
        )
    op.create_table(
        "table_assignments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("dealer_id", sa.Integer(), nullable=False),
        sa.Column("assigned", sa.Boolean(), nullable=False),
        sa.Column("by_id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"], ["card_tables.id"], name=op.f("fk_table_assignments_table_id_card_tables")
        ),
        sa.ForeignKeyConstraint(
            ["dealer_id"], ["users.id"], name=op.f("fk_table_assignments_dealer_id_users")
        ),
        sa.ForeignKeyConstraint(
            ["by_id"], ["users.id"], name=op.f("fk_table_assignments_by_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_table_assignments")),
    )
    op.create_index(
        op.f("ix_table_assignments_dealer_id"), "table_assignments", ["dealer_id"], unique=False
    )
    op.create_index(
        op.f("ix_table_assignments_table_id"), "table_assignments", ["table_id"], unique=False
    )
    # What the floor decided stays decided: the same guard as the ledger's (0006).
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            "CREATE TRIGGER table_assignments_append_only BEFORE UPDATE OR DELETE "
            "ON table_assignments FOR EACH ROW EXECUTE FUNCTION dealer_refuse_change()"
        )
        op.execute(
            "CREATE TRIGGER table_assignments_no_truncate BEFORE TRUNCATE ON table_assignments "
            "FOR EACH STATEMENT EXECUTE FUNCTION dealer_refuse_change()"
        )
        return
    for change in ("UPDATE", "DELETE"):
        op.execute(
            f"CREATE TRIGGER table_assignments_no_{change.lower()} BEFORE {change} "
            f"ON table_assignments BEGIN SELECT RAISE(ABORT, '{change} on table_assignments "
            "is refused: it is append-only'); END"
        )


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER table_assignments_no_truncate ON table_assignments")
        op.execute("DROP TRIGGER table_assignments_append_only ON table_assignments")
    else:
        for change in ("update", "delete"):
            op.execute(f"DROP TRIGGER table_assignments_no_{change}")
    op.drop_index(op.f("ix_table_assignments_table_id"), table_name="table_assignments")
    op.drop_index(op.f("ix_table_assignments_dealer_id"), table_name="table_assignments")
    op.drop_table("table_assignments")
    with op.batch_alter_table("card_tables") as batch:
        batch.drop_column("approval_above")
        batch.drop_column("max_buy_in")
        batch.drop_column("min_buy_in")
