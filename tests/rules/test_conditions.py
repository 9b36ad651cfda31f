"""PAN_RULES.md section 3: which melds are conditions and what they are worth."""

import pytest

from dealer.rules import classify, condition_of, make_rules, meld_value, parse_cards

CLASSIC = make_rules("classic")
CARDROOM = make_rules("cardroom")


def value(meld, rules=CLASSIC):
    return meld_value(parse_cards(meld), rules)


@pytest.mark.parametrize(
    ("meld", "classic", "cardroom"),
    [
        # The table in section 3, both profiles (three cards: the base value).
        ("5H 5H 5H", 2, 2),  # valle set, one suit
        ("5S 5S 5S", 4, 4),  # ... doubled in spades
        ("7D 7H 7C", 1, 1),  # valle set, mixed suits
        ("7D 7H 7S", 1, 1),  # mixed: never doubled, even with a spade
        ("JH JH JH", 1, 1),  # non-valle set, one suit
        ("KS KS KS", 2, 2),  # ... doubled in spades
        ("AS 2S 3S", 2, 2),  # run that holds the A, in spades
        ("AD 2D 3D", 1, 1),
        ("JH QH KH", 1, 1),  # run that holds the K
        # Not conditions.
        ("6H 6C 6S", 0, 0),  # mixed non-valle set
        ("AH AH AD", 0, 0),  # mixed A/K set
        ("KS KH KC", 0, 0),
        ("4C 5C 6C", 0, 0),  # run without A or K
        ("3S 4S 5S", 0, 0),  # no valle runs
        # The worked examples: 5S x4 is 8 or 6; 3H x4 is 4 or 3; AD 2D 3D 4D is 2 or 1.
        ("5S 5S 5S 5S", 8, 6),
        ("3H 3H 3H 3H", 4, 3),
        ("AD 2D 3D 4D", 2, 1),
        # More cards beyond three.
        ("5S 5S 5S 5S 5S", 12, 8),
        ("JS JS JS JS", 4, 4),
        ("JH JH JH JH JH", 3, 3),
        ("7D 7H 7C 7S", 2, 2),
        ("AS 2S 3S 4S 5S", 6, 2),
        ("6H 7H JH QH KH", 3, 1),
    ],
)
def test_values_under_both_profiles(meld, classic, cardroom):
    assert value(meld, CLASSIC) == classic
    assert value(meld, CARDROOM) == cardroom


def test_a_run_with_both_ace_and_king_is_one_condition():
    meld = parse_cards("AH 2H 3H 4H 5H 6H 7H JH QH KH")
    cond = condition_of(classify(meld), CLASSIC)
    assert cond is not None and cond.name == "run with the ace and king in hearts"
    assert value("AH 2H 3H 4H 5H 6H 7H JH QH KH", CARDROOM) == 1
    assert value("AH 2H 3H 4H 5H 6H 7H JH QH KH", CLASSIC) == 8


def test_spade_doubling_can_be_turned_off():
    plain = make_rules("classic", {"spades_double": False})
    assert value("5S 5S 5S", plain) == 2
    assert value("5S 5S 5S 5S", plain) == 4
    assert value("AS 2S 3S", plain) == 1
    unit = make_rules("cardroom", {"spades_double": False})
    assert value("5S 5S 5S 5S", unit) == 3


def test_mixed_valle_condition_knob():
    off = make_rules("classic", {"mixed_valle_condition": False})
    assert value("7D 7H 7C", off) == 0
    assert value("7D 7D 7D", off) == 2


def test_condition_names_read_aloud():
    def name(meld):
        cond = condition_of(classify(parse_cards(meld)), CLASSIC)
        return cond.name if cond else None

    assert name("5S 5S 5S") == "valle set in spades"
    assert name("7D 7H 7C") == "mixed valle set"
    assert name("KS KS KS") == "set of kings in spades"
    assert name("AD 2D 3D") == "run with the ace in diamonds"
    assert name("JH QH KH") == "run with the king in hearts"
    assert name("4C 5C 6C") is None
