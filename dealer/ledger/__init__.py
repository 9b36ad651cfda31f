"""The chip ledger: the only code that writes chip movements, and the checks over them.

An entry moves ``chips > 0`` from one account to another (see `accounts`);
balances are sums of entries. Entries are appended by `post`, inside the
caller's write transaction, with a gapless ``seq`` and a hash chain; database
triggers refuse to update or delete them. Entries, events and prints are also
linked into a keyed chain (`links`), whose head is filed in signed checkpoints
outside the database (`checkpoints`). The table, seat and hand services here
are the callers of `post`: they ask the rules engine what happens and store it.
"""

from dealer.ledger.accounts import (
    CAGE,
    Account,
    house_account,
    parse_account,
    pot_account,
    seating_account,
)
from dealer.ledger.balances import balance, balances, hand_net
from dealer.ledger.chain import GENESIS, canonical_fields, entry_hash
from dealer.ledger.checks import (
    Figure,
    Problem,
    check_accounts,
    check_balances,
    check_chain,
    check_hands_net_zero,
    check_reversals,
    check_sequence,
)
from dealer.ledger.post import Posting, Recorder, post
from dealer.ledger.verdict import EngineChange, Report
from dealer.ledger.verification import verify

__all__ = [
    "CAGE",
    "GENESIS",
    "Account",
    "EngineChange",
    "Figure",
    "Posting",
    "Problem",
    "Recorder",
    "Report",
    "balance",
    "balances",
    "canonical_fields",
    "check_accounts",
    "check_balances",
    "check_chain",
    "check_hands_net_zero",
    "check_reversals",
    "check_sequence",
    "entry_hash",
    "hand_net",
    "house_account",
    "parse_account",
    "post",
    "pot_account",
    "seating_account",
    "verify",
]
