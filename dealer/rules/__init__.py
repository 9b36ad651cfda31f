"""The Pan rules engine: pure Python, standard library only.

Everything PAN_RULES.md says the app must apply lives here: card notation, the
shoe, meld validity, conditions and their values, and a hand as a state machine
whose every event yields its payments. Nothing here reaches out: no Flask, no
database, no clock.
"""

from .actions import (
    ACTION_TYPES,
    CLAIMABLE_TYPES,
    NOT_CLAIMED,
    Action,
    Add,
    Borrow,
    Drop,
    Foul,
    GoOut,
    Meld,
    Penalty,
    Split,
    Void,
    VoidHand,
    action_from_dict,
    action_to_dict,
)
from .cards import (
    ALL_CARDS,
    CARD_PATTERN,
    RANKS,
    SUITS,
    VALLE_RANKS,
    Card,
    format_cards,
    parse_card,
    parse_cards,
)
from .errors import (
    IllegalActionError,
    IllegalMeldError,
    InvalidActionError,
    InvalidCardError,
    InvalidRulesError,
    NotAllowedNowError,
    RulesError,
    ShoeExceededError,
)
from .hand import Hand, time_collection
from .melds import (
    Condition,
    MeldShape,
    check_growth,
    classify,
    condition_of,
    is_valid_meld,
    meld_value,
)
from .payments import HOUSE, POT, Party, Payment, party_name, total_by_party
from .profiles import (
    COLLECTION_FIELDS,
    KNOB_BOUNDS,
    PROFILES,
    Collection,
    Rules,
    make_collection,
    make_rules,
)
from .records import EventRecord, Fit, SeatStatus
from .state import HandStatus
from .table import TableMeld, lay

__all__ = [
    "ACTION_TYPES",
    "ALL_CARDS",
    "CARD_PATTERN",
    "CLAIMABLE_TYPES",
    "COLLECTION_FIELDS",
    "HOUSE",
    "KNOB_BOUNDS",
    "NOT_CLAIMED",
    "POT",
    "PROFILES",
    "RANKS",
    "SUITS",
    "VALLE_RANKS",
    "Action",
    "Add",
    "Borrow",
    "Card",
    "Collection",
    "Condition",
    "Drop",
    "EventRecord",
    "Fit",
    "Foul",
    "GoOut",
    "Hand",
    "HandStatus",
    "IllegalActionError",
    "IllegalMeldError",
    "InvalidActionError",
    "InvalidCardError",
    "InvalidRulesError",
    "Meld",
    "MeldShape",
    "NotAllowedNowError",
    "Party",
    "Payment",
    "Penalty",
    "Rules",
    "RulesError",
    "SeatStatus",
    "ShoeExceededError",
    "Split",
    "TableMeld",
    "Void",
    "VoidHand",
    "action_from_dict",
    "action_to_dict",
    "check_growth",
    "classify",
    "condition_of",
    "format_cards",
    "is_valid_meld",
    "lay",
    "make_collection",
    "make_rules",
    "meld_value",
    "parse_card",
    "parse_cards",
    "party_name",
    "time_collection",
    "total_by_party",
]
