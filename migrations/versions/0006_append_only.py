"""Append-only: triggers that refuse UPDATE and DELETE on ledger entries and events.

A correction is always a new entry or event that points at the old one; the
database itself refuses anything else, whatever code (or person) connects.
PostgreSQL also refuses TRUNCATE, which skips row triggers.

Revision ID: 0006_append_only
Revises: 0005_idempotency_records
Create Date: 2026-11-29

"""

from alembic import op

revision = "0006_append_only"
down_revision = "0005_idempotency_records"
branch_labels = None
depends_on = None

TABLES = ("ledger_entries", "events")


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            """
            CREATE FUNCTION dealer_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                RAISE EXCEPTION '% on % is refused: it is append-only', TG_OP, TG_TABLE_NAME
                    USING ERRCODE = 'restrict_violation';
            END
            $$
            """
        )
        for table in TABLES:
            op.execute(
                f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
                "FOR EACH ROW EXECUTE FUNCTION dealer_refuse_change()"
            )
            op.execute(
                f"CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table} "
                "FOR EACH STATEMENT EXECUTE FUNCTION dealer_refuse_change()"
            )
        return
    for table in TABLES:
        for change in ("UPDATE", "DELETE"):
            op.execute(
                f"CREATE TRIGGER {table}_no_{change.lower()} BEFORE {change} ON {table} "
                f"BEGIN SELECT RAISE(ABORT, '{change} on {table} is refused: it is append-only'); "
                "END"
            )


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for table in TABLES:
            op.execute(f"DROP TRIGGER {table}_no_truncate ON {table}")
            op.execute(f"DROP TRIGGER {table}_append_only ON {table}")
        op.execute("DROP FUNCTION dealer_refuse_change()")
        return
    for table in TABLES:
        for change in ("update", "delete"):
            op.execute(f"DROP TRIGGER {table}_no_{change}")
