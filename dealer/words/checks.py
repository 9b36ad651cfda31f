"""What a document says the ledger checks covered: from which signed checkpoint, how many links."""

from __future__ import annotations

from dealer.words.catalogue import say_n

__all__ = ["checked_words"]


def checked_words(links: int, since: str | None, link: int = 0) -> str:
    """What the checks recomputed: the ``links`` after the signed checkpoint of ``since`` (its
    time, as the document writes times) at ``link``, or (``since`` None) every link."""
    if since is None:
        return say_n(
            "Checked from the start of the ledger: its {n} link was recomputed under the key.",
            "Checked from the start of the ledger: all {n} links were recomputed under the key.",
            links,
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
