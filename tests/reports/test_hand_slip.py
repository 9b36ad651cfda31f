"""The hand slip: does the paper say what the engine decided, event by event and seat by seat?"""

import io
from dataclasses import replace

from pypdf import PdfReader

from dealer.reports import hand_slip_pdf
from dealer.reports.pages import PrintOptions
from dealer.rules import Hand, action_from_dict, make_collection, make_rules
from tests.reports.examples import (
    PLAYERS,
    long_hand,
    pdf_pages,
    rotated_hand,
    seed_000_hand,
    slip_of,
)

LA = PrintOptions(timezone="America/Los_Angeles", printed_by="Flo")


def test_seed_000_nets_and_total_match_the_engine():
    hand = seed_000_hand()
    assert hand.net[1] == 46 and hand.net[5] == -2
    text = "\n".join(pdf_pages(hand_slip_pdf(slip_of(hand), LA)))
    assert "+46 chips (+$23.00)" in text  # seat 1 went out
    assert text.count("-11 chips (-$5.50)") == 4  # seats 2, 3, 4 and 6
    assert "-2 chips (-$1.00)" in text  # seat 5 dropped: the tops
    assert "Total" in text and "0 chips ($0.00)" in text
    assert "+26 chips (+$13.00)" in text  # seat 1's settlement: 4 x (1 + 5) and the pot of 2


def test_every_payment_is_printed_in_words_a_line_for_each_group():
    slip = slip_of(seed_000_hand())
    text = " ".join("\n".join(pdf_pages(hand_slip_pdf(slip))).split())
    for words in ("drop forfeit", "valle set in spades", "going out", "conditions paid again"):
        assert words in text
    for code in ("drop_forfeit", "going_out", "conditions_again", "5S"):
        assert code not in text
    assert "Seat 1 melds 5♠ 5♠ 5♠" in text and "Seat 1 goes out" in text
    assert "Seats 2, 3, 4 and 6 each pay seat 1 (Ana) 4 chips: valle set in spades" in text


def test_each_event_is_printed_in_its_one_sentence():
    """An add, a borrow, a split and a void each print as every door says them."""
    hand = Hand(make_rules("classic"), PLAYERS, make_collection(None))
    for body in (
        {"type": "meld", "seat": 1, "cards": ["5S", "5S", "5S"]},
        {"type": "add", "seat": 1, "meld": 1, "cards": ["5S"]},
        {"type": "meld", "seat": 2, "cards": ["4D", "5D", "6D", "7D"]},
        {"type": "borrow", "seat": 2, "meld": 2, "take": ["7D"], "cards": ["7C", "7H"]},
        {"type": "meld", "seat": 3, "cards": ["5C", "6C", "7C", "JC"]},
        {"type": "split", "seat": 3, "meld": 4, "cards": ["4C", "QC"]}
        | {"into": [["4C", "5C", "6C"], ["7C", "JC", "QC"]]},
        {"type": "meld", "seat": 4, "cards": ["KS", "KS", "KS"]},
        {"type": "void", "event": 8, "reason": "wrong seat"},
    ):
        hand.apply(action_from_dict(body))
    text = " ".join(" ".join(pdf_pages(hand_slip_pdf(slip_of(hand)))).split())
    for said in (
        "Seat 1 adds 5♠ to 5♠ 5♠ 5♠",
        "Seat 2 borrows 7♦ from 4♦ 5♦ 6♦ 7♦ for 7♣ 7♦ 7♥",
        "Seat 3 adds 4♣ Q♣ to 5♣ 6♣ 7♣ J♣ and splits it into 4♣ 5♣ 6♣ and 7♣ J♣ Q♣",
        "Void of #8 (Seat 4 melds K♠ K♠ K♠): wrong seat",
    ):
        assert said in text, said
    assert "Seat 4 melds K♠ K♠ K♠ VOIDED" in text


def test_the_seed_hand_and_a_busy_hand_each_print_on_one_page():
    assert len(long_hand().events) == 18  # the deal and 17 recorded
    for hand in (seed_000_hand(), seed_000_hand(mis_entry=True), long_hand()):
        for paper in ("letter", "A4"):
            pages = pdf_pages(hand_slip_pdf(slip_of(hand), PrintOptions(paper)))
            assert len(pages) == 1, (paper, len(hand.events))
            assert "Dealer signature - Dana" in pages[0]


def test_a_condition_paid_by_several_seats_is_one_line():
    text = "\n".join(pdf_pages(hand_slip_pdf(slip_of(seed_000_hand()))))
    line = "Seats 2, 3, 4 and 6 each pay seat 1 (Ana) 1 chip: run with the king in hearts"
    assert line in text
    assert text.count("pays seat 1 (Ana) 4 chips") == 0  # never one line per payer
    assert text.count("each pay seat 1 (Ana) 4 chips: valle set in spades") == 1


def test_every_rule_the_payments_follow_is_explained_in_words():
    text = " ".join("\n".join(pdf_pages(hand_slip_pdf(slip_of(seed_000_hand())))).split())
    assert "The rules these payments follow" in text
    assert "drop forfeit: A seat that drops before the first meld pays the drop forfeit" in text
    assert "conditions paid again: At going out, each paying seat pays the winner again" in text
    assert "(rules, section 5.4)" in text
    assert "returned by a void" not in text  # only the rules this hand's payments used
    voided = " ".join("\n".join(pdf_pages(hand_slip_pdf(slip_of(long_hand())))).split())
    assert "returned by a void: A voided event's payments are returned" in voided
    assert "house collection: The house's collection" in voided


