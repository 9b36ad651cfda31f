"""What the hand screen shows of its disputes: the hand's disputes, open and ruled, a form to
open one, and, for a supervisor, a form to rule on each one still open (`rulings` takes them).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from dealer.bounds import CLAIM, RULING_REASON
from dealer.disputes import record as service
from dealer.disputes.players import players_dealt_in
from dealer.disputes.said import disputes_said
from dealer.models import Hand, LedgerEntry
from dealer.screens.auth.guard import who
from dealer.screens.forms import DisputeForm, RulingForm
from dealer.words.reasons import reason_words


def disputes_panel(session: Session, hand: Hand, page_address: str) -> dict[str, Any]:
    """What the hand screen shows of its disputes, and the forms to open and rule on them."""
    found = service.hand_disputes(session, hand.id)
    choices = service.hand_choices(session, hand.id)
    can_rule = who().user.can("supervisor")
    return {
        "disputes": found,
        "dispute_form": DisputeForm(formdata=None).stamp(page_address),
        "ruling_forms": {
            f.dispute.id: RulingForm(formdata=None, prefix=f"ruling-{f.dispute.id}").stamp(
                page_address
            )
            for f in found
            if can_rule and f.ruling is None
        },
        "dispute_choices": choices,
        # The picker groups each event's payments (in order: its payments' own order).
        "entries_by_event": _by_event(choices.payments),
        # Each entry's reason in words, by its seq.
        "entry_reasons": {e.seq: reason_words(e.reason_code, e.reason) for e in choices.payments},
        # Each dispute in words (who raised it, the payment it is about), by its id.
        "disputes_said": disputes_said(session, [f.dispute for f in found]),
        "seats_dealt": sorted(int(seat) for seat in hand.seats),
        "statements": players_dealt_in(session, hand) if can_rule else [],
        "claim_longest": CLAIM,
        "reason_longest": RULING_REASON,
    }


def _by_event(entries: list[LedgerEntry]) -> dict[int, list[int]]:
    """The seqs of each event's ledger entries, in order (an event's n-th entry is its n-th
    payment, as the hand view lists them)."""
    out: dict[int, list[int]] = {}
    for entry in entries:
        if entry.event_id is not None:
            out.setdefault(entry.event_id, []).append(entry.seq)
    return out
