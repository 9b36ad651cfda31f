"""What a document says the ledger checks covered: from which signed checkpoint, how many links."""

from __future__ import annotations

from dealer.words.catalogue import say, say_later, say_n, say_of


def checked_words(links: int, since: str | None, link: int = 0) -> str:
    """What the checks recomputed: the ``links`` after the signed checkpoint of ``since`` (its
    time, as the document writes times) at ``link``, or (``since`` None) every link."""
    if since is None:
        return say_n(
            "Checked from the start of the ledger: its {n} link was recomputed under the key.",
            "Checked from the start of the ledger: all {n} links were recomputed under the key.",
            links,
        )
    if not links:
        return say(
            "Checked from the signed checkpoint of {time} (link {link}): nothing was written "
            "after it; what is up to it is vouched for by that checkpoint's signature, its hash "
            "and its counts of rows.",
            time=since,
            link=link,
        )
    return say_n(
        "Checked from the signed checkpoint of {time} (link {link}): the {n} link written "
        "after it was recomputed under the key; those up to it are vouched for by that "
        "checkpoint's signature, its hash and its counts of rows.",
        "Checked from the signed checkpoint of {time} (link {link}): the {n} links written "
        "after it were recomputed under the key; those up to it are vouched for by that "
        "checkpoint's signature, its hash and its counts of rows.",
        links,
        time=since,
        link=link,
    )


def clean_words(link: int) -> str:
    """The checks found nothing: the ledger stands as written up to the checkpoint at ``link``
    that the document filed, checked."""
    return say("The ledger checked clean up to this report's checkpoint (link {link}).", link=link)


def failed_words(problems: int) -> str:
    """The title of the red banner over a document whose checks found ``problems``."""
    return say("{n} CHECK(S) FAILED: read these before signing this report", n=problems)


def failed_short() -> str:
    """What every page's header says of a document whose checks failed."""
    return say("CHECKS FAILED")


def failed_line() -> str:
    """The summary's line for checks that failed: the banner says what they found."""
    return say("FAILED: the red banner at the top says what the checks found.")


#: Each check of the ledger, named (the messages; said when asked for).
_CHECKS = {
    "accounts": say_later("Accounts"),
    "audit": say_later("The audit trail"),
    "balances": say_later("Balances"),
    "chain": say_later("The keyed chain"),
    "checkpoint": say_later("Checkpoints"),
    "disputes": say_later("Disputes and rulings"),
    "events": say_later("Events"),
    "hands_net_zero": say_later("Hands that net to zero"),
    "identity": say_later("People, tables, seats and assignments"),
    "prints": say_later("Printed documents"),
    "replay": say_later("Hands replayed"),
    "reversals": say_later("Reversals"),
    "sequence": say_later("Entry numbers"),
    "unkeyed": say_later("Rows outside the keyed chain"),
}


def check_words(check: str) -> str:
    """The ledger's check that found a problem, as a document names it (``The keyed chain``)."""
    return say_of(_CHECKS, check, say_later("Another check"))
