"""Reading the ledger into what the documents print: the views every door reads (a hand's
events, its line, a count, an entry), and what is a document's own (its header, its totals),
each beside the function that builds it.

Every chip figure is a sum of `LedgerEntry` rows; the rules engine, replaying the stored
events, gives only the words of each event. So a document can never disagree with the books.
"""

from dealer.views.documents.down import down_report
from dealer.views.documents.exports import ledger_rows, player_session_rows
from dealer.views.documents.hand import hand_slip
from dealer.views.documents.shift import shift_report

__all__ = ["down_report", "hand_slip", "ledger_rows", "player_session_rows", "shift_report"]
