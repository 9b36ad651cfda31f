"""The rules in words: each payment rule's name and explanation and its place in the rules,
every knob and its value, the profiles, the house's collection, a condition's name, and the
engine's refusals.

Engine codes (``conditions_again``, ``spade_sets_removed``) never reach a person: they come
here and leave as words. The API and the CSV keep the codes for machines.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, get_args

from dealer import rules
from dealer.rules.actions import NOT_CLAIMED
from dealer.rules.cards import RANK_NAMES, RANKS, SUIT_NAMES
from dealer.rules.payments import PaymentRule
from dealer.words.cards import cards_words
from dealer.words.catalogue import number, say, say_later, say_n, say_of


@dataclass(frozen=True, slots=True)
class Rule:
    """A payment rule as a dealer says it, and where the rules say it."""

    code: str
    #: What it is called in a sentence: "seat 3 paid seat 1 2 chips for going out".
    name: str
    #: The rule, explained.
    words: str
    #: Its place in PAN_RULES.md: "5.4" is section 5, item 4.
    section: str

    @property
    def number(self) -> int:
        return int(self.section.split(".")[0])

    @property
    def item(self) -> int | None:
        _, _, item = self.section.partition(".")
        return int(item) if item else None


#: Each rule's name, explanation and section, in English (the catalogue's source).
_RULES: dict[str, tuple[str, str, str]] = {
    "collection": (
        say_later("house collection"),
        say_later(
            "The house's collection: a fixed fee per hand paid by each seat dealt in before the "
            "deal, or the time collection from each seated player."
        ),
        "6",
    ),
    "ante": (say_later("ante"), say_later("Each seat dealt in antes into the hand's pot."), "5.1"),
    "drop_forfeit": (
        say_later("drop forfeit"),
        say_later(
            "A seat that drops before the first meld pays the drop forfeit (the tops) into the pot."
        ),
        "5.2",
    ),
    "condition": (
        say_later("conditions"),
        say_later(
            "When a condition is laid or grows, every paying seat pays the rise of its value above "
            "its paid level, at once."
        ),
        "4",
    ),
    "going_out": (
        say_later("going out"),
        say_later("Each other paying seat pays the seat that goes out the going-out chips."),
        "5.4",
    ),
    "conditions_again": (
        say_later("conditions paid again"),
        say_later(
            "At going out, each paying seat pays the winner again what it paid the winner for "
            "conditions during the hand, net of anything returned."
        ),
        "5.4",
    ),
    "pot": (
        say_later("the pot"),
        say_later("The seat that goes out, or the last seat left in, takes the pot."),
        "5.4",
    ),
    "rake": (
        say_later("rake"),
        say_later(
            "The house takes a percent of the winner's collection, rounded down, at most the cap. "
            "Never allowed in California card rooms."
        ),
        "6",
    ),
    "foul_refund": (
        say_later("foul refund"),
        say_later(
            "A fouled seat pays back every condition chip it collected this hand, and keeps paying "
            "the others."
        ),
        "7",
    ),
    "penalty": (
        say_later("discard penalty"),
        say_later(
            "The seat that discarded the card the winner went out on pays each other losing seat, "
            "except the winner, its loss for the hand."
        ),
        "7",
    ),
    "void": (
        say_later("returned by a void"),
        say_later(
            "A voided event's payments are returned by new entries that point at the ones they "
            "reverse; nothing is deleted."
        ),
        "7",
    ),
    "void_hand": (
        say_later("returned when the hand was voided"),
        say_later(
            "A supervisor voids the whole hand: every entry of the hand is returned, antes and "
            "collections included."
        ),
        "7",
    ),
    "buy_in": (say_later("buy-in"), say_later("Chips bought at the table."), "6"),
    "cash_out": (say_later("cash-out"), say_later("Chips cashed out at the table."), "6"),
}

#: The rules a hand's payment is made under (the engine's codes), in the engine's order.
HAND_RULES: tuple[str, ...] = get_args(PaymentRule)
#: Every rule a ledger entry is made under: a hand's payments', and a seat's buy-in and cash-out.
LEDGER_RULES: tuple[str, ...] = tuple(_RULES)


def rule(code: str) -> Rule:
    """The rule ``code`` in words; a code the app does not know is named "another rule"."""
    found = _RULES.get(code)
    if found is None:
        return Rule(code, say("another rule"), "", "")
    name, words, section = found
    return Rule(code, say(name), say(words), section)


def rules_explained(codes: Sequence[str]) -> list[tuple[str, str]]:
    """Each rule in ``codes`` once, in the rules' order, as (name, its explanation and section).

    The hand slip's "every rule in words": what each payment's rule means, never its code.
    """
    known = set(codes)
    ordered = [c for c in _RULES if c in known] + sorted(known - set(_RULES))
    out = []
    for code in ordered:
        found = rule(code)
        where = say(" (rules, section {section})", section=found.section) if found.section else ""
        out.append((found.name, f"{found.words}{where}"))
    return out


# ------------------------------------------------------------------------------ knobs
#: Each knob's label, as the floor reads it (the engine's knobs, PAN_RULES.md section 8): the
#: messages, said when shown (a form declares them as its labels, `dealer.screens.forms`).
KNOB_NAMES = {
    "packs": say_later("Packs in the shoe"),
    "spade_sets_removed": say_later("Sets of spades taken out"),
    "hand_size": say_later("Cards dealt"),
    "tops_ante": say_later("Tops ante, chips"),
    "drop_forfeit": say_later("Drop forfeit (tops), chips"),
    "going_out_chips": say_later("Going out pays, chips"),
    "addition_pay": say_later("Cards beyond three pay"),
    "spades_double": say_later("Spades double"),
    "mixed_valle_condition": say_later("Mixed valle set is a condition"),
    "rearrange_needs_card": say_later("A split or borrow must play a card from hand"),
}
ADDITION_PAY_NAMES = {
    "value": say_later("their value again"),
    "unit": say_later("1 (2 in spades), sets only"),
}


def knob_words(knob: str) -> str:
    """A knob's label: ``Sets of spades taken out``."""
    return say_of(KNOB_NAMES, knob, say_later("Another setting"))


