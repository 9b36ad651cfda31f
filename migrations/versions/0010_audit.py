"""The audit trail: sign-ins, refusals, approvals, overrides, voids and changes, append-only.

Revision ID: 0010_audit
Revises: 0009_keyed_chain
Create Date: 2026-12-01

"""

import sqlalchemy as sa
from alembic import op

revision = "0010_audit"
down_revision = "0009_keyed_chain"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "audit_records",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("kind", sa.String(length=30), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("device", sa.String(length=200), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=True),
        sa.Column("hand_id", sa.Integer(), nullable=True),
        sa.Column("words", sa.Text(), nullable=False),
        sa.Column("details", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_audit_records_user_id_users")
        ),
        sa.ForeignKeyConstraint(
            ["table_id"], ["card_tables.id"], name=op.f("fk_audit_records_table_id_card_tables")
        ),
        sa.ForeignKeyConstraint(
            ["hand_id"], ["hands.id"], name=op.f("fk_audit_records_hand_id_hands")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_audit_records")),
    )
    op.create_index(op.f("ix_audit_records_at"), "audit_records", ["at"])
    op.create_index(op.f("ix_audit_records_kind"), "audit_records", ["kind"])
    op.create_index(op.f("ix_audit_records_user_id"), "audit_records", ["user_id"])
    op.create_index(op.f("ix_audit_records_table_id"), "audit_records", ["table_id"])
    # What happened stays said: the same guard as the ledger's (0006).
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            "CREATE TRIGGER audit_records_append_only BEFORE UPDATE OR DELETE ON audit_records "
            "FOR EACH ROW EXECUTE FUNCTION dealer_refuse_change()"
        )
        op.execute(
            "CREATE TRIGGER audit_records_no_truncate BEFORE TRUNCATE ON audit_records "
            "FOR EACH STATEMENT EXECUTE FUNCTION dealer_refuse_change()"
        )
        return
    for change in ("UPDATE", "DELETE"):
        op.execute(
            f"CREATE TRIGGER audit_records_no_{change.lower()} BEFORE {change} ON audit_records "
            f"BEGIN SELECT RAISE(ABORT, '{change} on audit_records is refused: it is "
            "append-only'); END"
        )


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER audit_records_no_truncate ON audit_records")
        op.execute("DROP TRIGGER audit_records_append_only ON audit_records")
    else:
        op.execute("DROP TRIGGER audit_records_no_update")
        op.execute("DROP TRIGGER audit_records_no_delete")
    op.drop_index(op.f("ix_audit_records_table_id"), table_name="audit_records")
    op.drop_index(op.f("ix_audit_records_user_id"), table_name="audit_records")
    op.drop_index(op.f("ix_audit_records_kind"), table_name="audit_records")
    op.drop_index(op.f("ix_audit_records_at"), table_name="audit_records")
    op.drop_table("audit_records")
