"""Reading the ledger into the documents' plain inputs (`dealer.reports.model`).

Every chip figure is a sum of `LedgerEntry` rows; the rules engine, replaying the stored
events, gives only the words of each event. So a document can never disagree with the books.
"""

from dealer.reports.gather.exports import ledger_rows, player_session_rows
from dealer.reports.gather.hand import hand_slip
from dealer.reports.gather.session import session_report
from dealer.reports.gather.shift import shift_report

__all__ = ["hand_slip", "ledger_rows", "player_session_rows", "session_report", "shift_report"]
