"""The advisory locks PostgreSQL's writes queue on, which write takes which, and in what order.

SQLite has one write lock for the whole database (`dealer.transactions`); on PostgreSQL a
write takes these transaction-level advisory locks (released at commit or rollback):

- **the writers' lock**, held by every write while it writes: one writer at a time appends to
  the ledger's chain, reads its heads fresh, and bumps the live marks.
- **the floor's lock**, shared or whole, and **a table's lock**, one per table. A write of one
  hand's play (an event, a void, a move: `writing`'s ``hand``) takes the floor's lock shared
  and its table's lock, reads its hand, judges it, makes its rows and draws its answer
  (`dealer.hands.rows`), and takes the writers' lock only when it begins to write
  (`require_writing`; an event in the round trip that reads its place, `writers_first`):
  another table's event is written meanwhile, and the writers' lock is held for the event's
  place in the chains (its id and time, its entries' seqs and hashes, the links' HMACs), its
  rows sent in one round trip with the commit, and nothing else. A write at one
  table (a deal, a seat, chips, a session opened: ``table``) takes the floor's lock shared,
  its table's and the writers' at once. Every other write
  takes the floor's lock whole and the writers', so it waits for the tables' writes under way
  and none begins until it ends. So what a hand's write reads before the writers' lock (its
  table's hands, seats and sessions; the people) moves only under that table's lock or the
  whole floor's, never beneath it. Two things another table's write may add meanwhile, and
  neither misleads it: a dealer's session there (which takes no right away here) and a kept
  answer of a key (the same key kept at two tables at once: `dealer.web.once.run_once`).
- **the counts' lock**: a write of the sign-in counts (``sign_in_counts``) takes it first, and
  the writers' lock only when it writes its audit record, so a flood of wrong PINs holds up a
  buy-in for the record, its link and the commit, not for the counts' reads and writes.
  A write of nothing any table's write reads (a sign-in, its last use, its end: ``apart``)
  takes the writers' lock alone.

Every write takes its locks in one order (the counts' or the floor's, then a table's, then
the writers'), and none waits for another lock while holding the writers', so no two writes
ever wait on each other. PostgreSQL evaluates a statement's select list from left to right,
so the locks of one statement are taken in the order they are named.
"""

from __future__ import annotations

from collections.abc import Mapping

#: The PostgreSQL advisory lock key every writer takes (any fixed bigint works).
WRITERS_LOCK = 7_362_341_201
#: The lock a write of the sign-in counts takes first: it serialises the counts' reads and
#: writes; the writers' lock follows only if the write appends to the chain.
COUNTS_LOCK = 7_362_341_202
#: The floor's lock: shared by the writes at one table, whole for every other write (but the
#: sign-in counts and ``apart``).
FLOOR_LOCK = 7_362_341_203
#: The health check's own lock: checks write their one row one at a time, on every app server.
#: Two checks updating the row at once each keep a version the other's snapshot still sees, so
#: the table grew with every burst (18 bytes a check, 4 at once); one at a time it stays a page.
HEALTH_LOCK = 7_362_341_204
#: The first key of a table's lock, PostgreSQL's two-key form (the table's id the second): a
#: keyspace of its own, apart from the one-key locks above.
TABLE_LOCKS = 736_234_120
#: The writers' lock taken, as a statement's select list names it.
TAKE_WRITERS = f"pg_advisory_xact_lock({WRITERS_LOCK})"

#: The execution option of a write of the sign-in counts (`writing`'s ``sign_in_counts``).
COUNTS = "dealer_sign_in_counts"
#: The execution option of a write of one hand's play: the hand's id (`writing`'s ``hand``).
HAND = "dealer_hand"
#: The execution option of a write at one table: the table's id (`writing`'s ``table``).
TABLE = "dealer_table"
#: The execution option of a write apart from every table (`writing`'s ``apart``).
APART = "dealer_apart"


def first_locks(options: Mapping[str, object]) -> str:
    """The locks a PostgreSQL write with these execution options takes as it begins, as the
    select list of one statement, in the order every write takes them."""
    if options.get(COUNTS, False):
        return f"pg_advisory_xact_lock({COUNTS_LOCK})"
    if options.get(APART, False):
        return TAKE_WRITERS
    hand, table = options.get(HAND), options.get(TABLE)
    if isinstance(hand, int):
        # The table of the hand (a hand never moves): no hand, no table lock (NULL), and the
        # write then finds no hand.
        of_hand = f"(SELECT table_id FROM hands WHERE id = {hand:d})"
        return (
            f"pg_advisory_xact_lock_shared({FLOOR_LOCK}), "
            f"pg_advisory_xact_lock({TABLE_LOCKS}, {of_hand})"
        )
    if isinstance(table, int):
        return (
            f"pg_advisory_xact_lock_shared({FLOOR_LOCK}), "
            f"pg_advisory_xact_lock({TABLE_LOCKS}, {table:d}), {TAKE_WRITERS}"
        )
    return f"pg_advisory_xact_lock({FLOOR_LOCK}), {TAKE_WRITERS}"


def writers_later(options: Mapping[str, object]) -> bool:
    """Whether a write began without the writers' lock (`require_writing` takes it)."""
    return bool(options.get(COUNTS, False)) or isinstance(options.get(HAND), int)
