/* Parlour: playing from the phone without reloads. Every form on the status page is sent with
   fetch (the server answers JSON when asked for it, a redirect otherwise, so the page still works
   without JavaScript); the answer appears right under the control that was used. Irreversible
   forms ask first. The moves the game awaits are redrawn from each live state with the table the
   page carries (web/moves.py works out the same for the first render). A phone paired with a
   seat spins by a swipe or tap on the dial and is told when its turn comes. */
(function () {
  "use strict";
  var card, table = {}, pairing = {}, state = null, wasMyTurn = false, saidIn = null;
  var held = false;                 // a throw is being shown on the dial: nothing to press yet
  var SLOW_MS = 600;                // an answer slower than this: "Sending…" meanwhile
  var GIVE_UP_MS = window.PARLOUR_GIVE_UP_MS || 10000;   // no answer by then: the table is asked
  // A double tap's second touch landed on the move the first one's answer drew in its place
  // (India's "Confirm" where the claim was, the next player's throw where "End turn" was) and
  // named the state it was drawn on, so the table took it: the game ended on a confirmation
  // no one saw. As the box holds the same press again this long (AGAIN_SECONDS in
  // firmware/controller/notices.py), a move drawn in another's place while this page's move
  // is on its way, or this soon after its answer, takes no tap until shown this long.
  var AGAIN_MS = 1200;
  var HELD_NOTE_MS = window.PARLOUR_HELD_NOTE_MS || 5000;   // "Not taken: ..." stays so long
  var moving = 0, movedAt = -Infinity;   // moves sent, not answered yet; the last answer's time
  var drawn = [];                        // the moves drawn, in order, each with its game and turn

  function $(id) { return document.getElementById(id); }
  function make(tag, cls, content) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (content !== undefined) node.textContent = content;
    return node;
  }
  function csrf() { return card ? card.getAttribute("data-csrf") : ""; }
  function mode() { return card ? card.getAttribute("data-mode") : "seat"; }

  /* -- answers where the player looks ------------------------------------------------------ */

  function answerFor(form) {
    if (form.closest("#moves-card")) return $("moves-answer");
    var next = form.nextElementSibling;
    if (!next || !next.classList.contains("answer")) {
      next = make("p", "answer");
      next.setAttribute("role", "status");
      next.setAttribute("aria-live", "polite");
      form.parentNode.insertBefore(next, form.nextSibling);
    }
    return next;
  }

  // A typed value refused (a wrong PIN, a pairing code): its field is marked invalid and
  // described by the answer, which a screen reader then reads with the field.
  function judged(input, answer, ok) {
    if (!input) return;
    if (!answer.id) answer.id = input.id ? input.id + "-answer" : "typed-answer";
    if (ok) {
      input.removeAttribute("aria-invalid");
      input.removeAttribute("aria-describedby");
    } else {
      input.setAttribute("aria-invalid", "true");
      input.setAttribute("aria-describedby", answer.id);
    }
  }

  function say(node, words, ok, ledTo) {
    node.textContent = words;
    node.className = "answer " + (ok ? "ok" : "bad");
    node.hidden = !words;
    node.removeAttribute("data-pending");
    if (words && node.scrollIntoView) node.scrollIntoView({block: "nearest"});
    // the answer to a move stays for the turn the move led to, then goes (not 13 turns on);
    // the server says which turn that is, as the live state may come before or after it
    var now = ledTo && "turn" in ledTo ? ledTo : state;
    saidIn = words && node.id === "moves-answer" && now ?
      {game: now.game_id, turn: now.turn, lines: logLength(now)} : saidIn;
    // the live state can come before the answer: the Pi's reply (or more) is shown already
    if (words && node.id === "moves-answer" && now && newer(state, now.state || now)) {
      answerMovedOn(state);
    }
    // any other control's answer ("Taken back: ...", "Not done: ...") stays until the game
    // changes from the state it led to (it stayed through every turn after, two at once)
    var led = now && (now.state || now);
    if (node.id !== "moves-answer" && words && led && led.state_version !== undefined) {
      node.setAttribute("data-led-to", led.game_id + ":" + led.state_version);
    } else if (node.id !== "moves-answer") {
      node.removeAttribute("data-led-to");
    }
  }

  // "Sending…" until the answer comes: no state the stream brings meanwhile takes it down (on a
  // slow link the throw shows before its answer, which may yet say it was not done).
  function sending(node) {
    say(node, "Sending…", true);
    node.setAttribute("data-pending", "");
    node.removeAttribute("data-led-to");
  }

  function pastAnswers(s) {            // the answers of a game state that is no longer the table's
    document.querySelectorAll(".answer[data-led-to]").forEach(function (node) {
      if (node.getAttribute("data-led-to") !== s.game_id + ":" + s.state_version) say(node, "", true);
    });
  }

  function newer(s, than) {            // a later state of the same run of the table
    return !!s && !!than && s.boot === than.boot && s.state_version > than.state_version;
  }

  function logLength(now) {            // the log's lines in the state an answer led to
    var log = (now.state || now).log;
    return log ? log.length : null;
  }

  function friendly(status, body) {
    if (body && (body.message || body.error)) return body.message || body.error;
    if (status === 429) return "Too many tries: wait a minute.";
    return "The table did not answer (" + status + "): try again.";
  }

  function mark(s) { return window.ParlourState.mark(s); }   // "<boot>:<state_version>"

  // An action refused because the table had moved on (web/seen.py), when what moved it on
  // was an undo: the lines taken back since the state it was asked on, as the box says them.
  function tookBack(asked, now) {
    var was = (asked && asked.log) || [], is = now.log || [];
    if (!asked || asked.game_id !== now.game_id) return null;
    var same = 0;
    while (same < is.length && same < was.length && is[same] === was[same]) same++;
    if (same === was.length) return null;                 // only added to: moved on
    var latest = is.length ? window.ParlourState.phoneWords(is[is.length - 1]) : "";
    return "Not done: taken back meanwhile: " + was.slice(same).join("; ") + "." +
      (latest ? " Now: " + latest + (/[.!?)]$/.test(latest) ? "" : ".") : "");
  }

  // After no answer: whether the game changed since the action was sent (it may have been
  // done, and the log says so) or not (sending again is safe: an action names the state it
  // was asked on, and the table does it on that state only).
  function noAnswer(answer, sent) {
    function since(now) {
      if (mark(now) !== sent) {
        say(answer, "No answer from the table, and the game has changed since: read the log " +
          "before you send it again.", false);
      } else {
        say(answer, "No answer from the table, and nothing has changed yet: if the log does " +
          "not show it in a moment, send it again.", false);
      }
    }
    return window.ParlourState.refresh().then(since).catch(function () {
      // the question went unanswered too; the stream may have brought a change meanwhile (a
      // slow link: the throw shown, its answer still on the way), and the page shows it
      if (mark(newest()) !== sent) since(newest());
      else say(answer, "No answer from the table: check the Wi-Fi, then the log, and send it " +
        "again if it is not there.", false);
      window.ParlourState.unreachable();         // the status line says so too, not "Live"
    });
  }

  // The newest state the page holds (a throw still spinning on the dial included): what an
  // action is asked on. An action's answer carries the state it led to, taken at once, so a
  // second action of one's own is asked on the first one's result.
  function newest() {
    return (window.ParlourState && window.ParlourState.latest()) || state;
  }

  function acts(form) {                // the table's actions, not signing in or out
    var path = new URL(form.action, window.location.href).pathname;
    return /^\/control\/(?!login$|logout$)[a-z-]+$/.test(path);
  }

  // A control that cannot be pressed now (sent, or a throw still spinning) says so with
  // aria-disabled and ignores presses: a disabled button would drop the player's focus.
  function block(button, on) {
    if (on) button.setAttribute("aria-disabled", "true");
    else button.removeAttribute("aria-disabled");
  }
  function blocked(button) { return !!button && button.getAttribute("aria-disabled") === "true"; }

  // A move drawn where another was, just after this page's own move: not yet (AGAIN_MS).
  function holdBack(button, until) {
    button.setAttribute("data-again", String(until));
    block(button, true);
    setTimeout(function () {
      button.removeAttribute("data-again");
      block(button, held || button.form.hasAttribute("data-sending"));
    }, until - Date.now());
  }
  function heldBack(button) { return !!button && button.hasAttribute("data-again"); }

  // A tap on a move held back is said under the moves (the answer line keeps the move's own
  // answer): a second tap meant for the new move is then made again, knowingly.
  var heldNote = null;
  function notTaken() {
    var note = $("moves-held");
    if (!note) return;
    note.textContent = "Not taken: the moves had just changed. Tap again if you meant it.";
    note.hidden = false;
    clearTimeout(heldNote);
    heldNote = setTimeout(notTakenGone, HELD_NOTE_MS);
  }
  function notTakenGone() {
    clearTimeout(heldNote);
    if ($("moves-held")) $("moves-held").hidden = true;
  }
  function shown(node) { return !!node && node.getClientRects().length > 0; }

  // Focus that was inside `box` before it changed and is now lost (on <body>): put it on the
  // first of `places` that can be seen (a node with no tabindex of its own gets -1).
  function focusLost() {
    var now = document.activeElement;
    return !now || now === document.body || !now.isConnected;
  }
  function refocus(places) {
    places.some(function (node) { return window.ParlourState.focusOn(node); });
  }

  function send(form, submitter, confirmed) {
    var data = new FormData(form);
    if (submitter && submitter.name) data.append(submitter.name, submitter.value);
    var asked = newest(), seen = mark(asked);
    if (acts(form) && seen) data.set("seen", seen);
    var answer = answerFor(form);
    clearTimeout(answer.later);         // a throw's answer still waiting for its dial is no
    answer.later = null;                // longer news: this newer action's answer is
    var buttons = form.querySelectorAll("button");
    var hadFocus = confirmed || form.contains(document.activeElement);
    var move = !!form.closest("#moves");
    if (move) { moving++; notTakenGone(); }         // a tap taken: "Not taken" is past
    form.setAttribute("data-sending", "");
    buttons.forEach(function (b) { block(b, true); });
    var slow = setTimeout(function () { sending(answer); }, SLOW_MS);
    var stop = window.AbortController ? new AbortController() : null;
    var late = setTimeout(function () { if (stop) stop.abort(); }, GIVE_UP_MS);
    return fetch(form.action, {method: "POST", body: data, credentials: "same-origin",
      headers: {"Accept": "application/json", "X-Parlour-Clock": String(Date.now())},
      signal: stop ? stop.signal : undefined}).then(function (r) {
      clearTimeout(slow);
      clearTimeout(late);
      return r.json().catch(function () { return null; }).then(function (body) {
        var ok = r.ok && body && body.ok !== false;
        // the state it led to (a throw of one's own spins); a refusal's is the table as it is
        if (body && body.state && window.ParlourState) window.ParlourState.offer(body.state, ok);
        var words = ok ? (body.message || "Done") : friendly(r.status, body);
        if (r.status === 409 && body && body.state) words = tookBack(asked, body.state) || words;
        if (ok && window.ParlourState.answered) window.ParlourState.answered(words);   // said here
        if (ok && body.after > 0) {          // a throw: told when the dial stops, not before
          say(answer, "", ok);
          answer.later = setTimeout(function () {
            answer.later = null;
            say(answer, words, ok, body);
          }, body.after * 1000);
        } else if (r.status === 409) {     // the table moved on: the refusal names what it
          say(answer, "", ok);               // is now, once a throw that spins here has shown
          var waits = answer.later = {};
          window.ParlourState.whenStill(function () {
            if (answer.later === waits) { answer.later = null; say(answer, words, ok, body); }
          });
        } else {
          say(answer, words, ok, body);
        }
        if (form.id === "login") judged(form.querySelector("input[name=pin]"), answer, ok);
        if (form.id === "login" && !ok) {      // hidden dots: typed again, not mended
          form.querySelector("input[name=pin]").value = "";
          form.querySelector("input[name=pin]").focus();
        }
        if (ok && (form.id === "login" || form.id === "logout")) window.location.reload();
        if (!ok && body && body.signed_out) window.location.reload();   // a new PIN: sign in again
        if (ok && form.id === "new-game") {     // the next game's form starts empty: a name
          form.reset();                         // left there joined a game it was not ticked for
          var chosen = $("game-choice");        // the options shown follow the game it resets to
          if (chosen) chosen.dispatchEvent(new Event("change"));
          form.closest("details").open = false;
          var title = $("title");               // and the page goes to the game just begun,
          if (title) {                          // not the closed form at its foot
            title.setAttribute("tabindex", "-1");
            title.focus({preventScroll: true});
            var still = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
            window.scrollTo({top: 0, behavior: still ? "auto" : "smooth"});
          }
        }
        return ok;
      });
    }).catch(function () {
      clearTimeout(slow);
      clearTimeout(late);
      return noAnswer(answer, seen);
    }).then(function (ok) {
      form.removeAttribute("data-sending");
      buttons.forEach(function (b) { block(b, held && move || heldBack(b)); });
      if (move) { moving--; movedAt = Date.now(); }
      // the form may be gone or hidden by what it did (a game set aside): the answer, or
      // the nearest thing still shown, takes the focus rather than the page's top
      if (hadFocus && focusLost()) {
        var details = form.closest("details");
        refocus([answer, details && details.querySelector("summary"), form.closest("section")]);
      }
      return ok;
    });
  }

  /* -- asking before what cannot be taken back ------------------------------------------- */

  function declaration(form) {            // "Ben resigns: Ann wins. End the game now? ..."
    var players = (state && state.players) || [];
    var chosen = Array.prototype.map.call(form.querySelectorAll("input[name=winners]:checked"),
      function (input) { return Number(input.value); });
    var names = chosen.map(function (s) { return (players[s] || {}).name || "?"; });
    var final = " A finished game cannot be taken back.";
    if (form.querySelector("input[type=radio]") && chosen.length === 1 && players.length === 2) {
      return players[1 - chosen[0]].name + " resigns: " + names[0] + " wins. End the game now?" + final;
    }
    if (!names.length) return "End the game with no winner?" + final;
    var who = names.length === 1 ? names[0] + " wins"
      : window.ParlourState.listing(names) + " share the win";
    return who + ". End the game now?" + final;
  }

  function question(form) {
    if (form.id === "declare") return declaration(form);
    var always = form.getAttribute("data-confirm");
    if (always) return always;
    var playing = form.getAttribute("data-confirm-playing");
    if (playing && state && state.game && state.phase !== "over") return playing;
    var setup = form.id === "new-game" && state && state.setup;   // players joining at the box
    if (setup) {
      var joined = setup.players.length ? " (" + window.ParlourState.listing(setup.players) +
        " joined)" : "";
      return setup.title + " is being set up at the box" + joined + ". Start this game instead?";
    }
    return null;
  }

  function ask(form, words, go) {
    var box = form.querySelector(".confirm");
    if (box) box.remove();
    box = make("div", "confirm");
    box.setAttribute("role", "alertdialog");
    var said = make("p", "", words);
    said.id = "confirm-" + (form.id || "question");
    box.setAttribute("aria-labelledby", said.id);         // the question names the dialog
    box.appendChild(said);
    var playing = state && state.game && state.phase !== "over";
    var yes = make("button", "danger", form.id === "new-game" && !playing ? "Start this one"
      : form.getAttribute("data-yes") || "Yes");
    yes.type = "button";
    var no = make("button", "quiet", "No, go back");
    no.type = "button";
    // the box goes with the focused button: the focus goes back to the control that asked
    var back = function () {
      var from = form.querySelector('button[type="submit"]');
      box.remove();
      if (from && shown(from)) from.focus();
    };
    yes.addEventListener("click", function () { back(); go(); });
    no.addEventListener("click", back);
    box.addEventListener("keydown", function (e) {        // Escape is "No, go back"
      if (e.key === "Escape") { e.preventDefault(); back(); }
    });
    var row = make("div", "row");
    row.append(yes, no);
    box.appendChild(row);
    form.appendChild(box);
    yes.focus();
    if (box.scrollIntoView) box.scrollIntoView({block: "center"});
  }

  function onSubmit(event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || form.method !== "post") return;
    event.preventDefault();
    var submitter = event.submitter;
    if (heldBack(submitter)) return notTaken();
    if (blocked(submitter) || form.hasAttribute("data-sending")) return;   // not now
    var words = question(form);
    if (words) ask(form, words, function () { send(form, submitter, true); });
    else send(form, submitter);
  }

  /* -- the moves the game awaits ---------------------------------------------------------- */

  function choices(s) {
    var p = (s.players || [])[s.turn];
    if (s.awaiting !== "choose" || !p) return [];
    return (p.covered || []).filter(function (v, i, all) {
      return typeof v === "number" && all.indexOf(v) === i;
    }).sort(function (a, b) { return a - b; });
  }

  var ORDINAL = {7: "seventh", 8: "eighth", 9: "ninth", 10: "tenth", 11: "eleventh"};
  function uncoverMeaning(s, value) {  // the same as web/domino.py's uncover_meaning() (D2)
    var player = (s.players || [])[s.turn] || {}, last = s.last_uncovered;
    if (typeof last !== "number") return ["opens the game", "Uncover a " + value + ": it opens the game; nothing moves"];
    var total = value + last, short = value + "+" + last + "=" + total;
    var said = "Uncover a " + value + ": " + value + " + " + last + " = " + total;
    var where = (player.checkers || {})[String(total)];
    if (!ORDINAL[total] || ["rex", "domino", "crowned"].indexOf(where) < 0) {
      return [short + ": no checker", said + ", no checker moves"];
    }
    var checker = (player.name || "") + "'s " + ORDINAL[total] + " checker";
    if (where === "rex") return [short + ": into Domino", said + ": " + checker + " goes into Domino"];
    if (where === "domino") return [short + ": home, Rex!", said + ": " + checker + " goes home and is crowned. Rex!"];
    return [short + ": crowned already", said + ": " + checker + " is crowned already; nothing moves"];
  }

  function diamondPress(s) {           // the same as web/moves.py's diamond_press() (LD2)
    var turn = s.turn, carrier = s.diamond, spun = !!s.instruction;
    if (s.awaiting === "roll" && carrier !== turn) {
      return carrier === "square" ? "Field move: take the diamond (if it reaches)"   // a move
        : "Field move: capture the diamond (if it reaches)";       // that reaches it, said so
    }
    if (s.awaiting !== "next") return null;
    if (s.home_claim === turn) return "Confirm: home with the diamond";
    if (spun && carrier === turn) return "Home with the diamond";
    if (spun && carrier !== "square" && carrier !== null && carrier !== undefined) return "Capture the diamond";
    return null;
  }

  // The Pi answered the move this answer tells of (its turn came, and went): the answer stays
  // for the turn after, with what the Pi did, shown (a screen reader hears it from the page's
  // news); the Pi answers in a moment and the player's own answer was gone before it was read.
  function piReply(s) {
    var players = s.players || [], answer = $("moves-answer"), log = s.log || [];
    if (!saidIn || s.game_id !== saidIn.game || !players[saidIn.turn] || !players[saidIn.turn].pi ||
        !answer || answer.hidden || typeof saidIn.lines !== "number" || !(log.length > saidIn.lines) ||
        s.last_by !== "pi") {          // someone else moved too: not the Pi's reply alone
      return false;
    }
    var stop = /[.!?:)]$/.test(answer.textContent.trim()) ? "" : ".";   // "The Pi moves. Then:"
    var lines = log.slice(saidIn.lines).map(function (line) {   // whole sentences, each
      return /[.!?:)]$/.test(line) ? line : line + ".";
    });
    var then = make("span", "then", stop + " Then: " + lines.join(" "));
    then.setAttribute("aria-hidden", "true");
    answer.appendChild(then);
    saidIn = {game: s.game_id, turn: s.turn, lines: log.length};
    return true;
  }

  // The game moved on from the turn the answer stays for: the Pi's reply to it is added to
  // the answer; anything else makes the answer the past.
  function answerMovedOn(s) {
    var node = $("moves-answer");
    if (node && node.hasAttribute("data-pending")) { saidIn = null; return; }   // "Sending…" stays
    if (saidIn && (s.game_id !== saidIn.game || s.turn !== saidIn.turn || logMoved(s))) {
      if (!piReply(s)) {
        saidIn = null;
        say(node, "", true);                        // another turn or move: the answer is the past
      }
    }
  }

  // The game went on (or back) within the turn the answer led to: a throw again, a lost turn,
  // the box's throw, an undo. The answer then describes the past, as after another turn.
  function logMoved(s) {
    return typeof saidIn.lines === "number" && (s.log || []).length !== saidIn.lines;
  }

  function piTurn(s) {                 // the same as web/moves.py's pi_turn(): no phone moves for it
    var players = s.players || [], turn = s.turn;
    return ["over", "idle", null, undefined].indexOf(s.phase) < 0 && typeof turn === "number" &&
      turn >= 0 && turn < players.length && !!players[turn].pi;
  }

  function moves(s, seat) {            // the same as web/moves.py's moves()
    var info = table[s.game || ""], turn = s.turn, awaiting = s.awaiting, players = s.players || [];
    if (piTurn(s) && s.taken_back) return [{action: "pi-move", label: "Let the Pi move"}];  // asked
    if (!info || s.phase === "over" || turn === null || turn === undefined || piTurn(s)) return [];
    var mine = seat === null || seat === turn, out = [];
    if (awaiting === "roll" && mine) {
      var dice = s.randomizer || {};
      out.push({action: "roll", label: dice.kind !== "dice" ? "Spin" :
        dice.count === 1 ? "Throw the die" : "Throw the dice"});
      if (info.next_before_roll && s.phase === "play") {           // not in the lead
        out.push({action: "next", label: info.next_before_roll});
      }
    }
    if (awaiting === "choose" && mine) {
      choices(s).forEach(function (v) {
        var meaning = uncoverMeaning(s, v);
        out.push({action: "choose", value: v, label: String(v), detail: meaning[0], said: meaning[1]});
      });
    }
    if (info.diamond && s.phase === "play") {
      var label = diamondPress(s);
      if (label && mine) out.push({action: "press", seat: turn, label: label});
    } else if (info.press && s.phase === "play") {
      var seats = info.press_any ? players.map(function (p, i) { return i; })
        : info.press_seats.length ? info.press_seats.filter(function (x) { return x === turn; })
        : awaiting === "next" && s.presses_left !== 0 ? [turn] : [];   // G3, M3: its limit
      seats.forEach(function (x) {
        if (seat === null || x === seat) {
          out.push({action: "press", seat: x,
            label: info.confirm && s.home_claim === x ? info.confirm      // P2: a claim's
              : info.press + (info.press_any ? " for " + players[x].name : "")});
        }
      });
    }
    if (awaiting === "next" && info.next && mine) out.push({action: "next", label: info.next});
    return out;
  }

  function mySeat(s) {
    if (pairing.button === null || pairing.button === undefined) return null;
    var players = s.players || [];
    for (var i = 0; i < players.length; i++) {
      var b = typeof players[i].button === "number" ? players[i].button : i + 1;
      if (b === pairing.button && !players[i].pi) return i;   // the Pi's seat is no phone's
    }
    return null;
  }

  // A phone signed in with the PIN moves for anyone; paired with a seat too, on another's turn
  // its buttons say for whom ("Throw the dice for Ann"): it read as this phone's own throw.
  // A button that names its player already ("A point for Ann") is left as it is; one that says
  // what it does ("Confirm: a man is home and wins") says for whom before the colon.
  function forWhom(s, seat, list) {
    var players = s.players || [];
    if (seat === null || s.turn === seat || !players[s.turn]) return list;
    return list.map(function (m) {
      var whom = players[typeof m.seat === "number" ? m.seat : s.turn];
      if (m.action === "choose" || m.action === "pi-move" || !whom ||
          (typeof m.seat === "number" && m.label.indexOf(whom.name) >= 0)) return m;
      var colon = m.label.indexOf(":");
      return Object.assign({}, m, {label: colon < 0 ? m.label + " for " + whom.name
        : m.label.slice(0, colon) + " for " + whom.name + m.label.slice(colon)});
    });
  }

  function moveForm(m) {
    var form = make("form", m.action === "choose" ? "move uncover" : "move");
    form.method = "post";
    form.action = "/control/" + m.action;
    [["csrf", csrf()], ["seat", m.seat], ["value", m.value]].forEach(function (f) {
      if (f[1] === undefined) return;
      var input = make("input"); input.type = "hidden"; input.name = f[0]; input.value = String(f[1]);
      form.appendChild(input);
    });
    var button = make("button", m.action === "choose" ? "square" : "", m.action === "choose" ? undefined : m.label);
    button.type = "submit";
    block(button, held);                  // drawn while a throw still spins: not yet
    button.setAttribute("data-action", m.action);
    if (m.action === "choose") {          // its spots, what it does; said whole, not "4"
      var detail = make("span", "detail");      // "4+3=7" over "into Domino"
      m.detail.split(": ").forEach(function (part) { detail.appendChild(make("span", "", part)); });
      button.append(make("span", "spots", m.label), " ", detail);
      button.setAttribute("aria-label", m.said);
    }
    form.appendChild(button);
    return form;
  }

  function offeredHere(s) {           // this phone's moves: all with the PIN, its seat's if paired
    var seat = mySeat(s);
    return mode() === "pin" ? forWhom(s, seat, moves(s, null)) : seat === null ? [] : moves(s, seat);
  }

  function asks(s) {                  // it offers "Let the Pi move" (web/pages.py's prompt too)
    return offeredHere(s).some(function (m) { return m.action === "pi-move"; });
  }

  function renderMoves(s) {
    if (!card) return;
    var seat = mySeat(s), list = offeredHere(s);
    var box = $("moves");
    var key = JSON.stringify([s.game_id, s.turn, list]);
    if (box.getAttribute("data-key") !== key) {
      var focused = box.contains(document.activeElement) ? document.activeElement : null;
      var forms = document.createDocumentFragment();
      // a move where the same move was (a capture or a point counted again) takes the next
      // tap; one in another's place just after this page's move waits (AGAIN_MS)
      var was = drawn, before = box.querySelectorAll("button"), now = Date.now();
      var soon = moving > 0 || now - movedAt < AGAIN_MS;
      drawn = list.map(function (m) { return JSON.stringify([s.game_id, s.turn, m]); });
      list.forEach(function (m, i) {
        var form = moveForm(m), until = was[i] !== drawn[i] ? (soon ? now + AGAIN_MS : 0) :
          Number(before[i] && before[i].getAttribute("data-again"));   // held there: still
        if (until > now) holdBack(form.querySelector("button"), until);
        forms.appendChild(form);
      });
      box.replaceChildren(forms);
      box.setAttribute("data-key", key);
      if (focused) {                      // the player was on a move: keep them on the moves
        var action = focused.getAttribute("data-action");
        refocus([box.querySelector('button[data-action="' + action + '"]'),
          box.querySelector("button"), $("moves-answer"), card]);
      }
    }
    card.hidden = mode() === "pin" && !s.game &&        // signed in, no game: nothing to do
      (pairing.button === null || pairing.button === undefined);   // unless its pairing shows
    var hint = ((s.odds || {}).hint || {}).text, hinted = !!hint && list.some(function (m) {
      return m.action === "choose"; });      // web/domino.py's hint_text()
    $("hint").hidden = !hinted;
    var hintWords = hinted ? hint.charAt(0).toUpperCase() + hint.slice(1) : "";
    if (hinted && $("hint-text").textContent !== hintWords) $("hint-text").textContent = hintWords;
    var hintFor = "A hint" + (hinted && s.players[s.turn] ? " for " + s.players[s.turn].name : "");
    if (hinted && $("hint-for").textContent !== hintFor) $("hint-for").textContent = hintFor;
    var myTurn = seat !== null && s.turn === seat && s.phase !== "over" && !!s.awaiting;
    var banner = $("your-turn");
    var turnWords = "Your turn" + (seat !== null && s.players[seat] ? ", " + s.players[seat].name : "");
    // an alert is said again whenever it is written: only when its words change
    if (banner.textContent !== turnWords) banner.textContent = turnWords;
    if (banner.hidden !== !myTurn) banner.hidden = !myTurn;
    // a page that has not been touched may not vibrate (the browser logs its refusal)
    var touched = !navigator.userActivation || navigator.userActivation.hasBeenActive;
    if (myTurn && !wasMyTurn && navigator.vibrate && touched) {
      try { navigator.vibrate([180, 90, 180]); } catch (e) { /* not allowed here */ }
    }
    wasMyTurn = myTurn;
    var mark = "Your turn · ";
    if (myTurn && document.title.indexOf(mark) !== 0) document.title = mark + document.title;
    if (!myTurn && document.title.indexOf(mark) === 0) document.title = document.title.slice(mark.length);
    var roll = $("roll");
    var canRoll = list.some(function (m) { return m.action === "roll"; });
    roll.classList.toggle("can-spin", canRoll);
    spinHint(canRoll && list.filter(function (m) { return m.action === "roll"; })[0].label);
    if (canRoll) {
      roll.hidden = false;
      if (!s.last_roll && window.ParlourDial) {
        var r = s.randomizer || {};
        var blank = [];
        for (var i = 0; i < (r.count || 1); i++) blank.push(r.kind === "dice" ? "?" : 1);   // no throw yet: blank dice
        window.ParlourDial.draw($("dial"), {values: blank}, r, false);
      }
    }
  }

  /* -- the drawn dial: a swipe or a tap spins ---------------------------------------------- */

  // Under the dial, while it can be spun: the swipe or tap shown to the eye, and to a screen
  // reader (the dial's caption names it) the button the keyboard uses, as it is labelled.
  function spinHint(label) {
    var hint = $("spin-hint"), shown = !!($("roll-text").textContent || "").trim();
    if (!hint) return;
    hint.hidden = !label;
    if (!label) return;
    var throws = /^throw/i.test(label);    // dice are thrown, the Indicator spun: as the button says
    var gesture = !throws ? "swipe or tap the dial to spin"
      : "swipe or tap the " + (/\bdie\b/.test(label) ? "die" : "dice") + " to throw";
    $("spin-pointer").textContent = shown ? " · " + gesture : gesture.charAt(0).toUpperCase() + gesture.slice(1);
    $("spin-keys").textContent = (shown ? ". " : "") + "The \u201c" + label + "\u201d button, below, " +
      (/^throw/i.test(label) ? "throws" : "spins");
  }

  function spinFromDial() {
    var button = document.querySelector('#moves button[data-action="roll"]');
    if (heldBack(button)) notTaken();
    else if (button && !blocked(button)) button.form.requestSubmit(button);
  }

  // While the dial shows a throw the page has not revealed yet, the moves it offers are the
  // ones before that throw: none can be pressed (a second tap would act for the next turn).
  function hold(on) {
    held = !!on;
    document.querySelectorAll("#moves button").forEach(function (b) { block(b, held || heldBack(b)); });
    var roll = $("roll");
    if (roll && held) { roll.classList.remove("can-spin"); spinHint(null); }
    if (!held && state) renderMoves(state);
  }

  function watchDial() {
    var roll = $("roll"), start = null;
    roll.addEventListener("pointerdown", function (e) {
      if (roll.classList.contains("can-spin")) start = {x: e.clientX, y: e.clientY};
    });
    roll.addEventListener("pointerup", function () {
      if (start) { start = null; spinFromDial(); return; }
      var why = notYourSpin(state);
      if (why) say($("moves-answer"), why, false);      // a tap out of turn did nothing, unsaid
    });
    roll.addEventListener("pointercancel", function () { start = null; });
  }

  // Why the dial did not spin for a paired phone's tap: another player's throw (the server
  // says the same, "It is Ann's turn, not yours.", to a throw sent out of turn).
  function notYourSpin(s) {
    var seat = s ? mySeat(s) : null, player = s && (s.players || [])[s.turn];
    if (held || !card || mode() === "pin" || seat === null || !player || s.phase === "over" ||
        s.turn === seat || s.awaiting !== "roll" || piTurn(s)) return "";
    return "It is " + player.name + "'s turn, not yours.";
  }

  /* -- pairing with a seat button ---------------------------------------------------------- */

  function showPairing() {
    var paired = pairing.button !== null && pairing.button !== undefined;
    $("pairing").hidden = false;
    $("paired-line").hidden = !paired;
    $("paired-button").textContent = paired ? String(pairing.button) : "";
    var seat = pairedName();
    $("paired-idle").hidden = !(paired && state && state.game && seat === null);  // not playing
    $("pair-form").hidden = paired;
    $("unpair-button").hidden = !paired;
    if (state) renderMoves(state);
    if (window.ParlourBoard && window.ParlourBoard.refresh) window.ParlourBoard.refresh();
  }

  function pairedName() {                // the paired seat's name in today's game, renamed too;
    var paired = pairing.button !== null && pairing.button !== undefined;   // its seat, if any
    var seat = state && paired ? mySeat(state) : null;
    var who = seat !== null && state.players[seat] ? state.players[seat].name : "";
    var words = who ? " (" + who + ")" : "";
    if ($("paired-name").textContent !== words) $("paired-name").textContent = words;
    return seat;
  }

  function pairCall(method, path, body) {
    var headers = {"Accept": "application/json", "X-Parlour-Csrf": csrf(),
      "X-Parlour-Clock": String(Date.now())};
    if (body) headers["Content-Type"] = "application/json";
    return fetch(path, {method: method, credentials: "same-origin", headers: headers,
      body: body ? JSON.stringify(body) : undefined}).then(function (r) {
      return r.json().then(function (body) {
        if (!r.ok) throw new Error(friendly(r.status, body));
        return body;
      });
    });
  }

  function pairWithCode(event) {          // the code the box shows for the player's seat
    event.preventDefault();
    var input = $("pair-code");
    pairCall("POST", "/api/pair", {code: input.value}).then(function (p) {
      pairing = p;
      input.value = "";
      showPairing();
      say($("pair-answer"), "Paired: this phone plays seat button " + p.button +
        (p.name ? " (" + p.name + ")" : "") + ".", true);
      judged(input, $("pair-answer"), true);
    }).catch(function (err) {
      say($("pair-answer"), err.message, false);
      judged(input, $("pair-answer"), false);
    });
  }

  // Asked when the stream says a phone was paired or unpaired (at the box, or in another tab
  // of this phone), and when it comes back: a seat lost shows at once, not at the next tap.
  function askPairing() {
    if (!card) return;
    pairCall("GET", "/api/pair").then(function (p) {
      var was = pairing.button, now = p.button;
      var had = was !== null && was !== undefined, has = now !== null && now !== undefined;
      pairing = p;
      if (had === has && (!has || was === now)) return;
      showPairing();
      say($("pair-answer"), has ? "Paired: this phone plays seat button " + now +
        (p.name ? " (" + p.name + ")" : "") + "." : "Unpaired: this phone no longer plays a " +
        "seat. Pair it again at the box (Menu, \"Pair a phone\") to play from here.", has);
    }).catch(function () { /* asked again at the next change or reconnection */ });
  }

  function unpair() {
    pairCall("POST", "/api/pair/forget").then(function (p) {
      pairing = p;
      showPairing();
      say($("pair-answer"), "Unpaired: this phone no longer plays a seat.", true);
    }).catch(function (err) { say($("pair-answer"), err.message, false); });
  }

  /* -- links to keep a finished game ------------------------------------------------------- */

  var linksFor = null;
  function renderOver(s) {
    var box = $("over-links");
    if (!box) return;
    if (s.phase !== "over" || s.game_id === null || s.game_id === undefined) { box.hidden = true; return; }
    if (linksFor === s.game_id) return;
    linksFor = s.game_id;
    var soon = moving > 0 || Date.now() - movedAt < AGAIN_MS;   // this page's move ended it
    fetch("/api/games/" + s.game_id + "/record", {cache: "no-store"}).then(function (r) {
      return r.ok ? r.json() : null;
    }).then(function (record) {
      if (!record) return;
      $("record-link").href = "/api/games/" + s.game_id + "/record";
      var bg = $("bg-stats-link");
      bg.hidden = !record.bg_stats;
      if (record.bg_stats) {
        bg.href = record.bg_stats;
        if (window.ParlourTime) window.ParlourTime.bgStatsHere(bg, record.started);   // localtime.js
      }
      box.hidden = false;
      // shown where the move that ended the game was: its double tap's second touch went to
      // BG Stats, off the page
      if (soon) holdLinks(box);
    }).catch(function () { linksFor = null; });
  }

  function holdLinks(box) {
    var links = box.querySelectorAll("a");
    links.forEach(function (a) { a.setAttribute("aria-disabled", "true"); });
    setTimeout(function () {
      links.forEach(function (a) { a.removeAttribute("aria-disabled"); });
    }, AGAIN_MS);
  }

  function commitmentWords(s) {
    var kind = (s.randomizer || {}).kind, words = $("commitment-words");
    if (words) words.textContent = kind === "dice" ? "Dice commitment" : kind ? "Spin commitment" : "Commitment";
  }

  function update(s) {
    var gameChanged = !state || state.game_id !== s.game_id;
    state = s;
    pastAnswers(s);
    answerMovedOn(s);
    if (gameChanged && card) showPairing();          // the paired seat's name in this game
    else if (card) pairedName();                     // (a rename)
    var playing = !!s.game && s.phase !== "over";     // a game over takes no undo, ending,
                                                      // correction or rename (X11)
    if ($("quick-actions")) $("quick-actions").hidden = !playing;
    if ($("declare-box")) $("declare-box").hidden = !playing || s.phase === "lead" ||   // refused
      !(table[s.game || ""] || {}).declare;                                           // then
    if ($("end-box")) $("end-box").hidden = !playing;
    if ($("transfer-box")) $("transfer-box").hidden = !playing || !(table[s.game || ""] || {}).chips;
    if ($("rename-box")) $("rename-box").hidden = !playing;   // X11: a game over is final
    renderMoves(s);
    renderOver(s);
    commitmentWords(s);
  }

  function start() {
    card = $("moves-card");
    try { table = JSON.parse($("game-moves").textContent); } catch (e) { table = {}; }
    try { pairing = JSON.parse($("pairing-state").textContent); } catch (e) { pairing = {}; }
    document.addEventListener("submit", onSubmit);
    var over = $("over-links");
    if (over) over.addEventListener("click", function (e) {   // held back: not yet (holdLinks)
      if (e.target.closest && e.target.closest('a[aria-disabled="true"]')) e.preventDefault();
    });
    if (card) {
      showPairing();
      $("pair-form").addEventListener("submit", pairWithCode);
      $("unpair-button").addEventListener("click", unpair);
      watchDial();
    }
    try { update(JSON.parse($("initial-state").textContent)); } catch (e) { /* keep the page */ }
  }

  window.ParlourMoves = {update: update, hold: hold, offered: moves, piTurn: piTurn,
    seatIn: mySeat, asks: asks, askPairing: askPairing};
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
