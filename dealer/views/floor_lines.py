"""The floor as the screens read it: a line for each table, with its figures and its words.

The floor screen and the dealer's pick list render these lines; the API's floor is
`dealer.views.floor`, read from the same hands in play (`dealer.hands.reading`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from dealer import rules
from dealer.floor.figures import (
    FloorFlags,
    floor_flags,
    house_drop,
    last_hand_numbers,
    seats_filled,
)
from dealer.floor.in_play import hands_in_play
from dealer.ledger.replay import table_collection, table_rules
from dealer.models import Hand, Table
from dealer.words.rules import game_words, profile_words


@dataclass(frozen=True, slots=True)
class TableLine:
    """One table on the floor."""

    table: Table
    game: str
    #: The table's rule profile in words: ``Classic``, ``Card room``.
    profile: str
    collection: rules.Collection
    seats: int
    hand: Hand | None
    hands_dealt: int
    drop: int
    flags: FloorFlags

    @property
    def banned_in_california(self) -> bool:
        return self.collection.banned_in_california


def table_lines(session: Session, tables: list[Table], since: datetime | None) -> list[TableLine]:
    """Each of ``tables`` as a line of the floor: the house drop since ``since`` (None: 0)."""
    ids = [t.id for t in tables]
    filled = seats_filled(session, ids)
    playing = hands_in_play(session, ids)
    numbers = last_hand_numbers(session, ids)
    drops = house_drop(session, ids, since) if since is not None else dict.fromkeys(ids, 0)
    flags = floor_flags(session, tables)
    return [
        TableLine(
            table,
            game_words(table_rules(table)),
            profile_words(table.profile),
            table_collection(table),
            filled[table.id],
            playing.get(table.id),
            numbers.get(table.id, 0),
            drops[table.id],
            flags[table.id],
        )
        for table in tables
    ]
