"""What a person is told of a value they typed or sent: the one sentence of each refusal of an
input, the same from the JSON API and from a screen's form (`dealer.inputs` declares which
field says which).

A sentence names the field in the dealer's words ("the buy-in"), never by its code: the form
shows it beside the field, the API answers it with its code.
"""

from __future__ import annotations

from functools import partial

from dealer.words.catalogue import say, say_later

#: What a name or reason holding a control character or a bidi override is told.
PLAIN_TEXT = say_later("Use letters, digits and punctuation only.")


def _noun(what: str) -> str:
    """What a refusal names (``buy-in``, a `say_later` message), said; nothing said of nothing
    (gettext's empty message is its catalogue's header)."""
    return say(what) if what else what


def enter(what: str) -> str:
    """Nothing given where something must be: ``Enter the buy-in.``"""
    return say("Enter the {what}.", what=_noun(what))


def not_whole(what: str) -> str:
    return say("The {what} must be a whole number.", what=_noun(what))


def out_of_bounds(what: str, low: int, high: int) -> str:
    return say("The {what} must be from {low} to {high}.", what=_noun(what), low=low, high=high)


def not_text(what: str) -> str:
    return say("The {what} must be given as text.", what=_noun(what))


def too_long(what: str, longest: int) -> str:
    return say(
        "The {what} is too long: at most {longest} characters.", what=_noun(what), longest=longest
    )


def not_plain(what: str) -> str:
    return say("The {what}: {plain}", what=_noun(what), plain=say(PLAIN_TEXT))


#: A name refused beside one it reads as (`dealer.bounds.skeleton`), by what it names: the
#: same name, then a look-alike (Sam with a Cyrillic a, "Sarn", "Mae  Lee").
_TAKEN = {
    "user": (
        say_later("There is already a user called {existing}."),
        say_later("“{typed}” looks like the existing user {existing}: choose another name."),
    ),
    "table": (
        say_later("There is already a table called {existing}."),
        say_later("“{typed}” looks like the existing table {existing}: choose another name."),
    ),
    "tablet": (
        say_later("A tablet in use is already called {existing}."),
        say_later("“{typed}” looks like the tablet in use {existing}: choose another name."),
    ),
}


def name_taken(kind: str, typed: str, existing: str) -> str:
    """A ``kind`` of name (``user``, ``table``, ``tablet``) that reads as ``existing``."""
    same, alike = _TAKEN[kind]
    return say(same if typed.strip() == existing else alike, typed=typed, existing=existing)


def enter_yours(what: str) -> str:
    """Nothing given on one's own behalf: ``Enter your PIN.``"""
    return say("Enter your {what}.", what=_noun(what))


def pin_digits(low: int, high: int) -> str:
    """A PIN typed that no PIN can be (any PIN: one's own, a new one, a supervisor's)."""
    return say("A PIN is {low} to {high} digits.", low=low, high=high)


def choose_profile(one: str, other: str) -> str:
    return say("Choose the table's rule profile: {one} or {other}.", one=one, other=other)


def wrong_type(what: str) -> str:
    return say("The {what} has the wrong type.", what=_noun(what))


def choose(what: str, choices: str) -> str:
    """One of a few choices: ``Say whether chips come in or go out: buy_in or cash_out.``"""
    return say("Choose the {what}: {choices}.", what=_noun(what), choices=choices)


# The refusals with nothing to fill in: each said when it is told, in the language of that moment.
SUPERVISOR_SHAPE = say_later("The supervisor must be given as their name and PIN.")
supervisor_shape = partial(say, SUPERVISOR_SHAPE)
pins_differ = partial(say, say_later("The two PINs differ."))
raiser = partial(say, say_later("Say who raises the dispute: a seat or the dealer."))
outcome = partial(say, say_later("Rule the claim upheld or denied."))
drops_not_seats = partial(say, say_later("The seats that drop must be seat numbers."))
drops_twice = partial(say, say_later("Each seat can drop only once."))
card_to_fit = partial(say, say_later("Give the card to check, such as 5S."))
chip_move = partial(say, say_later("Say whether chips are bought in or cashed out."))
