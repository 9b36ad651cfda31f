"""What the page's script says to a person: handed over by the page (base.html, a JSON block
beside the cards), so static/dealer.js words nothing of its own.

``{name}`` in a sentence is filled in by the script (a seat, a count, a name it knows only
there).
"""

from __future__ import annotations

from dealer.words.catalogue import say, say_later

#: Every sentence static/dealer.js may show, by the name the script asks for it.
_SENTENCES = {
    # the acting seat and the keys
    "seat": say_later("Seat {seat}"),
    "tap_seat": say_later("Tap the seat that acts"),
    "meld_cards": say_later("meld {cards}"),
    "again": say_later("Again"),
    "one_card": say_later("{n} card"),
    "cards": say_later("{n} cards"),
    "choose_seat_esc": say_later("Choose the seat that acts first: Esc, then its number (1-8)."),
    "choose_meld_esc": say_later("Choose the meld first: Esc, then L until it is the one."),
    "not_allowed": say_later("The rules do not allow that for this seat now."),
    "action_not_allowed": say_later("The rules do not allow {action} for this seat now."),
    "no_meld_yet": say_later("This seat has no meld yet."),
    "choose_seat_first": say_later("Choose the seat first (1-8)."),
    "choose_seat_acts": say_later("Choose the seat that acts first (1-8)."),
    # entries kept on the tablet, offered back after a sign-in
    "kept_by": say_later("Kept on this tablet when {who} was {why}, not yet recorded: {what}."),
    "kept_mine": say_later("Kept on this tablet when you were {why}, not yet recorded: {what}."),
    "an_entry": say_later("an entry"),
    "why_sending": say_later("sending"),
    "why_not_recorded": say_later("not recorded"),
    "why_signed_out": say_later("signed out"),
    "why_not_sent": say_later("not sent"),
    "why_idle": say_later("signed out after idle time"),
    "put_back": say_later("Put it back"),
    "discard": say_later("Discard it"),
    # the queue while the connection is down
    "queue_sending_one": say_later("Pending: sending {n} entry in order."),
    "queue_sending": say_later("Pending: sending {n} entries in order."),
    "queue_offline": say_later(
        "No connection: kept on this tablet, pending, sent in order when it is back. "
        "Nothing is paid until the server answers."
    ),
    "pending": say_later("Pending: {what}"),
    "refused": say_later("Refused: {what}"),
    "entries_wait": say_later("The entries after it wait."),
    "fix_it": say_later("Fix it"),
    "drop_it": say_later("Drop it"),
    "record_as_mine": say_later("Record as mine what {who} typed"),
    "someone_else": say_later("someone else"),
    "send_now": say_later("Send now"),
    # an entry of the hand in the dealer's words, from what the page last showed
    "entry_words": say_later("Seat {seat} ({player}): {action} {cards}"),
    # what became of each entry sent when the connection came back
    "fates_head": say_later("Sent when the connection came back:"),
    "fate_recorded": say_later("Recorded: {what}"),
    "fates_done": say_later("Seen"),
    "not_recorded": say_later("Not recorded."),
    # sending a form
    "sending": say_later("Sending…"),
    "resend": say_later("Resend"),
    "cannot_write": say_later(
        "Not recorded: the database cannot write. Your entry is kept: tap Resend when the "
        "floor says it is back. It will not be recorded twice."
    ),
    "server_error": say_later(
        "The server could not answer (error {status}). Your entry is kept: tap Resend. "
        "It will not be recorded twice."
    ),
    "connection_dropped": say_later(
        "Not sent: the connection dropped, so the server may not have it. Your entry is "
        "kept: tap Resend when the connection is back. It will not be recorded twice."
    ),
    "fits_offline": say_later("No connection: could not check. Try again."),
    # documents built in the background
    "download": say_later("Download"),
    "downloaded": say_later("Downloaded."),
    "not_printed": say_later("Not printed."),
    "build_no_answer": say_later("The server did not answer: tap Print again to follow the build."),
    "asking_document": say_later("Asking for the document…"),
    "nothing_printed": say_later(
        "The server did not answer: nothing was printed. Tap Print again."
    ),
    # players found as a name is typed
    "player_card": say_later("{name} (card {card})"),
    "player_numbered": say_later("{name} (player {id})"),
    "player_chosen": say_later("Player chosen: {player}"),
    "add_player": say_later("Add {name} as a new player"),
    "new_player": say_later("A new player: {name}"),
    "type_a_name": say_later("Type a name: players already known are offered."),
}


def script_words() -> dict[str, str]:
    """Every sentence static/dealer.js may show, by its name, in the catalogue's language."""
    return {name: say(sentence) for name, sentence in _SENTENCES.items()}
