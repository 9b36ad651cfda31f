/* dealer.js: the little JavaScript the tablet needs, and nothing from outside the card room.
 *
 * Every page works without it: forms post and redirect, cards can be typed, seats and
 * melds are links. With it:
 *  - the card pad and the PIN pad fill their fields;
 *  - tapping a seat or a meld chooses it without reloading (so entered cards stay) and
 *    enables exactly the actions the server marked as allowed for that seat;
 *  - forms are sent in the background: a double tap sends once, a dropped connection
 *    says so and keeps the entry to resend with the same idempotency key (the server
 *    answers a repeat with its first answer, so a resend never records twice);
 *  - anything entered but not sent is kept on this tablet when the dealer signs out, by
 *    hand or after the idle time, and offered back once someone signs in again;
 *  - after an event the screen keeps its place and the pad keeps focus;
 *  - a hardware keyboard has shortcuts: the keys the page names in aria-keyshortcuts;
 *  - the hand replay steps with the arrow keys (Home and End: the first and last event).
 */
(function () {
  "use strict";

  var KEPT = "dealer:kept";
  var KEEP_HOURS = 12;
  // The cards are the rules engine's, handed over by the page (base.html), never restated.
  var CARDS = JSON.parse(document.getElementById("dealer-cards").textContent);
  var SUITS = CARDS.suits;
  var SUIT_WORDS = CARDS.suit_words;
  var RANK_WORDS = CARDS.rank_words;
  // Every sentence the script shows, worded by the vocabulary (dealer/words/page.py).
  var WORDS = JSON.parse(document.getElementById("dealer-words").textContent);
  var SUIT_OF_SYMBOL = {};
  Object.keys(SUITS).forEach(function (suit) { SUIT_OF_SYMBOL[SUITS[suit]] = suit; });
  var padTarget = null;

  // The sentence ``name``, its {fields} filled in.
  function said(name, fields) {
    var text = WORDS[name] || "";
    Object.keys(fields || {}).forEach(function (field) {
      text = text.split("{" + field + "}").join(String(fields[field]));
    });
    return text;
  }
  var lastCard = null;
  var idleTimer = null;
  var busy = false;
  var pendingRank = null;
  var byKeyboard = false;

  // ------------------------------------------------------------ cards and pads

  function tokens(text) {
    return (text || "").replace(/,/g, " ").split(/\s+/).filter(Boolean);
  }

  function faceHTML(token) {
    var t = token.toUpperCase();
    var suitChar = t.slice(-1);
    var suit = SUIT_OF_SYMBOL[suitChar] || suitChar;
    var rank = t.slice(0, -1);
    if (!SUITS[suit] || CARDS.ranks.indexOf(rank) < 0 || rank.length !== 1) {
      var bad = document.createElement("span");
      bad.className = "card card-bad";
      bad.textContent = "? " + token;
      return bad.outerHTML;
    }
    return (
      '<span class="card suit-' + suit + '" title="' + (RANK_WORDS[rank] || rank) + " of " +
      SUIT_WORDS[suit] + '"><b>' + rank + "</b>" + SUITS[suit] + "</span>"
    );
  }

  function showEntered(input) {
    var out = document.querySelector('[data-entered="' + input.name + '"]');
    if (!out) return;
    var list = tokens(input.value);
    out.innerHTML = list.map(faceHTML).join("") +
      (list.length ? ' <span class="count">' + said(list.length === 1 ? "one_card" : "cards", { n: list.length }) + "</span>" : "");
  }

  function choosePadTarget(input) {
    if (!input) return;
    padTarget = input;
    document.querySelectorAll("[data-pad-target]").forEach(function (el) {
      el.classList.toggle("is-pad-target", el === input);
      var field = el.closest(".card-field, .fits-form");
      if (field) field.classList.toggle("is-pad-target", el === input);
    });
  }

  function padAdd(card) {
    var input = padTarget || document.querySelector("[data-default-target]");
    if (!input) return;
    if (input.hasAttribute("data-single")) {
      input.value = card;
    } else {
      input.value = (input.value.trim() + " " + card).trim();
    }
    lastCard = card;
    var again = document.querySelector("[data-pad-again]");
    if (again) {
      again.disabled = false;
      again.innerHTML = '<span class="wide-words">' + said("again") + ' </span>' + faceHTML(card);
    }
    showEntered(input);
    input.dispatchEvent(new Event("input", { bubbles: true }));
    return true;
  }

  // Quick entry. A set: the last card entered, to make a set of ``count``.
  function padSet(count) {
    var input = padTarget || document.querySelector("[data-default-target]");
    var list = tokens(input && input.value);
    var last = list[list.length - 1];
    if (!last) return true;
    var same = 0;
    for (var i = list.length - 1; i >= 0 && list[i].toUpperCase() === last.toUpperCase(); i--) same++;
    for (; same < count; same++) padAdd(last.toUpperCase());
    return true;
  }

  // A run: "Run to", then the run's last card (on the phone's pad its rank alone: the suit is
  // the run's); every card between the last card entered and it is entered, in its suit.
  var runFrom = null;

  function padRun(on) {
    var input = padTarget || document.querySelector("[data-default-target]");
    var list = tokens(input && input.value);
    runFrom = on && list.length ? list[list.length - 1].toUpperCase() : null;
    var key = document.querySelector("[data-pad-run]");
    if (key) key.setAttribute("aria-pressed", String(!!runFrom));
    return true;
  }

  function runTo(card) {
    var from = runFrom;
    padRun(false);
    var suit = from.slice(-1), low = CARDS.ranks.indexOf(from.slice(0, -1));
    var high = CARDS.ranks.indexOf(card.slice(0, -1));
    if (card.slice(-1) !== suit || low < 0 || high <= low) return padAdd(card);
    for (var r = low + 1; r <= high; r++) padAdd(CARDS.ranks[r] + suit);
    return true;
  }

  function cardTapped(card) {
    return runFrom ? runTo(card) : padAdd(card);
  }

  // "Next seat": the seat after the acting one in play order (the server marks it).
  function nextSeat() {
    var form = actionForm();
    var seat = form && form.querySelector("[data-seat-field]").value;
    var panel = seat && document.querySelector('[data-seat-panel="' + seat + '"]');
    var next = panel ? panel.getAttribute("data-next-seat") : firstSeatIn();
    if (next) choose(next, "");
    return true;
  }

  // The hand screen's buy-in follows the acting seat: its address, its heading, the stay in
  // the seat it is made for (the hand's player there), and the hand it returns to (that seat
  // still acting).
  function buyInFor(seat) {
    var box = document.querySelector("[data-buy-in]");
    var form = box && box.querySelector("form");
    if (!form) return;
    box.hidden = !seat;
    if (!seat) return;
    form.action = form.getAttribute("data-seat-action").replace("{seat}", seat);
    form.setAttribute("data-seat", seat);
    var panel = document.querySelector('[data-seat-panel="' + seat + '"]');
    var stay = form.querySelector("[data-seating-field]");
    if (stay && panel) stay.value = panel.getAttribute("data-seating") || "";
    box.querySelector("[data-buy-in-seat]").textContent = seat;
    if (form.elements.back) form.elements.back.value = location.pathname + "?seat=" + seat;
  }

  function firstSeatIn() {
    var panel = document.querySelector('[data-seat-panel].status-in');
    return panel && panel.getAttribute("data-seat-panel");
  }

  // The phone's pad: a rank, then its suit.
  function pickRank(rank) {
    if (rank && runFrom) return runTo(rank + runFrom.slice(-1));
    pendingRank = rank;
    document.querySelectorAll("[data-rank]").forEach(function (b) {
      b.setAttribute("aria-pressed", String(b.getAttribute("data-rank") === rank));
    });
    return true;
  }

  function padBack(clear) {
    var input = padTarget || document.querySelector("[data-default-target]");
    if (!input) return;
    var list = tokens(input.value);
    if (clear) list = [];
    else list.pop();
    input.value = list.join(" ");
    showEntered(input);
  }

  function pinPad(button) {
    var form = button.closest("form");
    var pin = form && form.querySelector("[data-pin]");
    if (!pin) return;
    var digit = button.getAttribute("data-digit");
    if (digit === "back") pin.value = pin.value.slice(0, -1);
    else if (digit === "clear") pin.value = "";
    else if (pin.value.length < 8) pin.value += digit;
  }

  // ------------------------------------------------------- choosing seat and meld

  // A form's address. Not target(form): the action buttons are named "action", and a
  // named control shadows the property.
  function target(form) {
    return new URL(form.getAttribute("action") || location.href, location.href).href;
  }

  function actionForm() {
    return document.getElementById("action-form");
  }

  function refreshActions() {
    var form = actionForm();
    if (!form) return;
    var seat = form.querySelector("[data-seat-field]").value;
    var meld = form.querySelector("[data-meld-field]").value;
    var panel = seat && document.querySelector('[data-seat-panel="' + seat + '"]');
    var allowed = panel ? panel.getAttribute("data-allowed").split(" ") : [];
    form.querySelectorAll("[data-action]").forEach(function (button) {
      var needsMeld = button.hasAttribute("data-needs-meld");
      button.disabled = !(allowed.indexOf(button.getAttribute("data-action")) >= 0 && (!needsMeld || meld));
    });
  }

  function current(el, on) {
    if (on) el.setAttribute("aria-current", "true");
    else el.removeAttribute("aria-current");
  }

  function choose(seat, meld) {
    document.querySelectorAll("[data-seat-field]").forEach(function (f) { f.value = seat || ""; });
    buyInFor(seat);
    document.querySelectorAll("[data-meld-field]").forEach(function (f) { f.value = meld || ""; });
    document.querySelectorAll("[data-pick-seat]").forEach(function (a) {
      current(a, a.getAttribute("data-pick-seat") === String(seat));
    });
    document.querySelectorAll("[data-seat-panel]").forEach(function (p) {
      p.classList.toggle("is-selected", p.getAttribute("data-seat-panel") === String(seat));
    });
    document.querySelectorAll("[data-melds-of]").forEach(function (list) {
      list.hidden = list.getAttribute("data-melds-of") !== String(seat);
    });
    var chosenMeld = null;
    document.querySelectorAll("[data-pick-meld]").forEach(function (a) {
      var on = a.getAttribute("data-pick-meld") === String(meld);
      if (on) chosenMeld = a;
      a.classList.toggle("is-selected", on);
      current(a, on);
    });
    var panel = seat && document.querySelector('[data-seat-panel="' + seat + '"]');
    var acting = document.querySelector("[data-acting]");
    if (acting) {
      acting.textContent = "";
      if (panel) {
        var number = document.createElement("b");
        number.textContent = said("seat", { seat: seat });
        acting.appendChild(number);
        acting.appendChild(document.createTextNode(" " + panel.getAttribute("data-player")));
      } else {
        acting.textContent = said("tap_seat");
      }
      acting.parentNode.classList.toggle("is-chosen", !!panel);
    }
    var actingMeld = document.querySelector("[data-acting-meld]");
    if (actingMeld) actingMeld.textContent = chosenMeld ? said("meld_cards", { cards: chosenMeld.getAttribute("data-cards") }) : "";
    refreshActions();
    var url = new URL(location.href);
    url.searchParams.delete("done");
    if (seat) url.searchParams.set("seat", seat); else url.searchParams.delete("seat");
    if (meld) url.searchParams.set("meld", meld); else url.searchParams.delete("meld");
    history.replaceState(history.state, "", url);
  }

  // ------------------------------------------------------------- kept entries

  function readKept() {
    try {
      var list = JSON.parse(localStorage.getItem(KEPT) || "[]");
      var fresh = Date.now() - KEEP_HOURS * 3600 * 1000;
      return Array.isArray(list) ? list.filter(function (e) { return e.at > fresh; }) : [];
    } catch (e) {
      return [];
    }
  }

  function writeKept(list) {
    try { localStorage.setItem(KEPT, JSON.stringify(list)); } catch (e) { /* storage full or off */ }
  }

  function formFields(form, submitter) {
    var fields = [];
    var data = submitter ? new FormData(form, submitter) : new FormData(form);
    data.forEach(function (value, name) {
      var el = form.elements[name];
      var secret = el && (el.type === "password" || (el[0] && el[0].type === "password"));
      if (name !== "csrf_token" && !secret && typeof value === "string") fields.push([name, value]);
    });
    return fields;
  }

  function somethingEntered(form) {
    return Array.prototype.some.call(form.elements, function (el) {
      if (el.type === "checkbox") return el.checked;
      var visible = el.type === "text" || el.type === "number" || el.tagName === "TEXTAREA";
      return visible && el.value.trim() !== "";
    });
  }

  function summary(form, fields) {
    var words = [];
    var own = form.getAttribute("data-summary"); // the form's own words (a buy-in's seat)
    if (own) words.push(own.replace("{seat}", form.getAttribute("data-seat") || ""));
    fields.forEach(function (pair) {
      var name = pair[0], value = pair[1];
      if (!value || name === "key" || name === "page" || name === "back") return;
      var el = form.elements[name];
      if (el && el.hasAttribute && el.hasAttribute("data-unsaid")) return;
      if (el && !el.hasAttribute && el[0] && el[0].type === "radio") {
        // A choice: its question (the legend) and the words of the one chosen, not its value.
        var chosen = Array.prototype.find.call(el, function (r) { return r.value === value; });
        var legend = chosen && chosen.closest("fieldset") && chosen.closest("fieldset").querySelector("legend");
        if (chosen && chosen.closest("label") && legend) {
          words.push(legend.textContent.trim() + ": " + chosen.closest("label").textContent.trim());
          return;
        }
      }
      var label = el && el.id && document.querySelector('label[for="' + el.id + '"]');
      var word = label ? label.childNodes[0].textContent.trim() : name.replace(/_/g, " ");
      word = word.charAt(0).toUpperCase() + word.slice(1);
      words.push(word + ": " + value);
    });
    return words.join(" · ");
  }

  function keep(form, why, submitter) {
    var fields = formFields(form, submitter);
    var list = readKept().filter(function (e) { return e.action !== target(form); });
    list.push({
      page: location.pathname,
      action: target(form),
      fields: fields,
      summary: summary(form, fields),
      why: why,
      who: document.body.getAttribute("data-user") || "",
      at: Date.now(),
    });
    writeKept(list);
  }

  function unkeep(form) {
    writeKept(readKept().filter(function (e) { return e.action !== target(form); }));
  }

  function keepEverything(why) {
    document.querySelectorAll("form[data-keep]").forEach(function (form) {
      if (somethingEntered(form)) keep(form, why);
    });
  }

  function putBack(entry, form) {
    var values = {};
    entry.fields.forEach(function (pair) { (values[pair[0]] = values[pair[0]] || []).push(pair[1]); });
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || !(el.name in values) || el.name === "csrf_token" || el.type === "submit") return;
      if (el.type === "checkbox" || el.type === "radio") el.checked = values[el.name].indexOf(el.value) >= 0;
      else el.value = values[el.name][0];
    });
    if (values.seat !== undefined && form === actionForm()) choose(values.seat[0], (values.meld || [""])[0]);
    form.querySelectorAll("[data-pad-target]").forEach(showEntered);
    var details = form.querySelector("details");
    if (details && (values.take || values.into_first || [""]).join("").trim()) details.open = true;
  }

  function offerKept() {
    var box = document.getElementById("kept-offer");
    if (!box || !document.body.getAttribute("data-user")) return;
    var entry = null, form = null;
    readKept().some(function (e) {
      if (e.page !== location.pathname) return false;
      var found = Array.prototype.find.call(document.forms, function (f) { return target(f) === e.action; });
      if (found) { entry = e; form = found; }
      return !!found;
    });
    if (!entry) { box.hidden = true; return; }
    box.innerHTML = "";
    var text = document.createElement("p");
    var what = { who: entry.who, why: entry.why, what: entry.summary || said("an_entry") };
    text.textContent = said(entry.who ? "kept_by" : "kept_mine", what);
    var back = document.createElement("button");
    back.type = "button";
    back.className = "primary";
    back.textContent = said("put_back");
    var drop = document.createElement("button");
    drop.type = "button";
    drop.textContent = said("discard");
    back.addEventListener("click", function () {
      putBack(entry, form);
      unkeep(form);
      box.hidden = true;
    });
    drop.addEventListener("click", function () { unkeep(form); box.hidden = true; });
    box.appendChild(text);
    box.appendChild(back);
    box.appendChild(drop);
    box.hidden = false;
  }

  // ------------------------------------------------------------ the offline queue
  // While the tablet cannot reach the server, entries of a form marked data-queue (the hand's
  // actions) are kept here, in order, in this origin's localStorage: it survives a reload and
  // the tablet sleeping (a tablet that wakes runs this page's script again, and a page opened
  // anew finds the queue). Each keeps its own idempotency key, so a resend never records
  // twice. When the connection is back they are sent one by one, in order; one the server
  // refuses holds the rest (a later entry may depend on it) with its sentence, until the
  // dealer fixes it (its entry back in the form) or drops it.

  var QUEUE = "dealer:queue";
  var QUEUE_HOLD = "dealer:queue-hold";
  var draining = false;

  function readQueue() {
    try {
      var list = JSON.parse(localStorage.getItem(QUEUE) || "[]");
      return Array.isArray(list) ? list : [];
    } catch (e) {
      return [];
    }
  }

  function writeQueue(list) {
    try { localStorage.setItem(QUEUE, JSON.stringify(list)); } catch (e) { /* storage full or off */ }
  }

  function holding(on) {
    try {
      if (on === undefined) return localStorage.getItem(QUEUE_HOLD) === "1";
      if (on) localStorage.setItem(QUEUE_HOLD, "1"); else localStorage.removeItem(QUEUE_HOLD);
    } catch (e) { /* storage off */ }
    return false;
  }

  function newKey() {
    var bytes = new Uint8Array(18);
    crypto.getRandomValues(bytes);
    return "web-" + btoa(String.fromCharCode.apply(null, bytes))
      .replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  // The signed-in user's id (the page's), or "" when nobody is signed in.
  function me() {
    return document.body.getAttribute("data-user-id") || "";
  }

  function field(entry, name) {
    var found = entry.fields.filter(function (p) { return p[0] === name; })[0];
    return found ? found[1] : "";
  }

  // A queued entry someone else typed: sent now, it would be refused as not the signed-in
  // person's (until they record it as theirs).
  function typedByAnother(entry) {
    var typist = field(entry, "typed_by");
    return !!(typist && me() && typist !== me() && field(entry, "typed_by_confirmed") !== typist);
  }

  // The form of this page a queued entry was typed in (the hand's buy-in follows its seat).
  function formFor(entry) {
    var found = Array.prototype.find.call(document.forms, function (f) { return target(f) === entry.action; });
    var buyIn = document.querySelector("[data-buy-in] form");
    if (found || !buyIn) return found || null;
    var parts = buyIn.getAttribute("data-seat-action").split("{seat}");
    var path = new URL(entry.action, location.href).pathname;
    var seat = path.indexOf(parts[0]) === 0 && path.slice(-parts[1].length) === parts[1]
      ? path.slice(parts[0].length, path.length - parts[1].length) : "";
    if (!/^[1-8]$/.test(seat) || !document.querySelector('[data-seat-panel="' + seat + '"]')) return null;
    choose(seat, "");
    return buyIn;
  }

  function queues(form) {
    if (!form.hasAttribute("data-queue")) return false;
    // The dealer's fix of a refused entry goes first, straight out when online.
    return !navigator.onLine || (readQueue().length > 0 && !holding());
  }

  function enqueue(form, submitter) {
    var data = submitter ? new FormData(form, submitter) : new FormData(form);
    var fields = [];
    data.forEach(function (value, name) { if (typeof value === "string") fields.push([name, value]); });
    // Who typed it goes with it: sent once someone else is signed in here, the server refuses
    // it until they record it as theirs (both names kept) or its typist signs in again.
    var what = summary(form, fields.filter(function (p) { return p[0] !== "csrf_token"; }));
    var typist = me();
    if (typist && !fields.some(function (p) { return p[0] === "typed_by"; })) fields.push(["typed_by", typist]);
    var list = readQueue();
    var fixed = holding(); // the fix of a refused entry, made offline: it goes first
    holding(false);
    list[fixed ? "unshift" : "push"]({ action: target(form), page: location.pathname, fields: fields,
                summary: what, who: document.body.getAttribute("data-user") || "", at: Date.now(),
                refused: null });
    writeQueue(list);
    // The next entry: its own key, what was typed cleared; the acting seat (hidden) stays.
    if (form.elements.key) form.elements.key.value = newKey();
    Array.prototype.forEach.call(form.elements, function (el) {
      if (el.type === "checkbox") el.checked = false;
      else if (["text", "number", "password"].indexOf(el.type) >= 0 || el.tagName === "TEXTAREA") {
        el.value = "";
        if (el.hasAttribute("data-pad-target")) showEntered(el);
      }
    });
    showQueue();
    // At a table set so, the acting seat moves on after a drop or a foul, as the server's
    // answer would have moved it.
    var acted = submitter && submitter.getAttribute("data-action");
    if (form.hasAttribute("data-moves-on") && (acted === "drop" || acted === "foul")) nextSeat();
    focusPad();
  }

  function queueButton(words, onTap) {
    var button = document.createElement("button");
    button.type = "button";
    button.textContent = words;
    button.addEventListener("click", onTap);
    return button;
  }

  function showQueue() {
    var box = document.getElementById("queue");
    if (!box) return;
    var list = readQueue();
    box.hidden = !list.length;
    box.textContent = "";
    if (!list.length) return;
    var head = document.createElement("p");
    head.textContent = navigator.onLine
      ? said(list.length === 1 ? "queue_sending_one" : "queue_sending", { n: list.length })
      : said("queue_offline");
    box.appendChild(head);
    var items = document.createElement("ol");
    items.className = "queue-list";
    list.forEach(function (entry, i) {
      var item = document.createElement("li");
      item.setAttribute("data-pending", String(i));
      var what = entryWords(entry);
      item.textContent = entry.refused ? said("refused", { what: what }) : said("pending", { what: what });
      if (entry.refused) {
        var why = document.createElement("strong");
        why.textContent = " " + entry.refused;
        item.appendChild(why);
        item.appendChild(document.createTextNode(" " + said("entries_wait") + " "));
        if (i === 0 && typedByAnother(entry)) {
          item.appendChild(queueButton(said("record_as_mine", { who: entry.who || said("someone_else") }),
                                       function () { confirmQueued(); }));
        }
        item.appendChild(queueButton(said("fix_it"), function () { fixQueued(); }));
        item.appendChild(queueButton(said("drop_it"), function () { dropQueued(); }));
      }
      items.appendChild(item);
    });
    box.appendChild(items);
    if (navigator.onLine && !list[0].refused && !holding()) {
      box.appendChild(queueButton(said("send_now"), function () { drain(); }));
    }
  }

  // An entry of the hand in words ("Seat 2 (Rosa): meld J♥ Q♥ K♥"): the seat's name and the
  // action's word as this page shows them; any other entry, its summary.
  function entryWords(entry) {
    var got = {};
    entry.fields.forEach(function (pair) { if (!(pair[0] in got)) got[pair[0]] = pair[1]; });
    var button = got.action && document.querySelector('[data-action="' + got.action + '"]');
    if (!got.seat || !button) return entry.summary;
    var panel = document.querySelector('[data-seat-panel="' + got.seat + '"]');
    var cards = tokens(got.cards || "").map(function (token) {
      var suit = token.slice(-1).toUpperCase();
      return SUITS[suit] ? token.slice(0, -1).toUpperCase() + SUITS[suit] : token;
    }).join(" ");
    return said("entry_words", {
      seat: got.seat,
      player: panel ? panel.getAttribute("data-player") : "",
      action: (button.getAttribute("aria-label") || button.textContent).trim().toLowerCase(),
      cards: cards,
    }).trim();
  }

  // What became of each entry sent from the queue: kept for this tab until the dealer has
  // seen it, so the screen drawn after the last one still says what became of the first.
  var FATES = "dealer:queue-fates";

  function readFates() {
    try { return JSON.parse(sessionStorage.getItem(FATES) || "[]"); } catch (e) { return []; }
  }

  function addFate(words) {
    var list = readFates();
    list.push(words);
    try { sessionStorage.setItem(FATES, JSON.stringify(list)); } catch (e) { /* storage off */ }
  }

  function showFates() {
    var list = readFates();
    var box = document.getElementById("queue-fates");
    if (box) box.remove();
    if (!list.length) return;
    box = document.createElement("div");
    box.id = "queue-fates";
    box.className = "notice notice-queue";
    box.setAttribute("role", "status");
    var head = document.createElement("p");
    head.textContent = said("fates_head");
    box.appendChild(head);
    var items = document.createElement("ol");
    items.className = "queue-list";
    list.forEach(function (words) {
      var item = document.createElement("li");
      item.setAttribute("data-fate", "");
      item.textContent = words;
      items.appendChild(item);
    });
    box.appendChild(items);
    box.appendChild(queueButton(said("fates_done"), function () {
      sessionStorage.removeItem(FATES);
      box.remove();
    }));
    var notices = document.getElementById("notices");
    if (notices) notices.appendChild(box);
  }

  function fixQueued() {
    var list = readQueue();
    var entry = list.shift();
    var form = entry && formFor(entry);
    if (!entry || !form) return;
    writeQueue(list);
    holding(true); // the rest waits for the fixed entry
    putBack(entry, form);
    if (form.elements.key) form.elements.key.value = newKey();
    showQueue();
  }

  // The person signed in records as theirs what someone else typed (the first entry, and the
  // rest that person typed): each goes with its typist's name and theirs, in order.
  function confirmQueued() {
    var list = readQueue();
    if (!list.length) return;
    var typist = field(list[0], "typed_by");
    list.forEach(function (entry) {
      if (field(entry, "typed_by") !== typist) return;
      entry.fields = entry.fields.filter(function (p) { return p[0] !== "typed_by_confirmed"; });
      entry.fields.push(["typed_by_confirmed", typist]);
    });
    list[0].refused = null;
    writeQueue(list);
    drain();
  }

  function dropQueued() {
    var list = readQueue();
    list.shift();
    writeQueue(list);
    showQueue();
    drain();
  }

  function drain() {
    var list = readQueue();
    if (draining || !navigator.onLine || !list.length || holding()) { showQueue(); return; }
    if (list[0].refused && list[0].typist_refused && !typedByAnother(list[0])) {
      list[0].refused = null; // its typist is signed in again: it goes as theirs
      writeQueue(list);
    }
    if (list[0].refused) { showQueue(); return; }
    draining = true;
    var entry = list[0];
    var body = new FormData();
    entry.fields.forEach(function (pair) { body.append(pair[0], pair[1]); });
    // The page's own token: the kept one may have aged.
    var token = document.querySelector("input[name=csrf_token]");
    if (token) body.set("csrf_token", token.value);
    showQueue();
    fetch(entry.action, { method: "POST", body: body, credentials: "same-origin",
                          headers: { "X-Requested-With": "fetch" } })
      .then(function (response) {
        return response.text().then(function (html) {
          draining = false;
          var url = new URL(response.url);
          var now = readQueue();
          if (response.ok && response.redirected && url.pathname !== "/sign-in") {
            var receipt = new DOMParser().parseFromString(html, "text/html")
              .querySelector("[data-banner] .said:last-child strong");
            addFate(said("fate_recorded", { what: receipt
              ? receipt.textContent.replace(/\s+/g, " ").replace(/^\W+/, "").trim()
              : entryWords(entry) }));
            now.shift();
            writeQueue(now);
            if (now.length) return drain();
            showQueue();
            // Every entry recorded: this screen as it is now.
            if (url.pathname === location.pathname) return swap(html, url, true);
            location.reload();
            return null;
          }
          if (response.status >= 500 || url.pathname === "/sign-in" || response.status === 400) {
            showQueue(); // not read: kept, sent again later
            return null;
          }
          var doc = new DOMParser().parseFromString(html, "text/html");
          var told = doc.querySelector(".banner-refused, .field-error");
          var words = told ? told.textContent.replace(/\s+/g, " ").trim() : said("not_recorded");
          now[0].refused = words.replace(/ What you entered is kept.*$/, "");
          now[0].typist_refused = typedByAnother(now[0]);
          addFate(said("refused", { what: entryWords(now[0]) }) + " " + now[0].refused);
          writeQueue(now);
          showQueue();
          showFates();
          return null;
        });
      })
      .catch(function () { draining = false; showQueue(); });
  }

  window.addEventListener("online", drain);
  // A connection that came back without saying so: try again now and then.
  setInterval(function () { if (readQueue().length) drain(); }, 5000);
  window.addEventListener("offline", showQueue);

  // ------------------------------------------------------------ sending forms

  function setBusy(form, on) {
    busy = on;
    form.setAttribute("aria-busy", String(on));
    form.querySelectorAll("button[type=submit], button:not([type])").forEach(function (b) {
      if (on) { b.setAttribute("data-was-disabled", String(b.disabled)); b.disabled = true; }
      else if (b.hasAttribute("data-was-disabled")) {
        b.disabled = b.getAttribute("data-was-disabled") === "true";
        b.removeAttribute("data-was-disabled");
      }
    });
    var note = document.getElementById("sending-note");
    if (on && !note) {
      note = document.createElement("p");
      note.id = "sending-note";
      note.className = "notice notice-sending";
      note.setAttribute("role", "status");
      note.textContent = said("sending");
      document.getElementById("notices").appendChild(note);
    } else if (!on && note) {
      note.remove();
    }
  }

  function problem(form, submitter, message) {
    var box = document.getElementById("send-problem");
    box.innerHTML = "";
    var text = document.createElement("p");
    text.innerHTML = '<span aria-hidden="true">⚠</span> ';
    text.appendChild(document.createTextNode(message));
    var again = document.createElement("button");
    again.type = "button";
    again.className = "primary";
    again.textContent = said("resend");
    again.addEventListener("click", function () { box.hidden = true; send(form, submitter); });
    box.appendChild(text);
    box.appendChild(again);
    box.hidden = false;
    box.scrollIntoView({ block: "nearest" });
  }

  // Where each scrolling part of the screen was, to put it back after a redraw.
  function places() {
    var out = { window: [window.scrollX, window.scrollY] };
    document.querySelectorAll("[data-keep-scroll]").forEach(function (el) { out[el.id] = el.scrollTop; });
    return out;
  }

  function swap(html, url, push) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    // A refusal is the screen drawn again where it was sent from (no redirect): the same
    // screen, the pad keeping focus.
    var samePage = !push || new URL(url).pathname === location.pathname;
    var before = places();
    document.title = doc.title;
    document.body.replaceWith(doc.body);
    if (push) history.pushState({}, "", url);
    if (push) keepScreen(html, url);
    start();
    if (!samePage) { window.scrollTo(0, 0); return; }
    // The same screen drawn again (an event recorded, or refused): it keeps its place, the
    // pad keeps focus, and what was said is where the dealer looks.
    window.scrollTo(before.window[0], before.window[1]);
    document.querySelectorAll("[data-keep-scroll]").forEach(function (el) {
      if (el.id in before) el.scrollTop = before[el.id];
    });
    focusPad();
  }

  // ------------------------------------------------------------ without the network
  // Where the browser allows a service worker (HTTPS, or localhost), static/sw.js keeps the
  // last hand screen drawn and its files, so a reload offline still shows the table and the
  // pending entries. Kept here too: a screen the worker did not see (the first, or one drawn
  // from an answer to an entry).
  var SHELL_PAGES = "dealer-pages-1";
  var SHELL_FILES = "dealer-files-1";
  var HAND_PAGE = /^\/hands\/\d+$/;

  function keepScreen(html, address) {
    var url = new URL(address, location.href);
    if (!window.caches || !navigator.serviceWorker || !HAND_PAGE.test(url.pathname)) return;
    caches.open(SHELL_PAGES).then(function (cache) {
      return cache.put(url.origin + url.pathname,
        new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } }));
    }).catch(function () { /* storage full or off */ });
  }

  function shell() {
    var worker = document.body.getAttribute("data-shell");
    if (!worker || !navigator.serviceWorker || !window.caches) return;
    navigator.serviceWorker.register(worker, { scope: "/" }).catch(function () { /* not allowed */ });
    if (navigator.serviceWorker.controller || !HAND_PAGE.test(location.pathname) || !navigator.onLine) return;
    var files = [document.querySelector("link[rel=stylesheet]"), document.querySelector("script[src]")]
      .filter(Boolean).map(function (el) { return el.href || el.src; });
    caches.open(SHELL_FILES).then(function (cache) { return cache.addAll(files); }).catch(function () {});
    fetch(location.pathname, { credentials: "same-origin" }).then(function (response) {
      if (response.ok && !response.redirected) return response.text().then(function (html) { keepScreen(html, location.href); });
      return null;
    }).catch(function () { /* offline again */ });
  }

  function focusPad() {
    var cards = document.querySelector("[data-default-target]");
    var pad = document.querySelector("[data-pad]");
    // A keyboard's dealer types next; a finger taps the pad (no on-screen keyboard popping up).
    if (byKeyboard && cards) cards.focus({ preventScroll: true });
    else if (pad && !pad.hidden) pad.focus({ preventScroll: true });
    else {
      var recorded = document.getElementById("said");
      if (recorded) recorded.focus({ preventScroll: true });
    }
  }

  function send(form, submitter) {
    if (busy) return; // a second tap while the first is on its way
    if (queues(form)) { enqueue(form, submitter); return; }
    var data = submitter ? new FormData(form, submitter) : new FormData(form);
    var pins = typedPins(form);
    if (form.hasAttribute("data-keep")) keep(form, said("why_sending"), submitter);
    setBusy(form, true);
    fetch(target(form), {
      method: "POST",
      body: data,
      credentials: "same-origin",
      headers: { "X-Requested-With": "fetch" },
    }).then(function (response) {
      if (response.status === 503) {
        // storage_unavailable: the server read the entry but its database cannot write.
        setBusy(form, false);
        if (form.hasAttribute("data-keep")) keep(form, said("why_not_recorded"), submitter);
        problem(form, submitter, said("cannot_write"));
        return null;
      }
      if (response.status >= 500) {
        setBusy(form, false);
        problem(form, submitter, said("server_error", { status: response.status }));
        return null;
      }
      return response.text().then(function (html) {
        setBusy(form, false);
        var url = new URL(response.url);
        // The server read the entry: recorded, or drawn again with it (a refusal). Signed
        // out meanwhile, or a form too old to read (400): it stays kept, to offer back.
        if (response.ok && form.hasAttribute("data-queue") && holding()) {
          holding(false);
          setTimeout(drain, 0);
        }
        var read = response.ok || [403, 404, 409, 422, 429].indexOf(response.status) >= 0;
        if (read && url.pathname !== "/sign-in") unkeep(form);
        else keep(form, said(url.pathname === "/sign-in" ? "why_signed_out" : "why_not_sent"), submitter);
        swap(html, url, response.redirected);
        if (!response.ok && read) putPinsBack(target(form), pins);
      });
    }).catch(function () {
      setBusy(form, false);
      if (form.hasAttribute("data-queue")) {
        // The same key goes with it: if the server did record it, the resend is its answer.
        unkeep(form);
        enqueue(form, submitter);
        return;
      }
      problem(form, submitter, said("connection_dropped"));
    });
  }

  // A refused form comes back drawn with what was typed, but never a PIN (a page holds
  // none): the PINs typed here go back into the same form, so a refusal needs no retyping.
  function typedPins(form) {
    var pins = {};
    form.querySelectorAll("input[type=password]").forEach(function (field) {
      if (field.value) pins[field.name] = field.value;
    });
    return pins;
  }

  function putPinsBack(action, pins) {
    document.querySelectorAll("form[data-send]").forEach(function (form) {
      if (target(form) !== action) return;
      Object.keys(pins).forEach(function (name) {
        var field = form.querySelector('input[type=password][name="' + name + '"]');
        if (field && !field.value) field.value = pins[name];
      });
    });
  }

  function swapParts(form) {
    var url = new URL(target(form));
    new FormData(form).forEach(function (value, name) { if (value !== "") url.searchParams.set(name, value); });
    var actionSeat = document.querySelector("#action-form [data-meld-field]");
    if (actionSeat && actionSeat.value) url.searchParams.set("meld", actionSeat.value);
    fetch(url, { credentials: "same-origin" }).then(function (response) {
      return response.text().then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        form.getAttribute("data-swap").split(/\s+/).forEach(function (id) {
          var fresh = doc.getElementById(id), old = document.getElementById(id);
          if (fresh && old) old.replaceWith(fresh);
        });
        history.replaceState(history.state, "", url);
        refreshActions();
        // The discard was a question: the pad goes back to filling Cards.
        choosePadTarget(document.querySelector("[data-default-target]"));
      });
    }).catch(function () {
      var result = document.getElementById("fits-result");
      if (result) result.textContent = said("fits_offline");
    });
  }

  // ----------------------------------------------------------------- idle time

  function idleNow() {
    var form = document.getElementById("sign-out-form");
    if (!form) return;
    keepEverything(said("why_idle"));
    form.elements.idle.value = "1";
    form.submit();
  }

  function resetIdle() {
    clearTimeout(idleTimer);
    var seconds = Number(document.body.getAttribute("data-idle-seconds"));
    if (document.getElementById("sign-out-form") && seconds > 0) {
      idleTimer = setTimeout(idleNow, seconds * 1000);
    }
  }

  // ---------------------------------------------------------------- the floor

  function showCalifornia() {
    // The page marks the collections the warning is about (data-warns): the rule is the server's.
    var box = document.querySelector("[data-california]");
    var warned = document.querySelectorAll("[data-warns]");
    if (!box || !warned.length) return;
    var chosen = Array.prototype.some.call(warned, function (input) { return input.checked; });
    box.hidden = !chosen;
    box.setAttribute("role", chosen ? "alert" : "note");
  }

  // ------------------------------------------------------------ live screens
  // A screen that opts in (data-live-scopes on <main>) asks every data-live-every ms whether
  // what it shows changed: a 304 when not. When it did, it asks its own address for the parts
  // marked data-live-region (the server draws them: the same words as a reload) and puts
  // them in place, except a part where the dealer is typing or has something open, which
  // waits for the next time. The pad and its forms are never parts: nothing typed is lost.

  var live = { root: null, version: null };

  function holdsEntry(region) {
    var active = document.activeElement;
    if (active && active !== document.body && region.contains(active)) return true;
    if (region.querySelector("details[open]")) return true;
    return Array.prototype.some.call(region.querySelectorAll("input, textarea, select"), function (el) {
      if (el.type === "hidden") return false;
      if (el.type === "checkbox" || el.type === "radio") return el.checked !== el.defaultChecked;
      return el.value !== el.defaultValue;
    });
  }

  function redraw(root, version) {
    var regions = document.querySelectorAll("[data-live-region]");
    var names = Array.prototype.map.call(regions, function (r) { return r.getAttribute("data-live-region"); });
    if (!names.length) { live.version = version; return null; }
    return fetch(location.href, {
      credentials: "same-origin",
      cache: "no-store",
      headers: { "X-Live-Regions": names.join(",") },
    }).then(function (response) {
      return response.ok ? response.json() : null;
    }).then(function (parts) {
      // The dealer sent something meanwhile: their own answer redraws the screen.
      if (!parts || live.root !== root || busy) return;
      var waiting = false;
      regions.forEach(function (old) {
        var name = old.getAttribute("data-live-region");
        if (!(name in parts) || !old.isConnected) return;
        if (holdsEntry(old)) { waiting = true; return; }
        var doc = new DOMParser().parseFromString(parts[name], "text/html");
        var fresh = doc.querySelector('[data-live-region="' + name + '"]');
        if (fresh) old.replaceWith(document.importNode(fresh, true));
      });
      if (!waiting) live.version = version;
      var form = actionForm();
      if (form) {
        choose(form.querySelector("[data-seat-field]").value, form.querySelector("[data-meld-field]").value);
      }
      refreshActions();
    });
  }

  // The server holds the ask until what the screen shows changes (or data-live-wait s
  // pass); an answer sooner than data-live-every ms (the server could not hold it, or the
  // connection dropped) is followed by a pause, so a screen never asks in a tight loop.
  function liveTick() {
    var root = document.querySelector("[data-live-scopes]");
    if (root !== live.root) {
      live.root = root;
      live.version = root && root.getAttribute("data-live-version");
    }
    var every = root ? Number(root.getAttribute("data-live-every")) || 1000 : 1000;
    if (!root || busy || document.hidden) { setTimeout(liveTick, every); return; }
    var began = Date.now();
    var ask = new URL(root.getAttribute("data-live-ask"), location.href);
    root.getAttribute("data-live-scopes").split(/\s+/).forEach(function (scope) {
      ask.searchParams.append("scope", scope);
    });
    ask.searchParams.set("wait", root.getAttribute("data-live-wait") || "0");
    // An If-None-Match set here makes the browser hand the 304 to us, not to its cache.
    fetch(ask, {
      credentials: "same-origin",
      cache: "no-store",
      headers: { "If-None-Match": '"' + live.version + '"' },
    }).then(function (response) {
      if (response.status !== 200) return null; // 304: nothing changed; 401: signed out
      return response.json().then(function (body) { return redraw(root, body.version); });
    }).catch(function () {
      return null; // no connection: ask again after a pause
    }).then(function () {
      setTimeout(liveTick, Math.max(0, every - (Date.now() - began)));
    });
  }

  // ------------------------------------------------------------------ wiring

  document.addEventListener("click", function (event) {
    var el = event.target.closest("button, a, input");
    if (!el) return;
    if (el.hasAttribute("data-card")) return cardTapped(el.getAttribute("data-card"));
    if (el.hasAttribute("data-rank")) return pickRank(el.getAttribute("data-rank"));
    if (el.hasAttribute("data-suit")) return pendingRank && cardTapped(pendingRank + el.getAttribute("data-suit")) && pickRank(null);
    if (el.hasAttribute("data-pad-again")) return lastCard && padAdd(lastCard);
    if (el.hasAttribute("data-pad-set")) return padSet(Number(el.getAttribute("data-pad-set")));
    if (el.hasAttribute("data-pad-run")) return padRun(!runFrom);
    if (el.hasAttribute("data-next-seat")) return nextSeat();
    if (el.hasAttribute("data-pad-back")) return padBack(false);
    if (el.hasAttribute("data-pad-clear")) return padBack(true);
    if (el.hasAttribute("data-digit")) return pinPad(el);
    if (el.hasAttribute("data-pad-target")) return choosePadTarget(el);
    if (el.hasAttribute("data-pick-meld") && actionForm()) {
      event.preventDefault();
      return choose(el.getAttribute("data-seat"), el.getAttribute("data-pick-meld"));
    }
    if (el.hasAttribute("data-pick-seat") && actionForm()) {
      event.preventDefault();
      var seat = el.getAttribute("data-pick-seat");
      var meld = actionForm().querySelector("[data-meld-field]").value;
      var meldLink = meld && document.querySelector('[data-pick-meld="' + meld + '"]');
      return choose(seat, meldLink && meldLink.getAttribute("data-seat") === seat ? meld : "");
    }
  });

  // ------------------------------------------------------------ the keyboard

  function typing(el) {
    return el && (el.tagName === "TEXTAREA" || el.tagName === "SELECT" ||
      (el.tagName === "INPUT" && ["text", "password", "number", "search"].indexOf(el.type) >= 0));
  }

  function byShortcut(key) {
    var found = null;
    document.querySelectorAll("#action-form [aria-keyshortcuts]").forEach(function (el) {
      if (!found && el.getAttribute("aria-keyshortcuts").toUpperCase() === key.toUpperCase()) found = el;
    });
    return found;
  }

  function press(el) {
    if (!el || el.disabled) return false;
    if (el.hasAttribute("data-pick-seat")) {
      el.click();
      var cards = document.querySelector("[data-default-target]");
      if (cards) cards.focus();
    } else if (el.tagName === "INPUT") {
      el.focus();
    } else {
      el.click();
    }
    return true;
  }

  // Enter in a card field: the action the cards are for. Cards: an addition to the meld
  // chosen, else a meld; "taken from the meld": the borrow; a split's melds: the split.
  // Never silent: when the action cannot be sent, the note says why.
  function enterCards(field) {
    var form = actionForm();
    var seatChosen = form.querySelector("[data-seat-field]").value;
    var meldChosen = form.querySelector("[data-meld-field]").value;
    var wanted;
    if (field.name === "take") wanted = byShortcut("B");
    else if (field.name === "into_first" || field.name === "into_second") wanted = byShortcut("S");
    else {
      var add = byShortcut("A");
      wanted = meldChosen && add && !add.disabled ? add : byShortcut("M");
    }
    if (press(wanted)) return true;
    var why = !seatChosen ? said("choose_seat_esc")
      : (wanted && wanted.hasAttribute("data-needs-meld") && !meldChosen)
        ? said("choose_meld_esc")
        : said("not_allowed");
    keyNote(why);
    return false;
  }

  function keyNote(words) {
    var note = document.querySelector("[data-key-note]");
    if (!note) return;
    note.textContent = words;
    note.hidden = !words;
  }

  // "L": the acting seat's next meld (an addition, a borrow or a split acts on it).
  function nextMeld() {
    var form = actionForm();
    var seat = form.querySelector("[data-seat-field]").value;
    var list = document.querySelector('[data-melds-of="' + seat + '"]');
    var melds = list ? Array.prototype.slice.call(list.querySelectorAll("[data-pick-meld]")) : [];
    if (!melds.length) { keyNote(seat ? said("no_meld_yet") : said("choose_seat_first")); return true; }
    var now = form.querySelector("[data-meld-field]").value;
    var at = melds.findIndex(function (a) { return a.getAttribute("data-pick-meld") === now; });
    choose(seat, melds[(at + 1) % melds.length].getAttribute("data-pick-meld"));
    return true;
  }

  // B or S with their cards not yet entered: open "Borrow and split" at the field to fill.
  function openMoreCards(key) {
    var field = document.getElementById(key === "B" ? "take" : "into_first");
    if (!field || field.value.trim()) return false;
    var details = field.closest("details");
    if (details) details.open = true;
    field.focus();
    return true;
  }

  // Esc, from any field or button: back to the pad, where 1-8 choose a seat and the letters
  // are the actions. (Focus on the pad itself, never back into Cards.)
  function toPad() {
    var pad = document.querySelector("[data-pad]");
    if (pad && !pad.hidden) pad.focus({ preventScroll: true });
    else if (document.activeElement) document.activeElement.blur();
  }

  document.addEventListener("keydown", function (event) {
    byKeyboard = true;
    if (!actionForm() || event.ctrlKey || event.metaKey || busy) return;
    var el = event.target;
    if (event.key === "Escape") { keyNote(""); toPad(); event.preventDefault(); return; }
    if (typing(el)) {
      if (event.key === "Enter" && el.hasAttribute("data-pad-target") && el.closest("#action-form")) {
        event.preventDefault();
        keyNote("");
        enterCards(el);
        return;
      }
      if (!event.altKey) return; // digits and letters are cards here; Alt+key still works
    }
    if (el && (el.tagName === "BUTTON" || el.tagName === "A") && (event.key === "Enter" || event.key === " ")) return;
    var key = event.key.length === 1 ? event.key : "";
    if (event.altKey && event.code && /^(Digit|Key)/.test(event.code)) key = event.code.slice(-1);
    key = key.toUpperCase();
    if (key === "L") { event.preventDefault(); nextMeld(); return; }
    if (key === "U" && document.querySelector("[data-undo]")) {
      event.preventDefault();
      document.querySelector("[data-undo]").click();
      return;
    }
    if ((key === "B" || key === "S") && openMoreCards(key)) { event.preventDefault(); return; }
    var target = key && byShortcut(key);
    if (target) keyNote("");
    if (target && press(target)) event.preventDefault();
    else if (target && target.disabled) {
      event.preventDefault();
      keyNote(actionForm().querySelector("[data-seat-field]").value
        ? said("action_not_allowed", { action: target.textContent.trim().toLowerCase() })
        : said("choose_seat_acts"));
    }
  });

  // The hand replay: each step is a link; the arrows follow them.
  var REPLAY_KEYS = { ArrowLeft: "back", ArrowRight: "next", Home: "first", End: "last" };
  document.addEventListener("keydown", function (event) {
    var steps = document.querySelector("[data-replay]");
    var step = REPLAY_KEYS[event.key];
    if (!steps || !step || event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
    var link = steps.querySelector('[data-step="' + step + '"]');
    if (!link || link.getAttribute("aria-disabled") === "true") return;
    event.preventDefault();
    window.location.assign(link.href);
  });

  document.addEventListener("pointerdown", function () { byKeyboard = false; }, { passive: true });

  document.addEventListener("focusin", function (event) {
    if (event.target.hasAttribute && event.target.hasAttribute("data-pad-target")) choosePadTarget(event.target);
  });

  document.addEventListener("input", function (event) {
    if (event.target.hasAttribute("data-pad-target")) showEntered(event.target);
  });

  document.addEventListener("change", function (event) {
    if (event.target.hasAttribute("data-kind")) showCalifornia();
  });

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.id === "sign-out-form") { keepEverything(said("why_signed_out")); return; }
    if (form.hasAttribute("data-swap")) { event.preventDefault(); swapParts(form); return; }
    if (form.hasAttribute("data-build") && window.fetch) { event.preventDefault(); askBuild(form); return; }
    if (form.hasAttribute("data-send") && window.fetch) {
      event.preventDefault();
      send(form, event.submitter);
    }
  });

  ["pointerdown", "keydown", "input", "touchstart"].forEach(function (name) {
    document.addEventListener(name, resetIdle, { passive: true });
  });

  window.addEventListener("popstate", function () { location.reload(); });

  // ------------------------------------------------------------- long documents
  // A Print button with data-build (the floor's shift ledger) has its document built in the
  // background: the words beside it say how far the build is, the floor stays usable, and
  // the finished PDF is offered once, as a download link. Tapping again, or coming back to
  // the screen, follows the same build (this tab remembers it), so the copy is never a
  // second print. Without this script the button opens the PDF in a new tab, as before.
  var BUILD = "dealer:build:";

  function buildSaid(form) { return form.querySelector("[data-build-said]"); }

  // One build followed per form at a time: a newer follow (a tap again, the page shown again)
  // takes the form over, and an answer to an older one is dropped, so a late "ready" never
  // draws a second link over "Downloaded.".
  function newTurn(form) { form.buildTurn = (form.buildTurn || 0) + 1; return form.buildTurn; }
  function isTurn(form, turn) { return form.buildTurn === turn; }

  function showBuild(form, answer, turn) {
    var done = buildSaid(form);
    done.textContent = answer.words;
    var key = BUILD + form.getAttribute("data-build-kind");
    if (answer.state === "building" || answer.state === "ready") sessionStorage.setItem(key, answer.status);
    else sessionStorage.removeItem(key);
    if (answer.state === "building") {
      setTimeout(function () { if (isTurn(form, turn)) pollBuild(form, answer.status, turn); }, 700);
    } else if (answer.state === "ready") {
      var link = document.createElement("a");
      link.href = answer.download;
      link.setAttribute("download", answer.filename);
      link.className = "button small";
      link.setAttribute("data-build-download", "");
      link.textContent = said("download");
      link.addEventListener("click", function () {
        sessionStorage.removeItem(key);
        newTurn(form);  // whatever is still asked about this build is not shown
        setTimeout(function () { link.remove(); done.textContent = said("downloaded"); }, 0);
      });
      done.appendChild(document.createTextNode(" "));
      done.appendChild(link);
    }
  }

  function buildRefused(form, response) {
    return response.json().then(function (body) {
      sessionStorage.removeItem(BUILD + form.getAttribute("data-build-kind"));
      buildSaid(form).textContent = (body.error && body.error.message) || said("not_printed");
    });
  }

  function followBuild(form, status) { pollBuild(form, status, newTurn(form)); }

  function pollBuild(form, status, turn) {
    fetch(status, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) {
        if (!isTurn(form, turn)) return;
        if (!response.ok) return buildRefused(form, response);
        return response.json().then(function (answer) {
          if (isTurn(form, turn)) showBuild(form, answer, turn);
        });
      })
      .catch(function () {
        if (isTurn(form, turn)) buildSaid(form).textContent = said("build_no_answer");
      });
  }

  function askBuild(form) {
    var kept = sessionStorage.getItem(BUILD + form.getAttribute("data-build-kind"));
    if (kept) { followBuild(form, kept); return; }
    var turn = newTurn(form);
    buildSaid(form).textContent = said("asking_document");
    fetch(form.getAttribute("data-build"), {
      method: "POST", body: new FormData(form), credentials: "same-origin",
      headers: { Accept: "application/json" }
    }).then(function (response) {
      if (!isTurn(form, turn)) return;
      if (!response.ok) return buildRefused(form, response);
      return response.json().then(function (answer) {
        if (isTurn(form, turn)) showBuild(form, answer, turn);
      });
    }).catch(function () {
      if (isTurn(form, turn)) buildSaid(form).textContent = said("nothing_printed");
    });
  }

  function resumeBuilds() {
    document.querySelectorAll("form[data-build]").forEach(function (form) {
      // Built here and offered as a download link: no new tab opens.
      form.querySelectorAll("[data-new-tab]").forEach(function (words) { words.remove(); });
      var kept = sessionStorage.getItem(BUILD + form.getAttribute("data-build-kind"));
      if (kept) followBuild(form, kept);
    });
  }

  // ------------------------------------------------------------- players: search as you type
  // The seat form's name field asks the API for players whose name holds what is typed
  // (GET /api/v1/players?q=, with the screen's own sign-in cookie). Tapping one chooses it;
  // a name nobody has is offered as "Add <name> as a new player" (the seating then makes it).
  // Without this script the form still seats by name alone, as before players were kept.
  function playerSearch(box) {
    var input = box.querySelector("input[name=player]");
    var chosenId = box.querySelector("[data-player-id]");
    var chosenSaid = box.querySelector("[data-player-chosen]");
    var list = box.querySelector("[data-player-matches]");
    var asked = 0;
    var timer = null;
    if (!input || !chosenId || !list) return;

    function option(words, onTap) {
      var item = document.createElement("li");
      var button = document.createElement("button");
      button.type = "button";
      button.className = "player-match";
      button.textContent = words;
      button.addEventListener("click", onTap);
      item.appendChild(button);
      list.appendChild(item);
    }

    function choose(id, name, words) {
      chosenId.value = id;
      input.value = name;
      chosenSaid.textContent = words;
      list.textContent = "";
      list.classList.remove("searching");
    }

    function show(players, typed) {
      list.textContent = "";
      var exact = false;
      players.forEach(function (p) {
        if (p.name.toLowerCase() === typed.toLowerCase()) exact = true;
        // Two players may share a name: the card number, else the player number, tells them apart.
        var words = p.card_number
          ? said("player_card", { name: p.name, card: p.card_number })
          : said("player_numbered", { name: p.name, id: p.id });
        option(words, function () { choose(String(p.id), p.name, said("player_chosen", { player: words })); });
      });
      if (!exact) {
        option(said("add_player", { name: typed }), function () {
          choose(box.getAttribute("data-new-player"), typed, said("new_player", { name: typed }));
        });
      }
    }

    function search() {
      var typed = input.value.trim();
      var mine = ++asked;
      if (!typed) { list.textContent = ""; return; }
      var url = box.getAttribute("data-player-search") + "?q=" + encodeURIComponent(typed);
      fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
        .then(function (answer) { return answer.ok ? answer.json() : { players: [] }; })
        .then(function (found) { if (mine === asked) show(found.players || [], typed); })
        .catch(function () { list.textContent = ""; });
    }

    input.addEventListener("input", function () {
      chosenId.value = "";  // a changed name is no longer the player chosen
      // The list takes its room as the name is typed, not when the players found arrive: what
      // is below it (the buy-in, the button) must not move under a finger about to tap it.
      list.classList.toggle("searching", input.value.trim() !== "");
      chosenSaid.textContent = said("type_a_name");
      clearTimeout(timer);
      timer = setTimeout(search, 150);
    });
  }

  function start() {
    document.querySelectorAll("[data-pad], [data-pad-tools], [data-pin-pad]").forEach(function (pad) { pad.hidden = false; });
    document.querySelectorAll("[data-pad-target]").forEach(showEntered);
    choosePadTarget(document.querySelector("[data-default-target]"));
    if (lastCard && document.querySelector("[data-pad-again]")) {
      var again = document.querySelector("[data-pad-again]");
      again.disabled = false;
      again.innerHTML = '<span class="wide-words">' + said("again") + ' </span>' + faceHTML(lastCard);
    }
    showCalifornia();
    var first = document.querySelector("[autofocus]");
    if (first) first.focus({ preventScroll: true });
    document.querySelectorAll("[data-player-search]").forEach(playerSearch);
    refreshActions();
    resumeBuilds();
    offerKept();
    showQueue();
    showFates();
    shell();
    if (!draining) drain();
    resetIdle();
  }

  // For the browser tests: fire the idle sign-out now instead of waiting.
  window.dealer = { idleNow: idleNow };

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
  setTimeout(liveTick, 1000);
})();
