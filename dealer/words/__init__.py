"""The one vocabulary: every sentence a person reads, made in one place.

Events, payments, rules, knobs, parties, cards, plurals and the floor's clock are worded here
and nowhere else: the views (`dealer.views`) put these words into what every front door shows,
so one event has one sentence on the screens, in the API's ``text``, on the documents and in
the exports. Codes (a rule's, a knob's) stay in the API and the CSV columns for machines; a
person reads them only through these modules.

Every English sentence goes through the message catalogue (`catalogue`): a second language
is a catalogue file, not an edit here.
"""
