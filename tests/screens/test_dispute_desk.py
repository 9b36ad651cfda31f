"""The dispute desk on the screens: the hand screen opens a dispute and a supervisor rules on
it; a dealer is offered no ruling and is refused one; the floor counts open disputes."""

from __future__ import annotations

import re

from tests.helpers import Api
from tests.screens.conftest import Web, words


def form_fields(page: str, action: str) -> dict[str, str]:
    """The hidden fields (CSRF token, key, page) of the form posting to ``action``."""
    form = re.search(rf'<form[^>]*action="{re.escape(action)}".*?</form>', page, re.S)
    assert form is not None, action
    return dict(re.findall(r'<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"', form.group(0)))


def test_a_dispute_opened_and_ruled_on_from_the_hand_screen(
    dealer: Web, supervisor: Web, floor_api: Api, hand_id: int, table_id: int
) -> None:
    meld = floor_api.event(hand_id, {"type": "meld", "seat": 1, "cards": ["5S"] * 3})
    entry = meld["payments"][0]["entry"]
    page = dealer.get(f"/hands/{hand_id}")
    assert "No dispute on this hand." in words(page)
    action = f"/hands/{hand_id}/disputes"
    sent = dealer.post(
        action,
        {**form_fields(page, action), "raised_by": "3", "claim": "Paid 4, says 2", "entry": entry},
    )
    assert sent.headers["Location"].endswith("#disputes")
    shown = words(dealer.follow(sent))
    # Who raised it by name and seat, and the payment in words: no ledger entry's number.
    assert (
        "Dispute 1 · P3, seat 3: the 4 chips seat 2 (P2) paid seat 1 (P1) for valle set in "
        "spades (5♠ 5♠ 5♠): Paid 4, says 2" in shown
    )
    assert f"About ledger entry {entry}" not in shown and "raised by seat 3" not in shown
    assert "Awaiting a supervisor's ruling." in shown  # a dealer is offered no ruling
    floor_page = words(supervisor.get("/floor"))
    assert "1 open dispute" in floor_page

    # A dealer who sends a ruling anyway is refused in words, and nothing is recorded.
    ruling = f"/hands/{hand_id}/disputes/1/ruling"
    page = supervisor.get(f"/hands/{hand_id}")
    fields = form_fields(page, ruling)
    refused = dealer.post(
        ruling,
        {**fields, "ruling-1-outcome": "denied", "ruling-1-reason": "No"},
        status=403,
    )
    assert "Only a supervisor rules on a dispute" in words(refused.get_data(as_text=True))

    ruled = supervisor.post(
        ruling, {**fields, "ruling-1-outcome": "denied", "ruling-1-reason": "Four is right"}
    )
    shown = words(supervisor.follow(ruled))
    assert "Ruled denied by Sam" in shown and "Four is right" in shown
    assert "open dispute" not in words(supervisor.get("/floor"))
    assert floor_api.get(f"/hands/{hand_id}/disputes")["disputes"][0]["ruling"]["outcome"] == (
        "denied"
    )


def test_a_refused_dispute_says_why_and_records_nothing(
    dealer: Web, floor_api: Api, hand_id: int
) -> None:
    page = dealer.get(f"/hands/{hand_id}")
    action = f"/hands/{hand_id}/disputes"
    refused = dealer.post(
        action, {**form_fields(page, action), "raised_by": "5", "claim": "   "}, status=422
    )
    assert "Enter the claim." in words(refused.get_data(as_text=True))
    page = dealer.get(f"/hands/{hand_id}")
    refused = dealer.post(
        action, {**form_fields(page, action), "raised_by": "8", "claim": "Who?"}, status=422
    )
    assert "Seat 8 was not dealt in" in words(refused.get_data(as_text=True))
    assert floor_api.get(f"/hands/{hand_id}/disputes")["disputes"] == []


