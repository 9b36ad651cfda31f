"""PAN_RULES.md sections 1, 6 and 8: profiles, knobs, the shoe and collection models."""

import pytest

from dealer.rules import PROFILES, InvalidRulesError, make_collection, make_rules, profiles


def test_the_two_profiles_are_as_the_table_says():
    classic, cardroom = PROFILES["classic"], PROFILES["cardroom"]
    assert classic.knobs() == {
        "packs": 8,
        "spade_sets_removed": 0,
        "hand_size": 10,
        "tops_ante": 0,
        "drop_forfeit": 2,
        "going_out_chips": 1,
        "addition_pay": "value",
        "spades_double": True,
        "mixed_valle_condition": True,
        "rearrange_needs_card": False,
    }
    assert cardroom.knobs() == {
        "packs": 8,
        "spade_sets_removed": 1,
        "hand_size": 10,
        "tops_ante": 1,
        "drop_forfeit": 0,
        "going_out_chips": 2,
        "addition_pay": "unit",
        "spades_double": True,
        "mixed_valle_condition": True,
        "rearrange_needs_card": True,
    }


def test_every_knob_has_exactly_one_kind():
    """Each knob is checked as a number in bounds, one of a few choices, or a switch."""
    kinds = [set(profiles._INT_BOUNDS), set(profiles._CHOICES), set(profiles._BOOLS)]
    assert set.union(*kinds) == set(profiles.KNOBS)
    assert sum(len(k) for k in kinds) == len(profiles.KNOBS)


@pytest.mark.parametrize("profile", ["classic", "cardroom"])
@pytest.mark.parametrize("value", [True, False])
def test_rearrange_needs_card_is_a_switch_either_profile_may_override(profile, value):
    assert make_rules(profile, {"rearrange_needs_card": value}).rearrange_needs_card is value


def test_shoe_sizes():
    assert make_rules("classic").shoe_size == 320
    assert make_rules("cardroom").shoe_size == 310
    assert make_rules("classic", {"packs": 5}).shoe_size == 200
    cardroom = make_rules("cardroom")
    assert cardroom.copies("S") == 7 and cardroom.copies("H") == 8


@pytest.mark.parametrize(
    "overrides",
    [
        {"going_out_chips": 2},
        {"packs": 5},
        {"packs": 6},
        {"packs": 11},
        {"spade_sets_removed": 1},
        {"hand_size": 15},
    ],
)
def test_seed_000_variants_are_overrides(overrides):
    rules = make_rules("classic", overrides)
    for knob, value in overrides.items():
        assert getattr(rules, knob) == value
    assert rules.profile == "classic"


def test_fifteen_needs_sixteen_down():
    assert make_rules("classic", {"hand_size": 15}).cards_to_go_out == 16


@pytest.mark.parametrize(
    ("profile", "overrides", "code"),
    [
        ("poker", None, "unknown_profile"),
        ("classic", {"jokers": 2}, "unknown_knob"),
        ("classic", {"packs": 0}, "invalid_rules"),
        ("classic", {"packs": "8"}, "invalid_rules"),
        ("classic", {"packs": True}, "invalid_rules"),
        ("classic", {"addition_pay": "double"}, "invalid_rules"),
        ("classic", {"spades_double": "yes"}, "invalid_rules"),
        ("cardroom", {"rearrange_needs_card": 0}, "invalid_rules"),
        ("classic", {"rearrange_needs_card": "false"}, "invalid_rules"),
        ("classic", {"spade_sets_removed": 8}, "invalid_rules"),
        ("classic", {"hand_size": 2}, "invalid_rules"),
    ],
)
def test_bad_profiles_and_knobs_are_refused(profile, overrides, code):
    with pytest.raises(InvalidRulesError) as caught:
        make_rules(profile, overrides)
    assert caught.value.code == code


def test_collection_models():
    assert make_collection(None).kind == "none"
    assert make_collection({"kind": "per_hand", "chips": 1}).as_dict() == {
        "kind": "per_hand",
        "chips": 1,
    }
    assert make_collection({"kind": "time", "chips": 5, "minutes": 30}).minutes == 30
    rake = make_collection({"kind": "rake_percent", "percent": 10, "cap": 3})
    assert rake.banned_in_california
    assert not make_collection({"kind": "per_hand", "chips": 1}).banned_in_california
    assert rake.rake(19) == 1  # 10 % rounded down
    assert rake.rake(29) == 2
    assert rake.rake(500) == 3  # capped


@pytest.mark.parametrize(
    "spec",
    [
        {"kind": "percent"},
        {"kind": "per_hand"},
        {"kind": "per_hand", "chips": 0},
        {"kind": "time", "chips": 2},
        {"kind": "rake_percent", "percent": 10},
        {"kind": "per_hand", "chips": 1, "minutes": 3},
        "per_hand",
    ],
)
def test_bad_collections_are_refused(spec):
    with pytest.raises(InvalidRulesError):
        make_collection(spec)
