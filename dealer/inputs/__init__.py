"""Every input of the front doors, declared once: bodies, query parameters and headers.

Each field is declared with the bounds of `dealer.bounds` (the engine's own for knobs,
collections and cards) and with its words (`words.Words`): the judge that says, in the
dealer's words, what is wrong with a value. The JSON API validates requests against these
declarations and its OpenAPI document is made from them (spectree, `dealer.web.contract`);
the screens' forms read the same bounds. Neutral: no front door is imported here.
"""

from dealer.inputs import bodies, counts, disputes, events, params, profiles, stays, windows, words
from dealer.inputs.bodies import *  # noqa: F403
from dealer.inputs.counts import *  # noqa: F403
from dealer.inputs.disputes import *  # noqa: F403
from dealer.inputs.events import *  # noqa: F403
from dealer.inputs.params import *  # noqa: F403
from dealer.inputs.profiles import *  # noqa: F403
from dealer.inputs.stays import *  # noqa: F403
from dealer.inputs.windows import *  # noqa: F403
from dealer.inputs.words import *  # noqa: F403

#: What each module declares public, the package declares public: one list to keep.
__all__ = [
    *bodies.__all__,
    *counts.__all__,
    *disputes.__all__,
    *events.__all__,
    *params.__all__,
    *profiles.__all__,
    *stays.__all__,
    *windows.__all__,
    *words.__all__,
]