def test_a_payment_is_disputed_in_two_taps_with_what_it_is_about_filled_in(
    dealer: Web, floor_api: Api, hand_id: int
) -> None:
    """From a statement line: the dispute form names the payment, the seat is the statement's,
    the entry is filled in; the claim is all there is to say, and one tap sends it."""
    meld = floor_api.event(hand_id, {"type": "meld", "seat": 1, "cards": ["5S"] * 3})
    paid = next(p for p in meld["payments"] if p["from"] == "3")
    statement = dealer.get(f"/hands/{hand_id}/seats/3/statement")
    link = re.search(r'data-dispute-link href="([^"]+)"', statement)
    assert link is not None
    form_page = dealer.get(link[1].replace("&amp;", "&"))  # tap 1
    heading = re.search(r"<h1>(.*?)</h1>", form_page, re.S)
    assert heading is not None
    chips = paid["chips"]
    assert words(heading[1]) == f"Dispute: Seat 3 (P3) pays seat 1 (P1) {chips} chips"
    assert '<option value="3" selected>' in form_page
    action = f"/hands/{hand_id}/disputes"
    fields = form_fields(form_page, action)
    assert fields["entry"] == str(paid["entry"])
    sent = dealer.post(action, {**fields, "raised_by": "3", "claim": "I had dropped"})  # tap 2
    shown = words(dealer.follow(sent))
    assert f"P3, seat 3: the {chips} chips paid to seat 1 (P1) for valle set in spades" in shown
    assert "I had dropped" in shown and f"About ledger entry {paid['entry']}" not in shown


def test_the_picker_groups_an_events_payments_by_payer_and_payee(
    dealer: Web, floor_api: Api, hand_id: int
) -> None:
    floor_api.event(hand_id, {"type": "meld", "seat": 1, "cards": ["5S"] * 3})
    page = dealer.get(f"/hands/{hand_id}")
    picker = re.search(r'<select id="entry".*?</select>', page, re.S)
    assert picker is not None
    groups = re.findall(r'<optgroup label="([^"]+)">(.*?)</optgroup>', picker[0], re.S)
    meld = next(options for label, options in groups if "melds" in label)
    said = [words(o) for o in re.findall(r"<option[^>]*>(.*?)</option>", meld)]
    assert said[0].startswith("Seat 2 (P2) pays seat 1 (P1) 4:")
    assert len(set(said)) == len(said) == 4  # one line a payer (seats 2, 3, 4, 6), each named


def test_the_floors_open_disputes_name_the_player_and_the_payment_in_words(
    supervisor: Web, floor_api: Api, hand_id: int
) -> None:
    """The floor's list says a dispute as the hand's screen does: who raised it by name and
    seat, and the payment in words; never 'raised by seat 3' nor a ledger entry's number."""
    meld = floor_api.event(hand_id, {"type": "meld", "seat": 1, "cards": ["5S"] * 3})
    paid = next(p for p in meld["payments"] if p["from"] == "3")
    floor_api.post(
        f"/hands/{hand_id}/disputes",
        {"raised_by": "seat", "seat": 3, "claim": "I had dropped", "entry": paid["entry"]},
    )
    floor_api.post(f"/hands/{hand_id}/disputes", {"raised_by": "dealer", "claim": "Recount"})
    said = "P3, seat 3: the 4 chips paid to seat 1 (P1) for valle set in spades (5♠ 5♠ 5♠)"
    hand_page = words(supervisor.get(f"/hands/{hand_id}"))
    assert f"Dispute 1 · {said}: I had dropped" in hand_page
    listing = words(supervisor.get("/floor/disputes"))
    assert "dispute 1 at " in listing and f"· {said}: I had dropped" in listing
    assert "· the dealer: Recount" in listing
    assert "raised by" not in listing and f"ledger entry {paid['entry']}" not in listing


def test_a_ruling_on_the_hand_screen_names_its_void_by_its_number_in_the_hand(
    supervisor: Web, floor_api: Api, hand_id: int
) -> None:
    meld = floor_api.event(hand_id, {"type": "meld", "seat": 1, "cards": ["5S"] * 3})
    floor_api.post(f"/hands/{hand_id}/disputes", {"raised_by": "dealer", "claim": "Twice"})
    void = floor_api.event(hand_id, {"type": "void", "event": meld["event"]["id"], "reason": "x"})
    ruled = {"outcome": "upheld", "reason": "Voided", "void_event": void["event"]["id"]}
    floor_api.post("/disputes/1/ruling", ruled)
    shown = words(supervisor.get(f"/hands/{hand_id}"))
    assert f"Led to the void of #{void['event']['seq']}" in shown
    assert f"the void (event {void['event']['id']})" not in shown
