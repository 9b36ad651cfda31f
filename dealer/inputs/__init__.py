"""Every input of the front doors, declared once: bodies, query parameters and headers.

Each field is declared with the bounds of `dealer.bounds` (the engine's own for knobs,
collections and cards) and with its words (`words.Words`): the judge that says, in the
dealer's words, what is wrong with a value. The JSON API validates requests against these
declarations and its OpenAPI document is made from them (spectree, `dealer.web.contract`);
the screens' forms read the same bounds. Neutral: no front door is imported here.
"""

from dealer.inputs.bodies import (
    ChipMove,
    CloseSession,
    Fit,
    Leave,
    NewAssignment,
    NewDispute,
    NewHand,
    NewPlayer,
    NewSeat,
    NewTable,
    NewUser,
    Nothing,
    Ruling,
    SeatPause,
    SignIn,
    Supervisor,
    TableSettings,
    TakeCollection,
)
from dealer.inputs.counts import CountSettings, SessionCount
from dealer.inputs.events import EVENTS, NewEvent
from dealer.inputs.params import (
    KEY_WORDS,
    DisputeFilter,
    HandsPage,
    LedgerPage,
    PaymentSearch,
    PlayerSearch,
    ReplayAt,
    SeatSearch,
    ShiftHandsPage,
    ShiftWindow,
    SlipPaper,
    Window,
    WriteHeaders,
    read_window,
)
from dealer.inputs.profiles import Collection, Knobs, KnobsGiven, Ruled
from dealer.inputs.words import Words, judge, refusal, refusals, refuse_unknown

__all__ = [
    "EVENTS",
    "KEY_WORDS",
    "ChipMove",
    "CloseSession",
    "Collection",
    "CountSettings",
    "DisputeFilter",
    "Fit",
    "HandsPage",
    "Knobs",
    "KnobsGiven",
    "Leave",
    "LedgerPage",
    "NewAssignment",
    "NewDispute",
    "NewEvent",
    "NewHand",
    "NewPlayer",
    "NewSeat",
    "NewTable",
    "NewUser",
    "Nothing",
    "PaymentSearch",
    "PlayerSearch",
    "ReplayAt",
    "Ruled",
    "Ruling",
    "SeatPause",
    "SeatSearch",
    "SessionCount",
    "ShiftHandsPage",
    "ShiftWindow",
    "SignIn",
    "SlipPaper",
    "Supervisor",
    "TableSettings",
    "TakeCollection",
    "Window",
    "Words",
    "WriteHeaders",
    "judge",
    "read_window",
    "refusal",
    "refusals",
    "refuse_unknown",
]
