/* The board of a game the companion knows (Fox and Geese), drawn as SVG from the state JSON's
   `board`: the 33 points and their lines, the pieces, the last move as an arrow. With the PIN,
   tap a piece of the side to move, then where it goes (each point of a jump chain in turn);
   the move goes to POST /api/control/move and the table refuses anything illegal. */
(function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg", STEP = 50, MARGIN = 25, COLS = "abcdefg";
  var state = null, chosen = [], busy = false, shownIdle = null;
  var hintOn = "";               // the state a tap's advice was about: another one outdates it
  // The state the words under the board (a refusal, no answer) are about: they go once the
  // board moves past it (they stayed two moves on, "Now: ..." long untrue, until this phone's
  // next move). {game, boot, version, reached}; `version` null until the table is asked.
  var noticeOn = null;
  var GIVE_UP_MS = 10000;        // a move with no answer by then: the table is asked instead
  var REACH_PX = 23;             // a point's hit area: this far each way at least (46 CSS px)

  function $(id) { return document.getElementById(id); }
  function isPoint(c, r) { return c >= 1 && c <= 7 && r >= 1 && r <= 7 && ((c >= 3 && c <= 5) || (r >= 3 && r <= 5)); }
  function xy(name) {
    return [MARGIN + COLS.indexOf(name[0]) * STEP, MARGIN + (7 - Number(name[1])) * STEP];
  }
  function el(tag, attrs, parent) {
    var node = document.createElementNS(NS, tag);
    Object.keys(attrs).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (parent) parent.appendChild(node);
    return node;
  }
  function linked(c, r, dc, dr) {
    return isPoint(c, r) && isPoint(c + dc, r + dr) && (dc === 0 || dr === 0 || (c + r) % 2 === 0);
  }
  function control() {
    try { return JSON.parse($("board-control").textContent); } catch (e) { return {}; }
  }
  // Who may move from here: a signed-in phone, or one paired with a seat now (the pairing
  // may come after the page loaded: moves.js knows it).
  function signedIn() { return !!control().signed_in; }
  function paired() {                  // with a seat in this game (the Pi's is no phone's)
    var s = latest();
    if (window.ParlourMoves && window.ParlourMoves.seatIn) return !!s &&
      window.ParlourMoves.seatIn(s) !== null;
    return !!control().paired;
  }
  function piTurn() {                  // the Pi moves its own pieces (moves.js)
    var s = latest();
    return !!(s && window.ParlourMoves && window.ParlourMoves.piTurn(s));
  }
  function canMove() { return (signedIn() || paired()) && !piTurn(); }
  function idleHint() {
    var s = latest();
    if (s && s.phase === "over") return "The game is over: the board shows how it ended.";
    if (piTurn()) return s.taken_back ? "The Pi waits after the undo: " + (signedIn() || paired()
      ? "Let the Pi move (above), or press the knob at the box." : "press the knob at the box.") :
      "The Pi moves its own pieces: copy its move on the board.";
    return signedIn() ? "Tap a piece of the side to move, then where it goes." :
      paired() ? "On your turn, tap one of your pieces, then where it goes." :
      "Enter the PIN, or pair this phone with your seat, to move from here.";
  }
  function latest() {
    return window.ParlourState ? window.ParlourState.latest() || state : state;
  }

  function moves() { return (state && state.board && state.board.moves) || []; }
  function starts(path, prefix) {
    for (var i = 0; i < prefix.length; i++) if (path[i] !== prefix[i]) return false;
    return true;
  }
  function candidates() { return moves().filter(function (m) { return starts(m, chosen); }); }

  function arrow(svg, path, cls, headless) {
    var pts = path.map(xy).map(function (p) { return p.join(","); }).join(" ");
    var attrs = {points: pts, "class": "arrow " + cls};
    if (!headless) attrs["marker-end"] = "url(#head-" + cls + ")";
    el("polyline", attrs, svg);
  }
  // Where the piece picked can land with the next tap: one point each, however many chains
  // go on from there (all twelve of a Fox's chains, drawn whole, hid which point was next).
  function nextPoints() {
    var k = chosen.length, out = [];
    candidates().forEach(function (m) { if (m[k] && out.indexOf(m[k]) < 0) out.push(m[k]); });
    return out;
  }
  function jumpedSoFar() {       // the geese the chain picked so far goes over
    var out = [];
    for (var i = 1; i < chosen.length; i++) {
      var a = chosen[i - 1], b = chosen[i];       // a leap goes over the point halfway
      if (leap(a, b)) out.push(COLS[(COLS.indexOf(a[0]) + COLS.indexOf(b[0])) / 2] +
        (+a[1] + +b[1]) / 2);
    }
    return out;
  }

  function draw(s) {
    state = s;
    var card = $("board-card"), svg = $("board");
    if (!card || !svg) return;
    // a piece picked that cannot move now goes first, so the hint says what a tap does now
    if (!s || !s.board || (chosen.length && !candidates().length)) chosen = [];
    var idle = idleHint();      // what a tap does changed: the game ended or began again, the
    var outdated = hintOn && hintOn !== markOf(s);     // Pi's turn came or went; or a tap's
    if ((idle !== shownIdle || outdated) && !chosen.length && !busy) hint(idle);   // advice
    shownIdle = idle;                                  // or pick was about a state since gone
    noticePast(s);
    card.hidden = !(s && s.board);
    if (!s || !s.board) return;
    var focused = svg.contains(document.activeElement) && document.activeElement.closest ?
      document.activeElement.closest("[data-point]") : null;
    var keep = focused ? focused.getAttribute("data-point") : null;
    svg.replaceChildren();
    var defs = el("defs", {}, svg);
    ["last", "pick"].forEach(function (cls) {
      var m = el("marker", {id: "head-" + cls, viewBox: "0 0 10 10", refX: "9", refY: "5",
        markerWidth: "5", markerHeight: "5", orient: "auto-start-reverse"}, defs);
      el("path", {d: "M 0 0 L 10 5 L 0 10 z", "class": "head " + cls}, m);
    });
    coordinates(svg);
    for (var r = 1; r <= 7; r++) for (var c = 1; c <= 7; c++) {
      [[1, 0], [0, 1], [1, 1], [-1, 1]].forEach(function (d) {
        if (linked(c, r, d[0], d[1])) {
          var a = xy(COLS[c - 1] + r), b = xy(COLS[c - 1 + d[0]] + (r + d[1]));
          el("line", {x1: a[0], y1: a[1], x2: b[0], y2: b[1], "class": "line"}, svg);
        }
      });
    }
    var b = s.board, ends = {}, jumped = jumpedSoFar();
    if (b.last_move) arrow(svg, b.last_move, "last");
    if (chosen.length > 1) arrow(svg, chosen, "pick", true);     // the path tapped so far
    if (chosen.length) nextPoints().forEach(function (n) {       // and the next step's ends
      arrow(svg, [chosen[chosen.length - 1], n], "pick");
      ends[n] = true;
    });
    for (r = 1; r <= 7; r++) for (c = 1; c <= 7; c++) {
      if (!isPoint(c, r)) continue;
      var name = COLS[c - 1] + r, p = xy(name), piece = name === b.fox ? "fox" :
        b.geese.indexOf(name) >= 0 ? "goose" : "empty";
      var movable = canMove() && (chosen.length ? !!ends[name] || chosen[0] === name :
        moves().some(function (m) { return m[0] === name; }));
      var over = piece === "goose" && jumped.indexOf(name) >= 0;
      var g = el("g", {"class": "point " + piece + (chosen[chosen.length - 1] === name ? " chosen" : "") +
        (ends[name] ? " target" : "") + (over ? " jumped" : ""), "data-point": name,
        role: movable ? "button" : "img",           // a point that cannot be used now is a picture
        "aria-label": name + ": " + (piece === "fox" ? "the Fox" : piece === "goose" ? "a goose" : "empty") +
          (chosen[chosen.length - 1] === name ? ", chosen" : ends[name] ? ", it can go here" :
           over ? ", jumped" : movable ? ", can move" : ""),
        tabindex: movable ? "0" : "-1"}, svg);
      var landed = chosen.length > 1 && chosen[chosen.length - 1] === name;   // the chain's end
      el("circle", {cx: p[0], cy: p[1],
        r: piece === "empty" ? (ends[name] || landed ? 9 : 4) : 15}, g);
      if (piece === "fox") {
        var t = el("text", {x: p[0], y: p[1] + 6, "text-anchor": "middle"}, g);
        t.textContent = "F";
      }
      el("rect", {x: p[0] - 25, y: p[1] - 25, width: 50, height: 50, "class": "hit"}, g);
    }
    svg.setAttribute("aria-label", "The board: the Fox on " + b.fox + "; " + b.geese.length +
      (b.geese.length === 1 ? " goose on " : " geese on ") + b.geese.join(", "));
    tellMove(s);
    if (keep) {                    // redrawn under the player's focus: the same point keeps it
      var again = svg.querySelector('[data-point="' + keep + '"]');
      if (again) again.focus();
    }
  }

  // The columns' letters and the rows' numbers, as the log and the points' names use them
  // ("Ben's goose: a3 to a4"): under the board and to its left, outside every point's square.
  function coordinates(svg) {
    for (var i = 0; i < 7; i++) {
      var letter = el("text", {x: MARGIN + i * STEP, y: 361, "class": "coord",
        "text-anchor": "middle", "aria-hidden": "true"}, svg);
      letter.textContent = COLS[i];
      var number = el("text", {x: -7, y: MARGIN + (6 - i) * STEP + 5, "class": "coord",
        "text-anchor": "middle", "aria-hidden": "true"}, svg);
      number.textContent = String(i + 1);
    }
  }

  // The newest move, in the log's own words, under the board: the arrow alone told nobody who
  // cannot see it. A screen reader hears it from the page's news (status.js), said once.
  var toldKey = null;
  function tellMove(s) {
    var line = $("board-said"), log = s.log || [];
    if (!line) return;
    var words = "";
    if (s.last_type === "move") {        // the move's line, and why it ended the game if it did
      for (var i = log.length - 1; i >= 0 && !words; i--) {
        if (/'s (Fox|goose)[: ]/.test(String(log[i]))) {
          words = log.slice(i).map(String).filter(function (line, k) {
            return k === 0 || !/ (wins|share the win)$/.test(line); }).join(". ");
        }
      }
    }
    var key = s.game_id + ":" + words;
    if (key === toldKey) return;
    toldKey = key;
    line.textContent = words ? "Last move \u2014 " + words : "";
    line.hidden = !words;
  }

  // The point a tap at (x, y) on the screen is for. A point's square is 50 units, 36 CSS px on
  // a 320 px phone: its hit area reaches 23 px each way, into its neighbours' squares and the
  // card's edge around the board, and where two hit areas overlap the nearest point wins.
  function pointAt(x, y) {
    var svg = $("board"), m = svg && svg.getScreenCTM && svg.getScreenCTM();
    if (!m) return null;
    var to = m.inverse(), ux = to.a * x + to.c * y + to.e, uy = to.b * x + to.d * y + to.f;
    var reach = Math.max(STEP / 2, REACH_PX / Math.hypot(m.a, m.b)), best = null, nearest = Infinity;
    for (var r = 1; r <= 7; r++) for (var c = 1; c <= 7; c++) {
      if (!isPoint(c, r)) continue;
      var name = COLS[c - 1] + r, p = xy(name), dx = ux - p[0], dy = uy - p[1];
      if (Math.abs(dx) > reach || Math.abs(dy) > reach || dx * dx + dy * dy >= nearest) continue;
      best = name;
      nearest = dx * dx + dy * dy;
    }
    return best;
  }

  // `about`: the state the words are about, or none yet (a refusal names the table as it is:
  // the state the table is asked for next)
  function say(words, about) {
    var box = $("board-error");
    box.textContent = words || "";
    box.hidden = !words;
    if (words && box.scrollIntoView) box.scrollIntoView({block: "nearest"});   // under the board
    noticeOn = !words ? null : about ? {game: about.game_id, boot: about.boot,
      version: about.state_version, reached: markOf(about) === markOf(state)} : {version: null};
  }

  function pin(notice, s) {            // a refusal's words: about the table as the page has it now
    if (!notice || noticeOn !== notice || !s) return;
    noticeOn = {game: s.game_id, boot: s.boot, version: s.state_version, reached: true};
  }

  // The words under the board go once the board shows a later state than the one they were
  // about: "No answer" when the move shows, a refusal's "Now: ..." when the game goes on.
  function noticePast(s) {
    var on = noticeOn;
    if (!on || on.version === null || !s) return;
    if (s.game_id === on.game && s.boot === on.boot && s.state_version === on.version) {
      on.reached = true;               // a stale page's older state before it is no news
    } else if (on.reached || s.game_id !== on.game ||
               (s.boot === on.boot && s.state_version > on.version)) {
      say("");
    }
  }

  function lookAtTable(notice) {       // after a refusal or no answer: the table as it is
    if (!window.ParlourState) return;
    var asked = function () { pin(notice, latest()); };     // answered or not
    window.ParlourState.refresh().then(asked, asked);
  }

  function send(path) {
    var c = control(), sent = state;
    busy = true;
    var stop = window.AbortController ? new AbortController() : null;
    var late = setTimeout(function () { if (stop) stop.abort(); }, GIVE_UP_MS);
    fetch("/api/control/move", {method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-Parlour-Csrf": c.csrf || "",
        "X-Parlour-Clock": String(Date.now())},
      signal: stop ? stop.signal : undefined,
      // the state the board shows: a move sent again after a lost answer is not made twice
      body: JSON.stringify({path: path, seen: window.ParlourState ? window.ParlourState.mark(sent) : ""})
    }).then(function (r) {
      return r.json().then(function (body) { return {ok: r.ok, body: body}; });
    }).then(function (res) {
      clearTimeout(late);
      busy = false; chosen = [];
      hint(idleHint());
      if (!res.ok) {
        say(res.body.error || "That move was refused");
        var refused = noticeOn;
        draw(latest());
        lookAtTable(refused);
        return;
      }
      say("");
      // The answer is the state just after this move; the live stream may already have
      // brought a newer one (the Pi's reply): the page keeps whichever is newest.
      if (window.ParlourState) window.ParlourState.offer(res.body);
      draw(window.ParlourState ? latest() : res.body);
    }).catch(function () {
      clearTimeout(late);
      busy = false; chosen = [];
      hint(idleHint());                // nothing is picked now ("Now tap where it goes." stayed)
      // about the board the move was made on: it goes once the board shows the move
      say("No answer from the table: if the board does not show the move soon, make it again",
          sent);
      draw(latest());
      lookAtTable(null);
    });
  }

  function tap(name) {
    if (busy || !canMove() || !state || !state.board) return;
    var mine = !signedIn() && window.ParlourMoves && window.ParlourMoves.seatIn ?
      window.ParlourMoves.seatIn(state) : null;
    var mover = (state.players || [])[state.turn];
    if (!signedIn() && (state.phase === "over" || (mine !== null && mine !== state.turn))) {
      chosen = [];                                   // a paired phone on another's turn
      advise(state.phase === "over" ? idleHint() : "It is " + (mover ? mover.name : "another") +
        "'s turn: your move comes after theirs.");
      draw(state);
      return;
    }
    var next = chosen.concat([name]);
    var left = moves().filter(function (m) { return starts(m, next); });
    if (!left.length) {
      var fresh = moves().filter(function (m) { return m[0] === name; });
      if (fresh.length) {
        chosen = [name];
        picked(pickHint());
      } else {
        advise(whereItCanGo(name));        // the piece picked stays picked
      }
      draw(state);
      return;
    }
    var whole = left.filter(function (m) { return m.length === next.length; });
    if (whole.length && left.length === 1) { send(whole[0]); return; }
    chosen = next;
    picked(pickHint());
    draw(state);
  }

  function geese(n) { return n + (n === 1 ? " goose" : " geese"); }
  function span(numbers) {       // "4", "4 or 5", "3 to 5"
    var lo = Math.min.apply(null, numbers), hi = Math.max.apply(null, numbers);
    return lo === hi ? String(lo) : hi === lo + 1 ? lo + " or " + hi : lo + " to " + hi;
  }
  function jumping() {           // the piece picked must jump on (the Fox's chain, F2)
    var from = candidates(), k = chosen.length;
    return k > 0 && from.length > 0 && from.every(function (m) { return leap(m[k - 1], m[k]); });
  }
  // What the next tap does with the piece picked. A Fox that can jump more than one goose
  // lands on each point in turn: only the next landings are marked, and the words say so and
  // how many geese each way takes.
  function pickHint() {
    var from = candidates(), k = chosen.length, to = either(nextPoints());
    var many = from.some(function (m) { return m.length > 2; });
    if (!jumping() || (k === 1 && !many)) return "Now tap where it goes.";   // a step, one jump
    var all = span(from.map(function (m) { return m.length - 1; }));
    if (k === 1) return "The Fox jumps one goose at a time: tap " + to +
      ", then each landing in turn (" + all + " geese in all).";
    var last = from.every(function (m) { return m.length === k + 1; });
    if (last) return "Last jump: tap " + to + " (" + geese(k - 1) + " so far, " + all + " in all).";
    // a landing that ends the move (no jump on from it, F2) is said as the end: the Fox's own
    // first point, drawn as the Fox, was tapped to start again and sent the move
    var ends = nextPoints().filter(function (p) {
      return from.some(function (m) { return m.length === k + 1 && m[k] === p; });
    });
    var on = nextPoints().filter(function (p) { return ends.indexOf(p) < 0; });
    var words = "Keep jumping: tap " + either(on) + " (" + geese(k - 1) + " so far, " + all +
      " in all)";
    if (!ends.length) return words + ".";
    var began = ends.indexOf(chosen[0]) >= 0 ? ", where it began," : "";
    return words + ", or " + either(ends) + began + " to end the move with " + geese(k) + ".";
  }

  function leap(a, b) {
    return Math.abs(COLS.indexOf(a[0]) - COLS.indexOf(b[0])) === 2 || Math.abs(+a[1] - +b[1]) === 2;
  }
  function either(names) {
    names = names.filter(function (n, i) { return names.indexOf(n) === i; });
    return names.length < 2 ? names.join("") : names.slice(0, -1).join(", ") + " or " + names[names.length - 1];
  }
  // A tap that makes no move: where the piece picked can go, or, with none picked, which
  // piece can move (a jump the Fox must make is said as one: F2, not "no piece can move").
  function whereItCanGo(tapped) {
    var from = candidates(), k = chosen.length, must = jumping();
    if (must && from.some(function (m) {         // a landing further on
      return m.indexOf(tapped, k + 1) > k; })) {
      return tapped + " comes later: tap each landing in turn, " + either(nextPoints()) +
        " first.";
    }
    if (k > 1 && must) return pickHint();
    if (k && from.length) {
      var to = from.map(function (m) { return m[k]; }), one = to.every(function (n) { return n === to[0]; });
      return (must ? "It must jump: tap " : "From " + chosen[k - 1] + " it can go to ") +
        either(to) + (must ? "." : one ? ": tap it." : ": tap one of them.");
    }
    var all = moves();
    if (all.length && all.every(function (m) { return leap(m[0], m[1]); })) {
      return "The Fox must jump: tap it on " + all[0][0] + ", then where it lands.";
    }
    return whatIsOn(tapped);
  }
  // A tap on a point with no move from it, with nothing picked: what is there, and what to tap.
  function whatIsOn(point) {
    var board = state.board, player = (state.players || [])[state.turn] || {};
    var fox = player.role === "fox", piece = board.fox === point ? "fox"
      : (board.geese || []).indexOf(point) >= 0 ? "goose" : null;
    var mine = fox ? "the Fox" : "a goose that can move";
    if (piece === null) return "No piece on " + point + ": tap " + mine + ".";
    if ((piece === "fox") !== fox) {
      return "That is " + (piece === "fox" ? "the Fox" : "a goose") + ": it is the " +
        (fox ? "Fox's" : "Geese's") + " move. Tap " + mine + ".";
    }
    return piece === "fox" ? "The Fox cannot move now."
      : "The goose on " + point + " cannot move now: tap " + mine + ".";
  }

  function hint(words) {         // the line under the board: what the next tap does
    var line = $("board-hint");
    if (line) line.textContent = words;
    hintOn = "";
  }
  function picked(words) {       // what the next tap does with the piece picked: while it is
    hint(words);                 // (a later state that drops the pick outdates it)
    hintOn = markOf(state);
  }
  function advise(words) {       // a tap's answer, true of this state only
    hint(words);
    hintOn = markOf(state);
    var line = $("board-hint");    // below the fold on a phone, the tap seemed ignored
    if (line && line.scrollIntoView) line.scrollIntoView({block: "nearest"});
  }
  function markOf(s) { return s ? s.boot + ":" + s.state_version : ""; }

  function start() {
    var svg = $("board");
    if (!svg) return;
    var card = $("board-card");
    card.addEventListener("click", function (e) {
      var g = e.target.closest ? e.target.closest("[data-point]") : null;
      if (g && !e.detail) { tap(g.getAttribute("data-point")); return; }   // a screen reader's
      if (e.target !== card && !svg.contains(e.target)) return;           // the card's words
      var name = pointAt(e.clientX, e.clientY);
      if (name) tap(name);
    });
    svg.addEventListener("keydown", function (e) {      // Enter or Space taps a point
      var g = e.target.closest ? e.target.closest("[data-point]") : null;
      if (!g || (e.key !== "Enter" && e.key !== " ")) return;
      e.preventDefault();
      var name = g.getAttribute("data-point");
      tap(name);
      var again = document.querySelector('#board [data-point="' + name + '"]');
      if (again) again.focus();                       // the board is redrawn: keep the place
    });
    try { draw(JSON.parse($("initial-state").textContent)); } catch (e) { /* drawn on the next state */ }
  }

  function refresh() {            // the phone was paired or unpaired: say what a tap does now
    shownIdle = idleHint();
    if (!chosen.length) hint(shownIdle);
  }

  window.ParlourBoard = {draw: draw, tap: tap, refresh: refresh, pointAt: pointAt};
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
