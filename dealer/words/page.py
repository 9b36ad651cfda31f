"""What the page's script says to a person: handed over by the page (base.html, a JSON block
beside the cards), so static/dealer.js words nothing of its own.

``{name}`` in a sentence is filled in by the script (a seat, a count, a name it knows only
there).
"""

from __future__ import annotations

from dealer.words.catalogue import say

__all__ = ["script_words"]


def script_words() -> dict[str, str]:
    """Every sentence static/dealer.js may show, by the name the script asks for it."""
    return {
        **_seat_and_keys(),
        **_kept(),
        **_queue(),
        **_sent(),
        **_documents(),
        **_players(),
    }


def _seat_and_keys() -> dict[str, str]:
    """The acting seat and the keys."""
    return {
        "seat": say("Seat {seat}"),
        "tap_seat": say("Tap the seat that acts"),
        "meld_cards": say("meld {cards}"),
        "again": say("Again"),
        "one_card": say("{n} card"),
        "cards": say("{n} cards"),
        "choose_seat_esc": say("Choose the seat that acts first: Esc, then its number (1-8)."),
        "choose_meld_esc": say("Choose the meld first: Esc, then L until it is the one."),
        "not_allowed": say("The rules do not allow that for this seat now."),
        "action_not_allowed": say("The rules do not allow {action} for this seat now."),
        "no_meld_yet": say("This seat has no meld yet."),
        "choose_seat_first": say("Choose the seat first (1-8)."),
        "choose_seat_acts": say("Choose the seat that acts first (1-8)."),
    }


def _kept() -> dict[str, str]:
    """Entries kept on the tablet, offered back after a sign-in."""
    return {
        "kept_by": say("Kept on this tablet when {who} was {why}, not yet recorded: {what}."),
        "kept_mine": say("Kept on this tablet when you were {why}, not yet recorded: {what}."),
        "an_entry": say("an entry"),
        "why_sending": say("sending"),
        "why_not_recorded": say("not recorded"),
        "why_signed_out": say("signed out"),
        "why_not_sent": say("not sent"),
        "why_idle": say("signed out after idle time"),
        "put_back": say("Put it back"),
        "discard": say("Discard it"),
    }


def _queue() -> dict[str, str]:
    """The queue while the connection is down, and an entry of the hand in the dealer's words."""
    return {
        "queue_sending_one": say("Pending: sending {n} entry in order."),
        "queue_sending": say("Pending: sending {n} entries in order."),
        "queue_offline": say(
            "No connection: kept on this tablet, pending, sent in order when it is back. "
            "Nothing is paid until the server answers."
        ),
        "pending": say("Pending: {what}"),
        "refused": say("Refused: {what}"),
        "entries_wait": say("The entries after it wait."),
        "fix_it": say("Fix it"),
        "drop_it": say("Drop it"),
        "record_as_mine": say("Record as mine what {who} typed"),
        "someone_else": say("someone else"),
        "send_now": say("Send now"),
        # an entry of the hand in the dealer's words, from what the page last showed
        "entry_words": say("Seat {seat} ({player}): {action} {cards}"),
    }


def _sent() -> dict[str, str]:
    """What became of each entry sent when the connection came back, and sending a form."""
    return {
        "fates_head": say("Sent when the connection came back:"),
        "fate_recorded": say("Recorded: {what}"),
        "fates_done": say("Seen"),
        "not_recorded": say("Not recorded."),
        # sending a form
        "sending": say("Sending…"),
        "resend": say("Resend"),
        "cannot_write": say(
            "Not recorded: the database cannot write. Your entry is kept: tap Resend when the "
            "floor says it is back. It will not be recorded twice."
        ),
        "server_error": say(
            "The server could not answer (error {status}). Your entry is kept: tap Resend. "
            "It will not be recorded twice."
        ),
        "connection_dropped": say(
            "Not sent: the connection dropped, so the server may not have it. Your entry is "
            "kept: tap Resend when the connection is back. It will not be recorded twice."
        ),
        "fits_offline": say("No connection: could not check. Try again."),
    }


def _documents() -> dict[str, str]:
    """Documents built in the background."""
    return {
        "download": say("Download"),
        "downloaded": say("Downloaded."),
        "not_printed": say("Not printed."),
        "build_no_answer": say("The server did not answer: tap Print again to follow the build."),
        "asking_document": say("Asking for the document…"),
        "nothing_printed": say("The server did not answer: nothing was printed. Tap Print again."),
    }


def _players() -> dict[str, str]:
    """Players found as a name is typed."""
    return {
        "player_card": say("{name} (card {card})"),
        "player_numbered": say("{name} (player {id})"),
        "player_chosen": say("Player chosen: {player}"),
        "add_player": say("Add {name} as a new player"),
        "new_player": say("A new player: {name}"),
        "type_a_name": say("Type a name: players already known are offered."),
    }