#: Codes the rules' text names besides knobs: refusals and an API field, in words.
_OTHER_CODES = {
    "shoe_exceeded": say_later("a refusal: the shoe has no more of that card"),
    "needs_card_from_hand": say_later("a refusal: a card from hand is needed"),
    "no_seat_can_go_out": say_later("a refusal: no seat can go out"),
    "chip_value_cents": say_later("the chip value, in cents"),
}
_CODE = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")


def code_words(text: str) -> str:
    """A code the rules' text quotes (``going_out_chips + C``), each code in words."""

    def said(found: re.Match[str]) -> str:
        code = found.group(0)
        if code in KNOB_NAMES:
            return knob_words(code)
        return say(_OTHER_CODES.get(code, code.replace("_", " ")))

    return _CODE.sub(said, text)


def knob_value_words(knob: str, value: Any) -> str:
    """A knob's value in words: ``yes``, ``their value again``, ``8``."""
    if isinstance(value, bool):
        return say("yes") if value else say("no")
    if knob == "addition_pay":
        return say(ADDITION_PAY_NAMES.get(str(value), str(value)))
    return number(value) if isinstance(value, int) else str(value)


def profile_words(profile: str, long: bool = False) -> str:
    """``Classic`` or ``Card room``; ``long``: with what sets it apart."""
    if profile == "classic":
        return say("Classic: 320 cards, drop pays 2, going out 1") if long else say("Classic")
    if profile == "cardroom":
        return say("Card room: 310 cards, 1-chip ante, going out 2") if long else say("Card room")
    return say("Another profile")


def game_words(played: rules.Rules) -> str:
    """The game as the floor calls it: ``Pan, 10 cards, 8 packs (320 cards)``, or Fifteen
    when 15 cards are dealt."""
    return say(
        "{game}, {size} cards, {packs} packs ({shoe} cards)",
        game=say("Fifteen") if played.hand_size == 15 else say("Pan"),
        size=played.hand_size,
        packs=played.packs,
        shoe=played.shoe_size,
    )


def collection_words(collection: rules.Collection) -> str:
    """The house's collection in words: ``per hand: 1 chip from each seat dealt in``."""
    chips = say_n("{n} chip", "{n} chips", collection.chips)
    if collection.kind == "per_hand":
        return say("per hand: {chips} from each seat dealt in", chips=chips)
    if collection.kind == "time":
        return say_n(
            "time: {chips} from each seated player every minute",
            "time: {chips} from each seated player every {n} minutes",
            collection.minutes,
            chips=chips,
        )
    if collection.kind == "rake_percent":
        # The percentage is a field: a "%" beside the words would make Babel read the message as
        # a %-format ("% o" a conversion) and refuse a translation's "% de".
        return say(
            "rake: {percent} of the winner's collection, at most {cap}",
            percent=say("{n}%", n=collection.percent),
            cap=say_n("{n} chip", "{n} chips", collection.cap),
        )
    return say("none")


