"""The chip ledger: the only code that writes chip movements, and the checks over them.

An entry moves ``chips > 0`` from one account to another (see `accounts`);
balances are sums of entries. Entries are appended by `post`, inside the
caller's write transaction, with a gapless ``seq`` and a hash chain; database
triggers refuse to update or delete them. Entries, events and prints are also
linked into a keyed chain (`links`), whose head is filed in signed checkpoints
outside the database (`checkpoints`). The table, seat and hand services here
are the callers of `post`: they ask the rules engine what happens and store it.
"""

from dealer.ledger.accounts import CAGE, house_account, parse_account, pot_account, seating_account
from dealer.ledger.balances import balance
from dealer.ledger.chain import GENESIS, entry_hash
from dealer.ledger.checks import (
    Figure,
    check_accounts,
    check_balances,
    check_chain,
    check_hands_net_zero,
    check_reversals,
    check_sequence,
)
from dealer.ledger.post import Posting, Recorder, post
from dealer.ledger.verdict import Report
from dealer.ledger.verification import verify

__all__ = [
    "CAGE",
    "GENESIS",
    "Figure",
    "Posting",
    "Recorder",
    "Report",
    "balance",
    "check_accounts",
    "check_balances",
    "check_chain",
    "check_hands_net_zero",
    "check_reversals",
    "check_sequence",
    "entry_hash",
    "house_account",
    "parse_account",
    "post",
    "pot_account",
    "seating_account",
    "verify",
]
