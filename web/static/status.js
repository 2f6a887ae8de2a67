/* Parlour status page: live from /api/events (EventSource reconnects by itself); when the
   table turns the stream away (503, too many phones) it polls /api/state instead. Every state
   redraws the same structure the server rendered. */
(function () {
  "use strict";
  var POLL_MS = 3000;
  // A stream turned away (every stream taken: a burst of reloads holds closed streams' places
  // a moment) is asked for again soon, then less often while the table stays full.
  var RETRY_FIRST_MS = window.PARLOUR_RETRY_STREAM_MS || 5000, RETRY_MOST_MS = 60000;
  var retryMs = RETRY_FIRST_MS;
  // A stream silent this long is asked about: a dead connection (a phone that slept, a proxy
  // that holds the stream back) says nothing, and EventSource does not see keepalive comments.
  var QUIET_MS = window.PARLOUR_QUIET_MS || 20000;      // a page's script may set it sooner
  // A question to the table with no answer by then has none coming (a connection that went
  // silent, not closed: a phone off the Wi-Fi's edge): given up, and said.
  var ASK_MS = window.PARLOUR_ASK_MS || 8000;
  // A phone asleep this long may hold a stream that died without closing (its Wi-Fi dropped
  // meanwhile, nothing new at the table to show it): woken, it opens the stream afresh.
  var WAKE_MS = window.PARLOUR_WAKE_MS || 5000;
  // The stream it opens may be turned away while the table still counts the one it closed (an
  // address at its limit of live pages): asked again this soon, not a minute on.
  var WAKE_RETRY_MS = window.PARLOUR_WAKE_RETRY_MS || 2000;
  var hiddenAt = 0;
  var current = null, source = null, pollTimer = null, retryTimer = null;
  var heard = 0, asking = false;     // when the stream last brought a state; a check under way
  var held = null;    // {state, timer}: a throw kept back while the box's dial still spins
  var whenStopped = [];  // what waits for that dial to stop (an answer that names the throw)
  var skew = null;    // this phone's clock less the table's (ms), from the page's first render
  var shownClock = {key: "", seconds: 0};   // the running clock as last shown: never backwards

  function $(id) { return document.getElementById(id); }
  function show(node, yes) { if (node) node.hidden = !yes; }
  function text(node, value) { if (node && node.textContent !== value) node.textContent = value; }
  function make(tag, cls, content) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (content !== undefined) node.textContent = content;
    return node;
  }
  var pageTables = {};
  function pageTable(id, empty) {        // a JSON table the page carries, read once
    if (!(id in pageTables)) {
      try { pageTables[id] = JSON.parse(($(id) || {}).textContent || empty); } catch (err) { pageTables[id] = JSON.parse(empty); }
    }
    return pageTables[id];
  }
  function phoneWords(words) {           // the rules' prompt in the phone's words (web/moves.py)
    pageTable("phone-words", "[]").forEach(function (pair) { words = words.split(pair[0]).join(pair[1]); });
    return words;
  }
  function promptFor(state) {            // web/moves.py's phone_prompt()
    var prompt = state.prompt || "", dash = prompt.indexOf(" - ");
    if (window.ParlourMoves && window.ParlourMoves.piTurn(state)) {   // "Pi (Geese)", as the rules say
      var words = pageTable("pi-turn", "{}");             // web/moves.py's pi_turn_words()
      var asks = window.ParlourMoves.asks(state);         // this phone has "Let the Pi move"
      return (dash >= 0 ? prompt.slice(0, dash) : state.players[state.turn].name) + " - " +
        (!state.taken_back ? words.moves : asks ? words.waits_ask : words.waits);
    }
    return phoneWords(prompt).replace(/; covered: (?:[\d, ]+|none)$/, "");   // Domino Rex: the rows list them
  }
  function gameInfo(state) {             // the game's entry of web/moves.py's game_moves()
    return pageTable("game-moves", "{}")[state.game || ""] || {};
  }
  function colourName(number) {          // the box's seat button colours, from the page (X12)
    var table = $("players"), colours = [];
    try { colours = JSON.parse(table.getAttribute("data-colours") || "[]"); } catch (err) { /* none */ }
    return colours[number - 1] || ("Button " + number);
  }

  function badge(number) {               // as parts/badge.html draws it
    var dot = make("span", "dot button-" + number, String(number));
    dot.setAttribute("aria-hidden", "true");
    var words = make("span", "colour");
    words.append(make("span", "sr-only", "Button " + number + ", "), colourName(number));
    var out = make("span", "badge");
    out.append(dot, words);
    return out;
  }

  function name(state, seat) {
    var p = (state.players || [])[seat];
    return p ? p.name : "";
  }

  function setLive(mode, words) {
    var live = $("live");
    live.setAttribute("data-state", mode);
    text(live, words);
  }

  function listing(names) {              // companion/words.py's listing(): "Ann, Ben and Cy"
    return names.length < 2 ? names.join("") :
      names.slice(0, -1).join(", ") + " and " + names[names.length - 1];
  }

  function winnersText(state) {
    var names = (state.winners || []).map(function (s) { return name(state, s); });
    if (!names.length) return "";
    return listing(names) + (names.length > 1 ? " win" : " wins");     // web/pages.py
  }

  function uncovered(state) {            // Domino Rex in play: the square uncovered last, or null
    return (state.phase === "play" || state.phase === "over") && typeof state.last_uncovered === "number"
      ? state.last_uncovered : null;
  }

  function rollText(state) {             // web/pages.py's roll_text()
    var roll = state.last_roll;
    if (uncovered(state) !== null) return "Last uncovered: " + uncovered(state);
    if (!roll) return "";
    var kind = (state.randomizer || {}).kind || gameInfo(state).lead_kind;   // Domino Rex's lead
    return ("Last " + (kind === "dice" ? "throw" : kind ? "spin" : "roll") + ": " + name(state, roll.seat) + " " +
      (roll.text || "")).replace("  ", " ");
  }

  function rowOrder(state) {             // the same as companion/state.py's row_order()
    var n = (state.players || []).length, order = state.order || [], seats = [];
    for (var i = 0; i < n; i++) seats.push(i);
    var whole = order.length === n && seats.every(function (s) { return order.indexOf(s) >= 0; });
    var turning = whole && order.every(function (s, k) { return s === (order[0] + k) % n; });
    return whole && !turning ? order.slice() : seats;
  }

  function roleText(p) {                 // web/pages.py's role_text()
    var role = p.role || "", words = [role.charAt(0).toUpperCase() + role.slice(1)];   // "Fox"
    if (p.in_goal) words.push(p.in_goal + " in Goal");          // Gantlope: men home
    if (p.diamond) words.push("has the diamond");                // LD2
    return words.filter(Boolean).join(" · ");
  }

  function roleHeading(players) {        // web/pages.py's role_heading(): "" for no column
    if (players.some(function (p) { return p.role; })) return "Role";
    return players.some(function (p) { return roleText(p); }) ? "Now" : "";
  }

  function stampTime(at) {               // web/pages.py's stamp_time(), in ms
    if (typeof at !== "string") return NaN;
    return Date.parse(/(z|[+-]\d\d:?\d\d)$/i.test(at) ? at : at + "Z");
  }

  function tableNow() {                  // the table's time, by this phone's clock
    if (skew === null) {
      var told = stampTime(($("players") || document.body).getAttribute("data-now"));
      skew = isNaN(told) ? 0 : Date.now() - told;
    }
    return Date.now() - skew;
  }

  function clockText(seconds) {          // web/pages.py's clock_text()
    var whole = Math.max(0, Math.floor(seconds)), hours = Math.floor(whole / 3600);
    var minutes = Math.floor(whole / 60) % 60, secs = whole % 60;
    var two = function (n) { return (n < 10 ? "0" : "") + n; };
    return hours ? hours + ":" + two(minutes) + ":" + two(secs) : minutes + ":" + two(secs);
  }

  function clockSeconds(state, p, seat) {   // web/pages.py's clocks(), for one player
    var clock = state.clock || {}, seconds = p.clock_seconds || 0, since = stampTime(clock.since);
    if (clock.seat !== seat || state.phase === "over" || isNaN(since)) return seconds;
    var key = [state.game_id, seat, clock.since, seconds].join(" ");
    var running = Math.max(seconds + (tableNow() - since) / 1000, seconds,
      shownClock.key === key ? shownClock.seconds : 0);
    shownClock = {key: key, seconds: running};
    return running;
  }

  function tick() {                      // the running clock, once a second
    var state = current, clock = state && state.clock;
    if (!clock || state.phase === "over") return;
    (state.players || []).forEach(function (p, i) {
      var seat = typeof p.seat === "number" ? p.seat : i;
      if (seat !== clock.seat) return;
      var cell = document.querySelector('#players td.col-clock[data-seat="' + seat + '"]');
      if (cell) text(cell, clockText(clockSeconds(state, p, seat)));
    });
  }

  // Domino Rex: a player's checkers 7..11 and their squares still covered (web/domino.py)
  var PLACES = {rex: "in the Rex row", domino: "in Domino", crowned: "crowned"};
  function checkerPlaces(p) {
    var out = [];
    for (var n = 7; n <= 11; n++) {
      var where = (p.checkers || {})[String(n)];
      out.push([n, PLACES[where] ? where : "rex"]);
    }
    return out;
  }
  function checkersWords(p) {            // "Checkers: 7 crowned; 8 in Domino; 9, 10 and 11 in the Rex row"
    var groups = {};
    checkerPlaces(p).forEach(function (c) { (groups[c[1]] = groups[c[1]] || []).push(String(c[0])); });
    var parts = ["crowned", "domino", "rex"].filter(function (w) { return groups[w]; }).map(function (w) {
      var n = groups[w];
      return listing(n) + " " + PLACES[w];
    });
    return "Checkers: " + parts.join("; ");
  }
  function coveredWords(p) {
    var covered = (p.covered || []).filter(function (v) { return typeof v === "number"; })
      .sort(function (a, b) { return a - b; });
    return covered.length ? "Covered: " + covered.join(" ") : "Every square uncovered";
  }
  function checkersLine(p) {
    var line = make("span", "checkers");
    line.setAttribute("role", "img");
    line.setAttribute("aria-label", checkersWords(p));
    checkerPlaces(p).forEach(function (c) { line.appendChild(make("span", "checker " + c[1], String(c[0]))); });
    return line;
  }

  function renderPlayers(state) {
    var players = state.players || [];
    show($("checkers-key"), players.some(function (p) { return !!p.checkers; }));
    var chips = !!state.pool || players.some(function (p) { return p.chips; });
    var score = !!gameInfo(state).score || players.some(function (p) { return p.score; });
    document.querySelectorAll("#players .col-chips").forEach(function (n) { n.hidden = !chips; });
    document.querySelectorAll("#players .col-score").forEach(function (n) { n.hidden = !score; });
    text(document.querySelector("#players th.col-score"), gameInfo(state).score_label || "Score");
    var squares = !!(gameInfo(state).squares);   // only where the companion keeps squares
    document.querySelectorAll("#players .col-square").forEach(function (n) { n.hidden = !squares; });
    var heading = roleHeading(players), head = document.querySelector("#players th.col-role");
    text(head, heading || "Role");
    head.hidden = !heading;
    var clocked = !!state.clock && typeof state.clock === "object";   // Fox and Geese (F1)
    document.querySelectorAll("#players .col-clock").forEach(function (n) { n.hidden = !clocked; });
    show($("pool-line"), chips);
    text($("pool"), String(state.pool || 0));
    var labels = JSON.parse($("pool-line").getAttribute("data-labels") || "{}");
    text($("pool-label"), labels[state.game] || "Pool");
    var mice = typeof state.mice_left === "number";   // Cats and Mice (M3)
    show($("mice-line"), mice);
    text($("mice-left"), mice ? String(state.mice_left) : "");
    var body = document.querySelector("#players tbody");
    var rows = document.createDocumentFragment();
    rowOrder(state).forEach(function (i) {
      var p = players[i], seat = typeof p.seat === "number" ? p.seat : i;
      var won = (state.winners || []).indexOf(seat) >= 0, turn = state.turn === seat;
      var tr = make("tr", (turn ? "turn" : "") + (won ? " winner" : ""));
      var cell = make("td");
      if (p.pi) cell.appendChild(make("span", "marker", "Pi"));   // the Pi presses no button
      else cell.appendChild(badge(typeof p.button === "number" ? p.button : seat + 1));
      tr.appendChild(cell);
      var who = make("td", "name" + (longWord(p.name) ? " long-word" : ""), p.name);
      if (turn) who.append(" ", make("span", "marker", "to play"));
      if (won) who.append(" ", make("span", "marker win", "winner"));
      if (p.checkers) who.append(checkersLine(p), make("span", "covered", coveredWords(p)));
      tr.appendChild(who);
      var role = make("td", "col-role", roleText(p)); role.hidden = !heading; tr.appendChild(role);
      var clock = make("td", "col-clock", clocked ? clockText(clockSeconds(state, p, seat)) : "");
      clock.hidden = !clocked;
      clock.setAttribute("data-seat", String(seat));
      tr.appendChild(clock);
      var colour = (gameInfo(state).square_colours || {})[p.role];   // "red 22" (Kat en Muis)
      var square = make("td", "col-square", p.position === null || p.position === undefined ? "—"
        : p.position === 0 ? "Start" : (colour ? colour + " " : "") + p.position);  // C2: Start
      square.hidden = !squares;
      if (p.lost_turns) square.append(" ", make("span", "note", "(misses " + p.lost_turns + ")"));
      tr.appendChild(square);
      var c = make("td", "col-chips", String(p.chips)); c.hidden = !chips; tr.appendChild(c);
      var s = make("td", "col-score"), counts = gameInfo(state).score_roles || [];
      if (counts.length && counts.indexOf(p.role) < 0) {   // the Geese take no geese (F3)
        var dash = make("span", "", "\u2014");
        dash.setAttribute("aria-hidden", "true");
        s.append(dash, make("span", "sr-only", "not counted"));
      } else {
        s.textContent = String(p.score);
      }
      s.hidden = !score;
      tr.appendChild(s);
      rows.appendChild(tr);
    });
    body.replaceChildren(rows);
    scrolls();
  }

  function longWord(name) {             // a word longer than an 11-letter name: may break
    return String(name).split(/\s+/).some(function (word) { return word.length > 11; });
  }

  function scrolls() {                   // the table wider than its region: said under it
    var region = document.querySelector(".table-scroll");
    if (region) show($("players-scrolls"), region.scrollWidth > region.clientWidth + 1);
  }

  // The log lists its newest lines (the list's data-shown; the game's page has them all),
  // newest first, each numbered by its value: a reversed list is laid out in a time that grows
  // with the square of its length. A state changes only the lines that differ: the new ones
  // go on top and the oldest drop off the end; an undo takes its lines off the top and the
  // lines before the shown ones come back at the end.
  var listed = null;                     // {game, from, lines}: the lines listed, log[from...]
  function logItem(log, i) {
    var item = make("li", "", phoneWords(log[i]));
    item.value = i + 1;
    return item;
  }
  function logItems(log, from, to) {     // log[from..to), newest first
    var items = document.createDocumentFragment();
    for (var i = to - 1; i >= from; i--) items.appendChild(logItem(log, i));
    return items;
  }
  function renderLog(state) {
    var log = state.log || [], list = $("log");
    var most = Number(list.getAttribute("data-shown")) || 150;
    var from = Math.max(0, log.length - most), was = listed, n;
    var end = was ? was.from + was.lines.length : 0;
    var keepFrom = was ? Math.max(was.from, from) : 0, keepTo = keepFrom;   // lines kept
    if (was && was.game === state.game_id) {
      while (keepTo < end && keepTo < log.length && was.lines[keepTo - was.from] === log[keepTo]) {
        keepTo++;
      }
    }
    if (keepTo > keepFrom && list.children.length === was.lines.length) {
      for (n = end; n > keepTo; n--) list.firstElementChild.remove();      // taken back
      for (n = was.from; n < keepFrom; n++) list.lastElementChild.remove(); // no longer shown
      list.prepend(logItems(log, keepTo, log.length));
      list.append(logItems(log, from, keepFrom));
    } else {
      list.replaceChildren(logItems(log, from, log.length));
    }
    listed = {game: state.game_id, from: from, lines: log.slice(from)};
    list.dataset.digits = String(log.length).length;       // room for the numbers (parlour.css)
    var more = $("log-more"), page = Number(list.getAttribute("data-page-lines")) || 500;
    if (more) {
      show(more, from > 0 && typeof state.game_id === "number");
      text($("log-more-words"), "The newest " + most + " of " + log.length.toLocaleString("en") +
        " lines.");
      $("log-more-link").href = "/history/" + state.game_id + "?page=" +
        (Math.floor(Math.max(0, from - 1) / page) + 1) + "#line-" + from;
    }
    show($("log-card"), log.length > 0);
    text($("commitment"), state.commitment || "");
    show($("commitment-line"), !!state.commitment && !!state.randomizer);   // dice or spins
    text($("seed"), state.seed || "");
    show($("seed-line"), !!state.seed);
  }

  function seatLabel(p, i) {             // "Ann (button 2)", as the page's forms say it; "Pi"
    if (p.pi) return p.name;             // (the Pi presses no button)
    return p.name + " (button " + (typeof p.button === "number" ? p.button : i + 1) + ")";
  }

  var gameMoves = null;                  // per game: what it takes (the page's #game-moves)
  function declaresOne(game) {           // a declaration names one winner: a resignation (F3)
    if (gameMoves === null) {
      try { gameMoves = JSON.parse($("game-moves").textContent); } catch (e) { gameMoves = {}; }
    }
    return !!(gameMoves[game || ""] || {}).declare_one;
  }

  function renderControls(state) {
    var players = state.players || [];
    var one = declaresOne(state.game);
    document.querySelectorAll("select[data-seats]").forEach(function (select) {
      // a list that had no players (the page loaded before a game) keeps no choice: its
      // lone "the pool" made a correction from the pool to the pool, refused
      var keep = select.querySelector("option:not([value=pool])") ? select.value : "";
      var options = document.createDocumentFragment();
      players.forEach(function (p, i) {
        if (p.pi && select.dataset.seats === "people") return;     // the Pi's seat keeps its name
        var o = make("option", "", seatLabel(p, i)); o.value = String(i); options.appendChild(o);
      });
      if (select.dataset.seats === "pool") {
        var pool = make("option", "", "the pool"); pool.value = "pool"; options.appendChild(pool);
      }
      select.replaceChildren(options);
      select.value = keep;
      if (select.selectedIndex < 0) select.value = select.name === "to" ? "pool" : "0";
    });
    text($("declare-summary"), one ? "End the game: a player resigns"
                                   : "End the game by declaring the winners");
    document.querySelectorAll("fieldset[data-seats]").forEach(function (box) {
      var legend = box.querySelector("legend");
      var items = document.createDocumentFragment();
      legend.textContent = one ? "Who wins? The other player resigns" : "Winners";
      items.appendChild(legend);
      players.forEach(function (p, i) {
        var label = make("label");
        var input = make("input"); input.type = one ? "radio" : "checkbox"; input.required = one;
        input.name = "winners"; input.value = String(i);
        label.append(input, " " + seatLabel(p, i));
        items.appendChild(label);
      });
      box.replaceChildren(items);
    });
  }

  // "The last game: ..." is the server's line (web/templates/parts/last_game.html), asked for again
  // at every new state without a game in play (a game set aside, or one played while this page
  // slept: the stream's or the poll's next state is new), so an open page never shows an older
  // one; only the newest answer counts.
  var lastGameFor = null, lastGameAsked = 0, inPlay = false;
  function renderLastGame(state) {
    var line = $("last-game"), at = state.boot + ":" + state.version;
    inPlay = !!state.game;
    if (!line) return;
    if (state.game) { line.hidden = true; lastGameFor = ""; return; }
    if (lastGameFor === null) { lastGameFor = at; line.hidden = !line.textContent.trim(); return; }
    if (at === lastGameFor) return;                  // the page's own line, or asked already
    lastGameFor = at;
    var asked = ++lastGameAsked;
    fetch("/last-game", {cache: "no-store"}).then(function (r) {
      return r.ok ? r.text() : null;
    }).then(function (html) {
      if (html === null || asked !== lastGameAsked) return;     // an older answer: the past
      var box = document.createElement("div");
      box.innerHTML = html;
      var fresh = box.querySelector("#last-game"), now = $("last-game");
      if (!fresh || !now) return;
      fresh.hidden = fresh.hidden || inPlay;          // a game began while it was asked for
      if (window.ParlourTime) window.ParlourTime.local(fresh);   // in this phone's time, as on load
      now.replaceWith(fresh);
    }).catch(function () {});
  }

  function render(state, fresh) {
    var title = state.title || (state.setup || {}).title;   // or the game set up at the box
    text($("title"), title || "No game in play");
    renderLastGame(state);
    document.title = (title ? title + " · " : "") + "Parlour";
    text($("prompt"), promptFor(state));
    var winners = winnersText(state);
    text($("winners"), winners);
    show($("winners"), !!winners);
    show($("roll"), !!rollText(state));
    text($("roll-text"), rollText(state));
    if (window.ParlourDial && uncovered(state) !== null) {      // the square, drawn with its spots
      window.ParlourDial.draw($("dial"), {values: [uncovered(state)]}, {kind: "dice", count: 1}, false);
    } else if (window.ParlourDial) {
      window.ParlourDial.draw($("dial"), state.last_roll, state.randomizer, fresh);
    }
    if (window.ParlourBoard) window.ParlourBoard.draw(state);
    show($("table-state"), (state.players || []).length > 0);
    renderPlayers(state);
    renderLog(state);
  }

  // A new throw from the live stream is shown when the box's dial stops: its state carries
  // `spin` (seconds the dial spins); until then the page shows the dial spinning and keeps the
  // rest of the table as it was. Any later state shows at once (the box settles its spin on
  // the next input too); a page that loads or polls shows what the table holds.
  function spinning(state) {          // the throw's randomizer: the one it was thrown with (the
    var roll = state.last_roll || {},  // last throw for the lead ends it: Domino Rex has none then)
      randomizer = state.randomizer || (current && current.randomizer) || null,
      kind = (state.randomizer || {}).kind || gameInfo(state).lead_kind || (randomizer || {}).kind;
    var who = name(state, roll.seat);
    show($("roll"), true);
    text($("roll-text"), who + (kind === "dice" ? " throws…" : " spins…"));
    var dial = $("dial");
    if (window.ParlourDial) {
      window.ParlourDial.draw(dial, {values: (roll.values || []).map(function () {
        return kind === "dice" ? "?" : 1; })}, randomizer, false);
    }
    dial.classList.add("spinning");
    if (window.ParlourMoves && window.ParlourMoves.hold) window.ParlourMoves.hold(true);
  }

  function reveal() {
    if (!held) return;
    var state = held.state;
    clearTimeout(held.timer);
    held = null;
    $("dial").classList.remove("spinning");
    try {
      display(state, false);
    } finally {
      if (window.ParlourMoves && window.ParlourMoves.hold) window.ParlourMoves.hold(false);
      whenStopped.splice(0).forEach(function (then) { then(); });
    }
  }

  function display(state, fresh) {
    var seats = function (s) { return JSON.stringify((s.players || []).map(function (p) { return [p.name, p.button]; })); };
    var seatsChanged = !current || seats(current) !== seats(state) ||
      current.game !== state.game;        // another game: its controls may differ (F3)
    if (current && current.game_id !== state.game_id) newGame();
    current = state;
    var focused = document.activeElement;
    document.body.setAttribute("data-version", (state.boot || "") + ":" + state.version);
    render(state, fresh);
    if (seatsChanged) renderControls(state);
    if (window.ParlourMoves) window.ParlourMoves.update(state);
    tell(state);
    keepFocus(focused);
    document.dispatchEvent(new CustomEvent("parlour:state", {detail: state}));
  }

  // What changed, in the page's one polite live region (#news), so a screen reader says it
  // once: the log's new lines (or what an undo took back), the winners, then the prompt when
  // its words change. Lines this page's own action added are left out: its answer, under the
  // control used, says them (ParlourState.answered), and nothing is said while one is awaited.
  var NEWS_MS = 300, NEWS_LINES = 3;
  var seen = null;                       // {game, log}: the state the news last accounted for
  var saidPrompt = null, saidWinners = "", newsLines = [], newsTimer = null, answers = [];

  function tell(state) {
    var log = state.log || [], was = seen;
    seen = {game: state.game_id, log: log.slice(), version: state.state_version,
            undos: state.taken_back ? state.undos || [] : []};
    if (!was) {                          // the page as it loads: nothing has changed yet
      saidPrompt = promptFor(state);
      saidWinners = winnersText(state);
      showTakenBack(takenBackWords(state));  // a page loaded just after an undo says it too
      return;
    }
    if (was.game !== state.game_id) {
      newsLines = [state.game ? "New game: " + state.title : "No game in play"];
      showTakenBack("");
    } else {
      var same = 0;
      while (same < was.log.length && same < log.length && was.log[same] === log[same]) same++;
      // an undo just now (companion/words.py's is_undo(): a correction after one adds a line)
      if (state.taken_back && state.state_version !== was.version && log.length <= was.log.length) {
        var gone = was.log.slice(same).map(phoneWords);   // not yet said, now taken back: not
        newsLines = newsLines.filter(function (line) { return gone.indexOf(line) < 0; });  // said
        var run = undosOf(state);
        var said = was.undos.length <= run.length && was.undos.every(function (u, i) {
          return u.at === run[i].at; }) ? was.undos.length : 0;   // each not said yet (two
        run.slice(said).forEach(function (u) {                   // between polls: both)
          newsLines.push(undoWords(u.undone, u.put_back));
        });
      }
      showTakenBack(takenBackWords(state));   // until the game goes on
      newsLines = newsLines.concat(log.slice(same).map(phoneWords));   // as the log shows them
    }
    clearTimeout(newsTimer);
    newsTimer = setTimeout(sayNews, NEWS_MS);
  }

  // Shown to every phone, not only the one that took it back, while the newest change is an
  // undo (the state's taken_back): pieces and chips jumped back and nothing on the page said
  // why (the box says "Taken back: ..."). Each undo since the game last moved (the state's
  // `undos`: the log's lines it took back, or "Ann's turn ends" for an ended turn, and what
  // to set back by hand), in the phone's words; the last one's alone left the first one's
  // square bare. Said by #news as each comes.
  function takenBackWords(state) {
    if (!state.taken_back) return "";
    return undosOf(state).map(function (u) { return undoWords(u.undone, u.put_back); })
      .join(" ");
  }

  function undosOf(state) {              // each undo since the game last moved
    return state.undos || [{undone: state.undone, put_back: state.put_back}];
  }

  function undoWords(undone, putBack) {
    var gone = (undone || []).map(function (line) {    // companion/words.py's taken_back():
      return line.replace(/^(.+)'s turn ends$/, "the end of $1's turn ($1 plays on)")   // an
        .replace(/^(.+): press again to confirm, the knob cancels$/, "$1")   // ended turn, a
        .replace(/ \(\d+ left\)$/, ""); });        // claim, a count left then, changed since
    var words = gone.length ? "Taken back: " + gone.join("; ") : "Taken back",
      back = putBack || [];              // what the table sets back by hand ("Cover Pi's 6
    if (back.length) words += (/[.!?]$/.test(words) ? " " : ". ") + back.join(" ");   // again.")
    return phoneWords(words);
  }

  function showTakenBack(words) {
    var line = $("taken-back");
    if (!line) return;
    if (line.textContent !== words) line.textContent = words;
    line.hidden = !words;
  }

  function sayNews() {
    if (document.querySelector("form[data-sending]")) {   // its answer tells what it did
      newsTimer = setTimeout(sayNews, NEWS_MS);
      return;
    }
    var state = current, words = newsLines.filter(function (line) {
      return answers.indexOf(line) < 0;
    });
    newsLines = [];
    answers = [];                        // an answer's lines are its own state's, now said
    words = words.slice(-NEWS_LINES);
    var winners = winnersText(state), prompt = promptFor(state);
    var told = function (w) {            // the log's own line said it ("Red wins"): once
      return words.some(function (line) { return line.replace(/[.!]+$/, "") === w; });
    };
    if (winners && winners !== saidWinners && !told(winners)) words.push(winners);
    if (prompt && prompt !== saidPrompt && !told(prompt)) words.push(prompt);
    saidWinners = winners;
    saidPrompt = prompt;
    var news = $("news");
    if (!news || !words.length) return;
    var said = words.map(function (w) { return /[.!?:]\)?$/.test(w) ? w : w + "."; }).join(" ");
    if (news.textContent === said) {     // the same words again: written anew, to be said again
      news.textContent = "";
      setTimeout(function () { news.textContent = said; }, 100);
    } else {
      news.textContent = said;
    }
  }

  function answered(words) {             // an action's answer on this page: its log lines
    answers = answers.concat([words], String(words).split("; "));
  }

  // The table moved on and hid what the player was on (a section for a game in play, after the
  // game was set aside): the focus goes to the nearest part still shown, not the page's top.
  // Focus on a node that is shown (one with no tabindex of its own gets -1); whether it took it.
  function focusOn(node) {
    if (!node || !node.getClientRects().length) return false;
    if (node.tabIndex < 0 && !node.hasAttribute("tabindex")) node.setAttribute("tabindex", "-1");
    node.focus();
    return document.activeElement === node;
  }

  function keepFocus(was) {
    if (!was || was === document.body || !was.isConnected || was.getClientRects().length) return;
    for (var node = was.parentElement; node && node !== document.body; node = node.parentElement) {
      if (focusOn(node)) return;
    }
  }

  // The same throw, field by field: the state written into the page and the stream's carry
  // their keys in different orders, so their JSON text differs for one throw (a page opened
  // just after it then took the next chances for a new throw and spun the dial again).
  function sameRoll(a, b) {
    if (!a || !b) return a === b;
    return a.seat === b.seat && a.text === b.text && a.total === b.total &&
      (a.values || []).join(",") === (b.values || []).join(",");
  }

  // One rule for every state the page is given (the stream, a poll, an action's answer): the
  // newest wins. Versions count within one run of the table (`boot`); a state of another run
  // is the table's word after a restart, so it is taken, but from the stream or a question
  // only: an action's answer of another run may be one sent before the restart and late.
  function older(state, than) {
    return !!than && state.boot === than.boot && state.version <= than.version;
  }

  function newest() { return held ? held.state : current; }   // a throw still spinning too

  function apply(state, live, answer) {
    if (!state || typeof state !== "object") return;
    var latest = newest();
    if (older(state, latest)) return;
    if (answer && latest && state.boot !== latest.boot) {   // which run is newer: the table says
      refresh().catch(function () { /* the stream or the quiet check will tell */ });
      return;
    }
    if (held) {
      if (state.game_id === held.state.game_id && state.state_version === held.state.state_version) {
        held.state = state;   // only the chances are new: the dial keeps spinning
        return;
      }
      reveal();
    }
    var fresh = !!current && !!state.last_roll && (state.rolls !== current.rolls ||
      !sameRoll(state.last_roll, current.last_roll));
    var spin = state.spin;
    if (fresh && live && spin && spin.roll === state.rolls && spin.seconds > 0) {
      held = {state: state, timer: setTimeout(reveal, spin.seconds * 1000)};
      spinning(state);
      return;
    }
    display(state, fresh);
  }

  function newGame() {            // answers and notices of the game before go with it
    document.querySelectorAll(".answer").forEach(function (n) { n.textContent = ""; n.hidden = true; });
    var error = $("board-error");
    if (error) { error.textContent = ""; error.hidden = true; }
  }

  function refresh() {             // what the table holds now, shown (newest wins)
    // the phone's clock: a box away from any time server stamps games by the phones' time
    var stop = window.AbortController ? new AbortController() : null;
    var late = setTimeout(function () { if (stop) stop.abort(); }, ASK_MS);
    return fetch("/api/state", {cache: "no-store", signal: stop ? stop.signal : undefined,
      headers: {"X-Parlour-Clock": String(Date.now())}}).then(function (r) {
      if (!r.ok) throw new Error(r.status);
      return r.json();
    }).then(function (state) {
      clearTimeout(late);
      apply(state);
      return state;
    }, function (err) { clearTimeout(late); throw err; });
  }

  function poll() {
    refresh().then(function () {
      askPairing();          // no stream to say a phone was paired or unpaired: asked each time
      if (pollTimer) setLive("polling", "Updating every few seconds");   // not if live since
    }).catch(function () {
      setLive("reconnecting", "Reconnecting…");
    });
  }

  function startPolling(soon) {
    if (source) { source.close(); source = null; }
    if (!pollTimer) { poll(); pollTimer = setInterval(poll, POLL_MS); }
    if (retryTimer) return;
    var wait = soon ? WAKE_RETRY_MS : retryMs;
    if (!soon) retryMs = Math.min(retryMs * 2, RETRY_MOST_MS);     // 5, 10, 20, 40, 60, 60 s
    retryTimer = setTimeout(function () { retryTimer = null; connect(); }, wait);
  }

  // A quiet stream is checked against /api/state; a newer state there means the stream has
  // stopped bringing them: it is shown, and the stream opened afresh.
  function checkQuiet() {
    if (!source || asking || Date.now() - heard < QUIET_MS) return;
    asking = true;
    var before = newest();
    refresh().then(function (state) {
      if (before && !older(state, before) && source) {   // newer than the stream brought
        source.close();
        connect();
      }
    }).catch(function () {         // no answer: a stream that says nothing is no stream
      unreachable();
    }).then(function () {
      asking = false;
      heard = Date.now();
    });
  }

  // The table did not answer (an action and the question after it, or a quiet stream's
  // check): the page says so at once, not "Live" beside "No answer", and opens the stream again.
  function unreachable() {
    setLive("reconnecting", "Reconnecting…");
    if (source) { source.close(); connect(); }
  }

  function askPairing() {            // whether this phone still plays its seat (moves.js)
    if (window.ParlourMoves && window.ParlourMoves.askPairing) window.ParlourMoves.askPairing();
  }

  function connect(woken) {
    if (!window.EventSource) { startPolling(); return; }
    var opened = source = new EventSource("/api/events"), first = true;
    heard = Date.now();
    source.addEventListener("open", function () {
      first = true;                            // each connection begins with the table as it is
      woken = false;                           // turned away later: as any stream
      retryMs = RETRY_FIRST_MS;
      if (pollTimer) { clearInterval(pollTimer); pollTimer = null; }
      setLive("live", "Live");
      askPairing();          // paired or unpaired since the page was drawn, or while it was away
    });
    // a phone was paired or unpaired (at the box, or another tab of this phone): this one?
    source.addEventListener("pairing", function () {
      if (opened !== source) return;
      heard = Date.now();
      askPairing();
    });
    source.addEventListener("state", function (e) {
      if (opened !== source) return;           // a stream given up on
      heard = Date.now();
      setLive("live", "Live");
      // a stream's first state is the table as it is, not a change as it happens: a phone
      // that wakes or reconnects shows an earlier throw at once, without spinning it again
      try { apply(JSON.parse(e.data), !first); } catch (err) { /* a broken message: wait for the next */ }
      first = false;
    });
    source.addEventListener("error", function () {
      if (source && source.readyState === EventSource.CLOSED) startPolling(woken);
      else setLive("reconnecting", "Reconnecting…");
    });
  }

  function start() {
    tableNow();         // the skew, taken now: later the page's stamp would be that much old
    var initial = $("initial-state");
    try { apply(JSON.parse(initial.textContent)); } catch (err) { /* keep the server's page */ }
    connect();
    if (window.ResizeObserver && $("players")) {      // a turned phone, a larger text
      var watch = new ResizeObserver(scrolls);
      watch.observe($("players"));
      watch.observe($("players").parentNode);
    }
    setInterval(function () { tick(); checkQuiet(); }, 1000);
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState !== "visible") { hiddenAt = Date.now(); return; }
      var away = hiddenAt ? Date.now() - hiddenAt : 0;           // awake again
      hiddenAt = 0;
      if (away >= WAKE_MS && source) { source.close(); connect(true); }   // its first state: now
      else { heard = 0; checkQuiet(); }
    });
    var choice = $("game-choice");
    if (choice) {
      var pick = function () {             // a game's options; those the Pi's side decides
        document.querySelectorAll("fieldset.options").forEach(function (f) {   // (Fox and Geese)
          var unless = f.getAttribute("data-unless"), pi = unless && document.querySelector('select[name="' + unless + '"]');
          f.hidden = f.getAttribute("data-game") !== choice.value || !!(pi && pi.value);
        });
      };
      choice.addEventListener("change", pick);
      document.querySelectorAll('select[name^="pi-"]').forEach(function (s) { s.addEventListener("change", pick); });
      pick();
    }
  }

  window.ParlourState = {
    refresh: refresh,
    // an action's answer (newest wins); `live`: a change just made, a throw spun as the box does
    offer: function (state, live) { apply(state, !!live, true); },
    // `then` once the throw the dial spins has been shown (at once if none spins)
    whenStill: function (then) { if (held) whenStopped.push(then); else then(); },
    unreachable: unreachable,
    latest: newest,
    answered: answered,
    mark: function (s) { return s && s.boot ? s.boot + ":" + s.state_version : ""; },
    phoneWords: phoneWords,
    listing: listing,                    // "Ann, Ben and Cy", for moves.js too
    focusOn: focusOn,
    rowOrder: rowOrder,
    // what the page says of a state where the server says it too (web/pages.py, web/domino.py)
    said: function (s) {
      return {prompt: promptFor(s), roll: rollText(s), roles: (s.players || []).map(roleText),
        checkers: (s.players || []).map(function (p) {
          return p.checkers ? [checkersWords(p), coveredWords(p)] : null; })};
    }
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