def rules_in_force(
    played: rules.Rules, collection: rules.Collection | None = None
) -> list[tuple[str, str]]:
    """The profile, every knob and the collection, as (label, value) in words."""
    out = [(say("Rule profile"), profile_words(played.profile))]
    out.extend((knob_words(k), knob_value_words(k, v)) for k, v in played.knobs().items())
    if collection is not None:
        out.append((say("House collection"), collection_words(collection)))
    return out


# ------------------------------------------------------------------------- conditions


def condition_words(cards: Sequence[rules.Card], played: rules.Rules) -> str | None:
    """The condition a meld of ``cards`` meets, in words (``valle set in spades``), or None."""
    try:
        shape = rules.classify(cards)
    except rules.RulesError:
        return None
    found = rules.condition_of(shape, played)
    if found is None:
        return None
    suit = say(SUIT_NAMES[next(iter(shape.suits))]) if shape.one_suit else ""
    if found.code == "valle_set":
        return say("valle set in {suit}", suit=suit) if suit else say("valle set")
    if found.code == "one_suit_set":
        rank = say(RANK_NAMES[RANKS[shape.rank]])
        return say("set of {rank} in {suit}", rank=rank, suit=suit)
    if found.code == "mixed_valle_set":
        return say("mixed valle set")
    has_ace, has_king = shape.rank == 0, shape.high == len(RANKS) - 1
    if has_ace and has_king:
        return say("run with the ace and king in {suit}", suit=suit)
    if has_ace:
        return say("run with the ace in {suit}", suit=suit)
    return say("run with the king in {suit}", suit=suit)


def meld_words(cards: Sequence[rules.Card]) -> str:
    """A meld named by its cards, in the canonical order: ``5♠ 5♠ 5♠``."""
    return cards_words(sorted(cards))


#: What the engine writes of an event (`rules.actions`' ``describe``), read back: the
#: sentence the history says of that event, its meld named by its number.
_CARDS = r"[A2-7JQK][CDHS](?: [A2-7JQK][CDHS])*"
_EVENTS = {
    rf"seat (?P<seat>\d+) melds (?P<cards>{_CARDS})": say_later("seat {seat} melds {cards}"),
    rf"seat (?P<seat>\d+) adds (?P<cards>{_CARDS}) to meld (?P<meld>\d+)": say_later(
        "seat {seat} adds {cards} to {meld}"
    ),
    rf"seat (?P<seat>\d+) borrows (?P<took>{_CARDS}) from meld (?P<meld>\d+) for "
    rf"(?P<new>{_CARDS})": say_later("seat {seat} borrows {took} from {meld} for {new}"),
    rf"seat (?P<seat>\d+) splits meld (?P<meld>\d+) into (?P<first>{_CARDS}) and "
    rf"(?P<second>{_CARDS})": say_later("seat {seat} splits {meld} into {parts}"),
    r"seat (?P<seat>\d+) goes out": say_later("seat {seat} goes out"),
    r"seat (?P<seat>\d+) drops": say_later("seat {seat} drops"),
    r"seat (?P<seat>\d+) fouls": say_later("seat {seat} fouls"),
    r"discard penalty on seat (?P<seat>\d+)": say_later("discard penalty on seat {seat}"),
}
_NOT_CLAIMED = f" ({NOT_CLAIMED})"


def event_text_words(text: str) -> str:
    """An event's words as the engine wrote them (a void's reason, a refusal's field), said as
    the history says them; words no template fits are given back as they are."""
    base = text.removesuffix(_NOT_CLAIMED)
    for pattern, template in _EVENTS.items():
        if found := re.fullmatch(pattern, base):
            fields = found.groupdict()
            if "meld" in fields:
                fields["meld"] = say("meld {number}", number=fields["meld"])
            if "first" in fields:
                parts = {"first": fields.pop("first"), "second": fields.pop("second")}
                fields["parts"] = say("{first} and {second}", **parts)
            said = say(template, **fields)
            return said + (" " + say("(not claimed: nothing paid)") if base != text else "")
    return text


def refusal_words(error: rules.RulesError) -> str:
    """The engine's refusal in the catalogue's language: its template said with its fields, a
    field in words (a `rules.Phrase`: why cards are not a meld, a rank's name) said too."""
    fields = {k: say(v) if isinstance(v, rules.Phrase) else v for k, v in error.fields.items()}
    if isinstance(text := fields.get("text"), str):  # an event's words, as the engine wrote them
        fields["text"] = event_text_words(text)
    return say(error.template, **fields)
