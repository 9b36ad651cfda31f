"""Each event of a hand in one sentence: "Seat 1 adds 6♥ to 6♥ 6♥ 6♥".

The sentence is made from the engine's record of the event (its action, and the melds it
changed as they stood just before: ``Hand.undo_notes``), never from the engine's own text,
which names melds by number and cards by letter and is kept only as what was stored and
chained. It is the one sentence every door shows for the event: the API's ``text``, the
history, the banner, the statement, the hand slip.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from dealer import rules
from dealer.rules.table import TableMeld
from dealer.words.cards import cards_words
from dealer.words.catalogue import say, say_later, say_of
from dealer.words.numbers import capital, seats_words

#: Each event's type, named (the messages; said when asked for).
_ACTIONS = {
    "deal": say_later("deal"),
    "drop": say_later("drop"),
    "meld": say_later("meld"),
    "add": say_later("add"),
    "borrow": say_later("borrow"),
    "split": say_later("split"),
    "go_out": say_later("going out"),
    "foul": say_later("foul"),
    "penalty": say_later("penalty"),
    "void": say_later("void"),
    "void_hand": say_later("void hand"),
}


def action_words(kind: str) -> str:
    """An event's type (`dealer.rules.ACTION_TYPES`) as a name: ``meld``, ``going out``."""
    return say_of(_ACTIONS, kind, say_later("another event"))


def _meld(cards: Sequence[rules.Card]) -> str:
    return cards_words(sorted(cards))


def _before(engine: rules.Hand, record: rules.EventRecord, meld: int) -> str:
    """Meld ``meld`` as it stood just before ``record``: named by its cards."""
    undo = engine.undo_notes.get(record.seq)
    was: TableMeld | None = undo.before.get(meld) if undo is not None else None
    if was is None:
        return say("a meld")
    return _meld(was.cards)


def _not_claimed(action: object) -> str:
    if getattr(action, "claimed", True) is False:
        return " " + say("(not claimed: nothing paid)")
    return ""


def _seat_sentence(engine: rules.Hand, record: rules.EventRecord) -> str:
    action = record.action
    seat = getattr(action, "seat", None)
    if isinstance(action, rules.Meld):
        return say("seat {seat} melds {cards}", seat=seat, cards=_meld(action.cards))
    if isinstance(action, rules.Add):
        return say(
            "seat {seat} adds {cards} to {meld}",
            seat=seat,
            cards=_meld(action.cards),
            meld=_before(engine, record, action.meld),
        )
    if isinstance(action, rules.Borrow):
        took, meld = _meld(action.take), _before(engine, record, action.meld)
        new = _meld((*action.take, *action.cards))
        return say(
            "seat {seat} borrows {took} from {meld} for {new}",
            seat=seat,
            took=took,
            meld=meld,
            new=new,
        )
    if isinstance(action, rules.Split):
        meld = _before(engine, record, action.meld)
        parts = say(
            "{first} and {second}", first=_meld(action.into[0]), second=_meld(action.into[1])
        )
        if action.cards:
            return say(
                "seat {seat} adds {cards} to {meld} and splits it into {parts}",
                seat=seat,
                cards=_meld(action.cards),
                meld=meld,
                parts=parts,
            )
        return say("seat {seat} splits {meld} into {parts}", seat=seat, meld=meld, parts=parts)
    if isinstance(action, rules.GoOut):
        return say("seat {seat} goes out", seat=seat)
    if isinstance(action, rules.Drop):
        return say("seat {seat} drops", seat=seat)
    if isinstance(action, rules.Foul):
        return say("seat {seat} fouls", seat=seat)
    if isinstance(action, rules.Penalty):
        return say("seat {seat} pays the discard penalty", seat=seat)
    return say("an event the app cannot name")


def event_sentence(
    engine: rules.Hand, record: rules.EventRecord, said: Mapping[int, str] | None = None
) -> str:
    """The one sentence for ``record``, an event of ``engine``'s hand (already applied).

    ``said``: the sentences of the events before it, by seq, for a void to name what it
    voids (made here again when not given).
    """
    action = record.action
    if action is None:
        return capital(say("dealt to {seats}", seats=seats_words(list(engine.seats))))
    if isinstance(action, rules.Void):
        target = engine.events[action.event - 1]
        told = (said or {}).get(target.seq) or event_sentence(engine, target, said)
        return say(
            "Void of #{seq} ({what}): {reason}", seq=target.seq, what=told, reason=action.reason
        )
    if isinstance(action, rules.VoidHand):
        return say("The hand is void: {reason}", reason=action.reason)
    return capital(_seat_sentence(engine, record)) + _not_claimed(action)


def event_sentences(engine: rules.Hand) -> list[str]:
    """Every event's sentence, oldest first."""
    said: dict[int, str] = {}
    for record in engine.events:
        said[record.seq] = event_sentence(engine, record, said)
    return [said[r.seq] for r in engine.events]
