"""Disputes on the record and players known across days.

- ``players``: a name or nickname, an optional card number (unique when given), notes.
- ``seatings.player_id``: the player a seating belongs to; null for older seatings, which
  keep showing the name they were taken under.
- ``disputes`` and ``dispute_rulings``: a dispute opened on a hand and the supervisor's
  ruling that closes it. Append-only like the ledger (0006): triggers refuse UPDATE and
  DELETE (and TRUNCATE on PostgreSQL). Each row is linked into the keyed chain: the
  ``chain_links.kind`` check takes ``dispute`` and ``ruling``.

Revision ID: 0014_disputes_players
Revises: 0013_live
Create Date: 2026-12-01

"""

import sqlalchemy as sa
from alembic import op

revision = "0014_disputes_players"
down_revision = "0013_live"
branch_labels = None
depends_on = None

APPEND_ONLY = ("disputes", "dispute_rulings")
KINDS_BEFORE = "kind IN ('entry', 'event', 'print')"
KINDS_AFTER = "kind IN ('entry', 'event', 'print', 'dispute', 'ruling', 'audit')"


def upgrade() -> None:
    sqlite = op.get_bind().dialect.name == "sqlite"
    op.create_table(
        "players",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("card_number", sa.String(length=30), nullable=True),
        sa.Column("notes", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_by", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["created_by"], ["users.id"], name=op.f("fk_players_created_by_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_players")),
        sa.UniqueConstraint("card_number", name=op.f("uq_players_card_number")),
    )
    op.create_index(op.f("ix_players_name"), "players", ["name"])
    fk = op.f("fk_seatings_player_id_players")
    if sqlite:
        # In place, as 0007 did for hands: batch mode would copy and drop `seatings`, which
        # the ledger's accounts and hands name.
        op.execute(
            f"ALTER TABLE seatings ADD COLUMN player_id INTEGER CONSTRAINT {fk} "
            "REFERENCES players (id)"
        )
    else:
        op.add_column("seatings", sa.Column("player_id", sa.Integer(), nullable=True))
        op.create_foreign_key(fk, "seatings", "players", ["player_id"], ["id"])
    op.create_index(op.f("ix_seatings_player_id"), "seatings", ["player_id"])

    op.create_table(
        "disputes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("hand_id", sa.Integer(), nullable=False),
        sa.Column("raised_by", sa.String(length=10), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("claim", sa.Text(), nullable=False),
        sa.Column("entry_seq", sa.Integer(), nullable=True),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("device", sa.String(length=200), nullable=False),
        sa.Column("opened_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("raised_by IN ('seat', 'dealer')", name=op.f("ck_disputes_raised_by")),
        sa.CheckConstraint(
            "(raised_by = 'seat') = (seat IS NOT NULL)",
            name=op.f("ck_disputes_seat_when_raised_by_seat"),
        ),
        sa.ForeignKeyConstraint(["hand_id"], ["hands.id"], name=op.f("fk_disputes_hand_id_hands")),
        sa.ForeignKeyConstraint(
            ["entry_seq"], ["ledger_entries.seq"], name=op.f("fk_disputes_entry_seq_ledger_entries")
        ),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_disputes_user_id_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_disputes")),
    )
    op.create_index(op.f("ix_disputes_hand_id"), "disputes", ["hand_id"])
    op.create_index(op.f("ix_disputes_opened_at"), "disputes", ["opened_at"])
    op.create_table(
        "dispute_rulings",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("dispute_id", sa.Integer(), nullable=False),
        sa.Column("outcome", sa.String(length=10), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("void_event_id", sa.Integer(), nullable=True),
        sa.Column("correction_seq", sa.Integer(), nullable=True),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("device", sa.String(length=200), nullable=False),
        sa.Column("ruled_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "outcome IN ('upheld', 'denied')", name=op.f("ck_dispute_rulings_outcome")
        ),
        sa.CheckConstraint(
            "outcome = 'upheld' OR (void_event_id IS NULL AND correction_seq IS NULL)",
            name=op.f("ck_dispute_rulings_denied_leads_to_nothing"),
        ),
        sa.ForeignKeyConstraint(
            ["dispute_id"], ["disputes.id"], name=op.f("fk_dispute_rulings_dispute_id_disputes")
        ),
        sa.ForeignKeyConstraint(
            ["void_event_id"], ["events.id"], name=op.f("fk_dispute_rulings_void_event_id_events")
        ),
        sa.ForeignKeyConstraint(
            ["correction_seq"],
            ["ledger_entries.seq"],
            name=op.f("fk_dispute_rulings_correction_seq_ledger_entries"),
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_dispute_rulings_user_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_dispute_rulings")),
        # A dispute is ruled on once.
        sa.UniqueConstraint("dispute_id", name=op.f("uq_dispute_rulings_dispute_id")),
    )
    _chain_kinds(KINDS_AFTER)
    if not sqlite:
        for table in APPEND_ONLY:
            op.execute(
                f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
                "FOR EACH ROW EXECUTE FUNCTION dealer_refuse_change()"
            )
            op.execute(
                f"CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table} "
                "FOR EACH STATEMENT EXECUTE FUNCTION dealer_refuse_change()"
            )
        return
    for table in APPEND_ONLY:
        _sqlite_guards(table)


def _sqlite_guards(table: str) -> None:
    for change in ("UPDATE", "DELETE"):
        op.execute(
            f"CREATE TRIGGER {table}_no_{change.lower()} BEFORE {change} ON {table} "
            f"BEGIN SELECT RAISE(ABORT, '{change} on {table} is refused: it is append-only'); "
            "END"
        )


def _chain_kinds(check: str) -> None:
    """Let ``chain_links.kind`` take the kinds ``check`` names.

    PostgreSQL alters the constraint in place. SQLite cannot: batch mode copies the table
    under the new check and drops the old one, whose triggers go with it, so 0009's guards
    are made again on the copy.
    """
    name = op.f("ck_chain_links_kind")
    if op.get_bind().dialect.name != "sqlite":
        op.drop_constraint(name, "chain_links", type_="check")
        op.create_check_constraint(name, "chain_links", check)
        return
    with op.batch_alter_table("chain_links", recreate="always") as batch:
        batch.drop_constraint(name, type_="check")
        batch.create_check_constraint(name, check)
    for change in ("UPDATE", "DELETE"):
        op.execute(
            f"CREATE TRIGGER chain_links_no_{change.lower()} BEFORE {change} ON chain_links "
            f"BEGIN SELECT RAISE(ABORT, '{change} on chain_links is refused: it is "
            "append-only'); END"
        )


def downgrade() -> None:
    sqlite = op.get_bind().dialect.name == "sqlite"
    linked = op.get_bind().scalar(
        sa.text("SELECT count(*) FROM chain_links WHERE kind IN ('dispute', 'ruling', 'audit')")
    )
    if linked:
        # Their links are in the keyed chain: taking the rows away would break it.
        raise RuntimeError(
            "Disputes are on the record (linked into the keyed chain): this database cannot "
            "go back before 0014_disputes_players."
        )
    for table in APPEND_ONLY:
        if sqlite:
            op.execute(f"DROP TRIGGER {table}_no_update")
            op.execute(f"DROP TRIGGER {table}_no_delete")
        else:
            op.execute(f"DROP TRIGGER {table}_no_truncate ON {table}")
            op.execute(f"DROP TRIGGER {table}_append_only ON {table}")
    if sqlite:
        op.execute("DROP TRIGGER chain_links_no_update")
        op.execute("DROP TRIGGER chain_links_no_delete")
    _chain_kinds(KINDS_BEFORE)
    op.drop_table("dispute_rulings")
    op.drop_index(op.f("ix_disputes_opened_at"), table_name="disputes")
    op.drop_index(op.f("ix_disputes_hand_id"), table_name="disputes")
    op.drop_table("disputes")
    op.drop_index(op.f("ix_seatings_player_id"), table_name="seatings")
    if sqlite:
        op.execute("ALTER TABLE seatings DROP COLUMN player_id")
    else:
        op.drop_constraint(op.f("fk_seatings_player_id_players"), "seatings", type_="foreignkey")
        op.drop_column("seatings", "player_id")
    op.drop_index(op.f("ix_players_name"), table_name="players")
    op.drop_table("players")
