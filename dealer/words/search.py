"""The words a search in words is read by (`dealer.disputes.asking`): each part's keyword, the
word after an amount, the words read past and the numbers said in words.

Each is a message that lists its spellings apart with spaces ("around at"), so a language adds
its own ("hacia cerca") and English's are understood in every language.
"""

from __future__ import annotations

from dataclasses import dataclass

from dealer.words.catalogue import say_in


def spelled(context: str, message: str, /) -> tuple[list[str], list[str]]:
    """The spellings ``message`` lists: English's, and the reader's language's."""
    return message.split(), say_in(context, message).split()


def _either(spellings: tuple[list[str], list[str]]) -> list[str]:
    english, said = spellings
    return english + said


@dataclass(frozen=True, slots=True)
class SearchWords:
    #: Each part's keywords ("player", "seat", "table", "around", "amount"): English's, and
    #: the reader's language's.
    keys: dict[str, tuple[list[str], list[str]]]
    #: What may follow an amount ("16 chips").
    chips: list[str]
    #: Words a player says around what matters ("I got 16 chips for my set"): read past.
    filler: list[str]
    #: Numbers a player may say in words, from zero on in each language (a number's other
    #: spellings after a slash: "uno/un").
    numbers: dict[str, int]


def search_words() -> SearchWords:
    """The words of a search in words, in English and in the reader's language."""
    keys = {
        "player": spelled("a search's keywords for a player's name", "player"),
        "seat": spelled("a search's keywords for a seat", "seat"),
        "table": spelled("a search's keywords for a table", "table"),
        "around": spelled("a search's keywords for about a time", "around at"),
        "amount": spelled("a search's keywords for an amount of chips", "amount"),
    }
    filler = spelled(
        "a search's words read past, apart with spaces",
        "i im i'm am me my mine she he her his they them we us you it its that this there was "
        "were is are be been have has had got get gets paid pay pays received won lost for the "
        "a an of on in to from by and with hand chips chip said says only should set sets fives "
        "threes sevens run runs meld melds condition conditions going went out please",
    )
    counted = spelled(
        "a search's numbers in words, from zero, apart with spaces",
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
        "fifteen sixteen seventeen eighteen nineteen twenty",
    )
    return SearchWords(
        keys=keys,
        chips=_either(spelled("a search's words after an amount", "chips chip")),
        filler=_either(filler),
        numbers={
            spelling: n
            for words in counted
            for n, word in enumerate(words)
            for spelling in word.split("/")
        },
    )
