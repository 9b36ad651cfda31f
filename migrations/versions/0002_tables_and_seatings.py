"""Tables and seatings: a table's rules and collection, and each player's stay in a seat.

Revision ID: 0002_tables_and_seatings
Revises: 0001_people
Create Date: 2026-11-29

"""

import sqlalchemy as sa
from alembic import op

revision = "0002_tables_and_seatings"
down_revision = "0001_people"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "card_tables",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("profile", sa.String(length=20), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("collection", sa.JSON(), nullable=False),
        sa.Column("chip_value_cents", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_by", sa.Integer(), nullable=False),
        sa.CheckConstraint("chip_value_cents >= 0", name=op.f("ck_card_tables_chip_value")),
        sa.ForeignKeyConstraint(
            ["created_by"], ["users.id"], name=op.f("fk_card_tables_created_by_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_card_tables")),
    )
    op.create_table(
        "seatings",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("player", sa.String(length=60), nullable=False),
        sa.Column("seated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("left_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("paused", sa.Boolean(), nullable=False),
        sa.CheckConstraint("seat BETWEEN 1 AND 8", name=op.f("ck_seatings_seat")),
        sa.ForeignKeyConstraint(
            ["table_id"], ["card_tables.id"], name=op.f("fk_seatings_table_id_card_tables")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seatings")),
    )
    op.create_index(op.f("ix_seatings_table_id"), "seatings", ["table_id"])
    # One player per seat at a time; a seat is reused once its player has left.
    op.create_index(
        "uq_seatings_open_seat",
        "seatings",
        ["table_id", "seat"],
        unique=True,
        sqlite_where=sa.text("left_at IS NULL"),
        postgresql_where=sa.text("left_at IS NULL"),
    )


def downgrade() -> None:
    op.drop_index("uq_seatings_open_seat", table_name="seatings")
    op.drop_index(op.f("ix_seatings_table_id"), table_name="seatings")
    op.drop_table("seatings")
    op.drop_table("card_tables")
