"""The shift ledger: tables, players, drop, the books' checks, and the red banner."""

import re
from dataclasses import replace
from datetime import timedelta

import pytest

from dealer.reports import shift_pdf
from dealer.reports.pages import PrintOptions
from dealer.views.documents.shift import ShiftTable
from dealer.views.documents.shift_tally import TrialLine
from tests.reports.examples import OPENED, listed, pdf_pages, shift_example

PROBLEMS = (
    "Chain broken at seq 77: the hash does not match.",
    "Table 9 has a hand still in play.",
)


def text_of(report):
    return "\n".join(pdf_pages(shift_pdf(report)))


def test_tables_drop_and_totals():
    text = text_of(shift_example())
    assert "6 (1 void)" in text  # hands (voids)
    assert "18 chips ($9.00)" in text  # Table 7 at 50 cents
    assert "12 chips ($12.00)" in text  # Table 9 at a dollar
    assert "6 chips ($30.00)" in text  # the high-stakes table at five dollars
    assert "36 chips ($51.00)" in text  # the drop: chips and money summed table by table
    assert "High stakes <VIP> & co" in text


def test_players_totals_and_a_formula_name_printed_as_text():
    text = text_of(shift_example())
    assert "=HYPERLINK(evil)" in text
    assert "-50 chips (-$50.00)" in text
    assert "900 chips ($1,050.00)" in text  # buy-ins, all players
    assert "0 chips (+$65.00)" in text  # net, all players


def test_trial_balance_totals_zero_and_the_chain_check():
    text = text_of(shift_example())
    assert "Trial balance" in text
    assert "276\n276\n0" in text  # debits, credits, balance
    assert "balances (0 chips)" in text
    assert "OK over 412 entries" in text
    assert "FAILED" not in text and "CHECK" not in text


def test_charts_of_the_drop_by_hour_and_by_table():
    text = text_of(shift_example())
    assert "Drop by hour ($)" in text and "Drop by table ($)" in text
    assert "21:00" in text and "22:00" in text  # the hours on the floor's clock (UTC here)
    assert "$33.00" in text  # the second hour's bar


def test_problems_print_in_a_red_banner_and_the_report_still_prints():
    pages = pdf_pages(shift_pdf(shift_example(PROBLEMS)))
    first = " ".join(pages[0].split())
    assert "2 CHECK(S) FAILED" in first
    for problem in PROBLEMS:
        assert problem in first
    assert all("CHECKS FAILED" in page for page in pages)  # every page's header says so
    assert "36 chips ($51.00)" in "\n".join(pages)  # and the figures are all there


def test_a_trial_balance_off_zero_raises_its_own_banner():
    report = shift_example()
    off = replace(report, trial_balance=(*report.trial_balance, TrialLine("cage", 5, 0)))
    text = " ".join(text_of(off).split())
    assert "The trial balance totals 5 chips, not zero" in text
    assert "OFF BY 5 chips" in text


def test_a_long_shift_lists_every_hand_with_the_header_on_each_page():
    report = shift_example()
    hands = tuple(
        listed("Table 7", n, OPENED + timedelta(seconds=20 * n), "settled", (2, "Bea"), 45, 6)
        for n in range(1, 601)
    )
    pages = pdf_pages(shift_pdf(replace(report, hands=hands)))
    header = "\n".join(("Table", "Hand", "Settled", "Status", "Winner", "Seats", "Won", "Drop"))
    listing = [n for n, page in enumerate(pages) if page.startswith(header + "\n")]
    assert len(listing) >= 5 and listing == list(range(listing[0], len(pages)))
    assert "\nTable 7\n600\n" in pages[-1]


def test_a_hand_at_a_table_outside_the_shift_is_refused():
    report = shift_example()
    stray = listed("Table 99", 1, OPENED, "settled", (1, "Ana"), 45, 6)
    with pytest.raises(ValueError, match="Table 99"):
        shift_pdf(replace(report, hands=(stray,)))


def test_a_reprint_is_stamped_in_the_header_only():
    pages = pdf_pages(shift_pdf(shift_example(reprint=3)))
    # Once a page, in the header beside the page number: never drawn across the figures.
    assert all(page.count("REPRINT 3") == 1 for page in pages)
    assert all(re.search(r"Page \d+ of \d+\nREPRINT 3\n", page) for page in pages)


def test_the_summary_comes_first_and_the_hands_last():
    pages = pdf_pages(shift_pdf(shift_example()))
    first = pages[0]
    for heading in ("Collections and rake by table", "Collections by dealer", "Cash in and out"):
        assert heading in first
    assert "house drop\n36 chips ($51.00)" in first
    assert "Appendix: every hand" not in first and "Appendix: every hand" in pages[-1]
    assert "\nTable 7\n1\n" in pages[-1]  # a hand's line


def test_the_list_of_hands_can_be_left_out():
    report = shift_example()
    hands = tuple(
        listed("Table 7", n, OPENED + timedelta(seconds=20 * n), "settled", (2, "Bea"), 45, 6)
        for n in range(1, 601)
    )
    full = pdf_pages(shift_pdf(replace(report, hands=hands)))
    short = pdf_pages(shift_pdf(replace(report, hands=hands, with_hands=False)))
    assert len(short) <= 3 < len(full)
    assert "Left out of this copy" in short[-1] and "\nTable 7\n600\n" not in "".join(short)


def test_no_chart_for_a_table_that_dropped_nothing():
    report = shift_example()
    quiet = ShiftTable("Quiet table", 100, hands=0, drop=0, void_hands=0)
    text = text_of(replace(report, tables=(*report.tables, quiet)))
    chart = text.split("Drop by table")[1].split("Tables")[0]
    assert "Quiet table" not in chart and "Table 9" in chart


def test_a_big_figure_in_the_listing_is_set_smaller_not_cut():
    report = shift_example()
    big = listed("High stakes <VIP> & co", 2, OPENED, "settled", (1, "Hal"), 123_456, 6)
    data = shift_pdf(replace(report, hands=(*report.hands, big)), PrintOptions(page_size="A4"))
    text = "\n".join(pdf_pages(data))
    assert "+123,456 chips (+$617,280.00)" in text
    assert "\nHigh stakes <VIP> & co\n" in text  # the table's name fits its column whole


def test_an_empty_window_still_prints():
    report = replace(
        shift_example(), tables=(), players=(), drop_by_hour=(), hands=(), trial_balance=()
    )
    text = text_of(report)
    assert "No hands in the window." in text
    assert "Drop by" not in text  # no chart is drawn empty


def test_a_long_window_charts_the_drop_by_day():
    from dealer.views.documents.shift_tally import Amount, HourDrop

    days = tuple(HourDrop(OPENED + timedelta(days=d), Amount(6, 300)) for d in range(3))
    report = replace(shift_example(), window_to=OPENED + timedelta(days=3), drop_by_hour=days)
    text = text_of(report)
    assert "Drop by day ($)" in text and "Drop by hour" not in text
    assert "2024-05-04" in text


def test_a_failed_check_is_listed_once_by_its_own_name():
    """The checks' own problems are what the banner lists; the chain's sentence is added only
    when the checks failed and listed nothing (it is not added beside another check's)."""
    failed = shift_example().chain.model_copy(update={"ok": False})
    named = replace(shift_example(("Balances: seat 3 is 2 chips off.",)), chain=failed)
    assert named.all_problems() == ("Balances: seat 3 is 2 chips off.",)
    bare = replace(shift_example(), chain=failed)
    assert bare.all_problems() == ("The ledger's hash chain does not verify.",)
