"""The table session: seats, the drop, corrections and every hand, as the ledger has them."""

from dataclasses import replace
from datetime import UTC, datetime

from dealer.reports import down_pdf
from dealer.reports.pages import PrintOptions
from tests.reports.examples import PLAYERS, checked, down_example, pdf_pages, rotated_hand


def test_each_seats_net_and_the_drop_match_the_engine():
    # Twelve hands: each seat wins two (+45 each after its 1-chip fee), drops two (-3 each)
    # and loses eight (-12 each): -12 over the session. The house: 6 a hand, 72 in all.
    hands = [
        rotated_hand((n - 1) % 6 + 1, (n + 2) % 6 + 1, {"kind": "per_hand", "chips": 1})
        for n in range(1, 13)
    ]
    assert {s: sum(h.net[s] for h in hands) for s in PLAYERS} == dict.fromkeys(PLAYERS, -12)
    assert sum(h.net["house"] for h in hands) == 72

    text = "\n".join(pdf_pages(down_pdf(down_example(12))))
    assert text.count("-12 chips (-$6.00)") == 6
    assert "+72 chips (+$36.00)" in text  # the house's row
    assert "72 chips ($36.00)" in text  # and the summary's house drop
    assert "3,000 chips ($1,500.00)" in text  # buy-ins: 6 x 500
    assert "0 chips ($0.00)" in text  # players' nets and the drop: zero


def test_summary_dealer_close_and_hands_won():
    text = "\n".join(pdf_pages(down_pdf(down_example(12), PrintOptions(timezone="UTC"))))
    assert "Dana" in text and "Flo" in text
    assert "2024-05-03 21:00:00 UTC" in text  # opened
    assert "2024-05-03 21:29:00 UTC" in text  # closed
    assert "hands dealt" in text and "12" in text


def test_voids_and_corrections_with_who_approved_and_why():
    text = " ".join("\n".join(pdf_pages(down_pdf(down_example(12)))).split())
    assert "Voids and corrections" in text
    assert "seat 3's <discard> & no meld." in text
    assert "the floor watched the replay and ruled the add void" in text
    assert "Flo" in text and "12 chips ($6.00)" in text


def test_a_long_down_repeats_the_listing_header_on_every_page():
    pages = pdf_pages(down_pdf(down_example(300)))
    assert len(pages) >= 4
    header = "\n".join(("Hand", "Id", "Settled", "Status", "Winner", "Seats", "Won", "Drop"))
    assert header in pages[0]
    for page in pages[1:]:  # the listing goes on at the top of every later page
        assert page.startswith(header + "\n")
    text = "\n".join(pages)
    for hand_id in range(5001, 5301):  # every hand is listed
        assert str(hand_id) in text


def test_a_reprint_is_stamped_on_every_page():
    pages = pdf_pages(down_pdf(down_example(300, reprint=1)))
    assert all("REPRINT 1" in page for page in pages)
    assert all(f"Page {n} of {len(pages)}" in p for n, p in enumerate(pages, start=1))


def test_signature_lines():
    last = pdf_pages(down_pdf(down_example(3)))[-1]
    assert "Dealer signature - Dana" in last and "Supervisor signature" in last


def test_big_figures_are_wrapped_or_shrunk_never_cut():
    report = down_example(40)
    rich = replace(
        report,
        chip_value_cents=2500,
        seats=tuple(replace(s, conditions=123_456, buy_ins=987_654) for s in report.seats),
    )
    text = " ".join(pdf_pages(down_pdf(rich, PrintOptions(page_size="A4")))[0].split())
    assert "987,654 chips ($24,691,350.00)" in text
    assert "740,736 chips ($18,518,400.00)" in text  # six seats' conditions, in the total row
    assert "..." not in text


def test_a_down_still_open_with_no_hands_prints():
    report = replace(down_example(0), closed_at=None, close_confirmed_by=None, corrections=())
    text = "\n".join(pdf_pages(down_pdf(report)))
    assert "still open" in text and "No hands were played." in text and "None." in text


def test_the_checks_it_ran_are_said_clean_up_to_its_checkpoint():
    report = replace(
        down_example(3),
        chain=checked(40, "ab", since=datetime(2024, 5, 3, 21, 29, tzinfo=UTC), since_link=120),
    )
    text = " ".join("\n".join(pdf_pages(down_pdf(report, PrintOptions(timezone="UTC")))).split())
    assert "The ledger checked clean up to this report's checkpoint" in text
    assert (
        "Checked from the signed checkpoint of 2024-05-03 21:29:00 UTC (link 120): "
        "nothing was written after it" in text
    )
    assert "CHECK" not in text


def test_problems_the_checks_found_print_in_the_red_banner_and_every_header():
    problems = ("chain: Entry 16 was changed after it was written.",)
    report = replace(
        down_example(3),
        chain=checked(40, "ab", ok=False, links=7),
        problems=problems,
    )
    pages = pdf_pages(down_pdf(report))
    first = " ".join(pages[0].split())
    assert "1 CHECK(S) FAILED: read these before signing this report" in first
    assert problems[0] in first
    assert all("CHECKS FAILED" in page for page in pages)
    assert "checked clean" not in " ".join(pages)