def test_rules_in_force_dealer_and_times_in_the_floor_zone():
    text = "\n".join(pdf_pages(hand_slip_pdf(slip_of(seed_000_hand()), LA)))
    for knob in ("Packs in the shoe", "Drop forfeit", "Going out pays", "Spades double"):
        assert knob in text
    for code in ("packs", "drop_forfeit", "going_out_chips", "addition_pay", "spades_double"):
        assert code not in text
    assert "Classic" in text and "Dana" in text
    assert "seat 1 Ana" in text  # the winner
    assert "2024-05-03 14:00:00 PDT" in text  # opened at 21:00 UTC
    assert "by Flo" in text  # the footer: who printed it


def test_ledger_range_and_head_hash():
    slip = slip_of(seed_000_hand())
    assert (slip.ledger_first_seq, slip.ledger_last_seq) == (101, 118)
    text = "\n".join(pdf_pages(hand_slip_pdf(slip)))
    assert "seq 101 to 118" in text
    assert slip.head_hash in "".join(text.split())  # the hash may wrap in its cell


def test_signature_lines_for_dealer_and_floor():
    last = pdf_pages(hand_slip_pdf(slip_of(seed_000_hand())))[-1]
    assert "Dealer signature - Dana" in last
    assert "Floor signature" in last
    assert last.count("Date and time") == 2


def test_the_drop_is_printed_when_the_house_collects():
    hand = rotated_hand(1, 5, {"kind": "per_hand", "chips": 1})
    text = "\n".join(pdf_pages(hand_slip_pdf(slip_of(hand))))
    assert "+6 chips (+$3.00)" in text  # the house: 1 from each of six seats
    assert "+45 chips (+$22.50)" in text
    assert "per hand: 1 chip from each seat dealt in" in " ".join(text.split())


def test_a_void_is_marked_with_its_approval_and_its_reason_escaped():
    text = " ".join("\n".join(pdf_pages(hand_slip_pdf(slip_of(seed_000_hand(True))))).split())
    assert "VOIDED" in text
    assert "approved by Flo" in text
    assert "seat 3's <discard> & no meld" in " ".join(text.split())
    assert text.count("-11 chips (-$5.50)") == 4  # the void changed no net


def test_the_original_has_no_stamp_and_a_reprint_has_it_on_every_page():
    assert all("REPRINT" not in page for page in pdf_pages(hand_slip_pdf(slip_of(seed_000_hand()))))
    pages = pdf_pages(hand_slip_pdf(slip_of(seed_000_hand(mis_entry=True), reprint=2)))
    assert pages and all("REPRINT 2" in page for page in pages)


def test_page_n_of_m_and_the_paper_size():
    data = hand_slip_pdf(slip_of(seed_000_hand(mis_entry=True)), PrintOptions(page_size="A4"))
    pages = pdf_pages(data)
    assert all(f"Page {n} of {len(pages)}" in page for n, page in enumerate(pages, start=1))
    box = PdfReader(io.BytesIO(data)).pages[0].mediabox
    assert (round(box.width), round(box.height)) == (595, 842)


def test_a_hand_in_play_prints_without_settlement_or_ledger():
    slip = replace(
        slip_of(seed_000_hand()),
        status="playing",
        winner=None,
        settled_at=None,
        ledger_first_seq=None,
        ledger_last_seq=None,
        head_hash="",
    )
    text = "\n".join(pdf_pages(hand_slip_pdf(slip)))
    assert "not settled" in text and "none yet" in text


def test_the_pdf_names_its_creator_and_language():
    reader = PdfReader(io.BytesIO(hand_slip_pdf(slip_of(seed_000_hand()))))
    assert reader.metadata is not None and reader.metadata.creator.startswith("dealer ")
    assert reader.trailer["/Root"]["/Lang"] == "en"


def test_the_slip_opens_with_table_hand_time_and_settlement_and_ends_with_the_proof():
    """Read top-down as a manager reads it, on a page and on the 80 mm roll: the first printed
    lines name the table, the hand, when, and the settlement; the ledger's proof (entries, head
    hash, the rules in force) comes after everything a person signs."""
    from dealer.reports.receipt import hand_slip_receipt

    slip = slip_of(seed_000_hand())
    roll = PrintOptions("receipt", timezone="America/Los_Angeles")
    for data in (hand_slip_pdf(slip, LA), hand_slip_receipt(slip, roll)):
        [text] = pdf_pages(data)
        lines = text.splitlines()
        assert lines[0] == "Table 7 · hand 57"
        opening = " ".join(lines[1:5])
        assert "Dealt 2024-05-03 14:00:00 PDT" in opening
        assert "settled 2024-05-03" in opening and "winner seat 1 Ana" in opening
        flat = " ".join(text.split())
        settlement, events = flat.index("Settlement"), flat.index("Events and payments")
        assert settlement < events and flat.index("+46 chips (+$23.00)") < events
        signed = flat.index("Floor")
        assert signed < flat.index("Ledger entries seq 101 to 118") < flat.index("head hash")
        assert signed < flat.index("RULES IN FORCE")
