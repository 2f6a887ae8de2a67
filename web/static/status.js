/* Parlour status page: live from /api/events (EventSource reconnects by itself); when the
   table turns the stream away (503, too many phones) it polls /api/state instead. Every state
   redraws the same structure the server rendered. */
(function () {
  "use strict";
  var COLOURS = ["red", "blue", "green", "yellow", "purple", "orange"];
  var POLL_MS = 3000, RETRY_STREAM_MS = 60000;
  var current = null, source = null, pollTimer = null, retryTimer = null;

  function $(id) { return document.getElementById(id); }
  function show(node, yes) { if (node) node.hidden = !yes; }
  function text(node, value) { if (node && node.textContent !== value) node.textContent = value; }
  function make(tag, cls, content) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (content !== undefined) node.textContent = content;
    return node;
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

  function winnersText(state) {
    var names = (state.winners || []).map(function (s) { return name(state, s); });
    if (!names.length) return "";
    return "Winner" + (names.length > 1 ? "s" : "") + ": " + names.join(" and ");
  }

  function rollText(state) {
    var roll = state.last_roll;
    if (!roll) return "";
    var kind = (state.randomizer || {}).kind;
    return ("Last " + (kind === "dice" ? "throw" : kind ? "spin" : "roll") + ": " + name(state, roll.seat) + " " +
      (roll.text || "")).replace("  ", " ");
  }

  function renderPlayers(state) {
    var players = state.players || [];
    var chips = !!state.pool || players.some(function (p) { return p.chips; });
    var score = players.some(function (p) { return p.score; });
    document.querySelectorAll("#players .col-chips").forEach(function (n) { n.hidden = !chips; });
    document.querySelectorAll("#players .col-score").forEach(function (n) { n.hidden = !score; });
    show($("pool-line"), chips);
    text($("pool"), String(state.pool || 0));
    var body = document.querySelector("#players tbody");
    var rows = document.createDocumentFragment();
    players.forEach(function (p, i) {
      var seat = typeof p.seat === "number" ? p.seat : i;
      var won = (state.winners || []).indexOf(seat) >= 0, turn = state.turn === seat;
      var tr = make("tr", (turn ? "turn" : "") + (won ? " winner" : ""));
      var cell = make("td");
      var swatch = make("span", "swatch seat-" + (seat % 6));
      swatch.setAttribute("aria-hidden", "true");
      cell.append(swatch, " ", make("span", "seatno", String(seat + 1)), " ",
        make("span", "colour", COLOURS[seat % 6]));
      tr.appendChild(cell);
      var who = make("td", "name", p.name);
      if (turn) who.append(" ", make("span", "marker", "to play"));
      if (won) who.append(" ", make("span", "marker win", "winner"));
      tr.appendChild(who);
      tr.appendChild(make("td", "", p.role || ""));
      var square = make("td", "", p.position === null || p.position === undefined ? "—" : String(p.position));
      if (p.lost_turns) square.append(" ", make("span", "note", "(misses " + p.lost_turns + ")"));
      tr.appendChild(square);
      var c = make("td", "col-chips", String(p.chips)); c.hidden = !chips; tr.appendChild(c);
      var s = make("td", "col-score", String(p.score)); s.hidden = !score; tr.appendChild(s);
      rows.appendChild(tr);
    });
    body.replaceChildren(rows);
  }

  function renderLog(state) {
    var log = state.log || [];
    var list = $("log");
    var items = document.createDocumentFragment();
    for (var i = log.length - 1; i >= 0; i--) items.appendChild(make("li", "", log[i]));
    list.replaceChildren(items);
    show($("log-card"), log.length > 0);
    text($("commitment"), state.commitment || "");
    show($("commitment-line"), !!state.commitment);
    text($("seed"), state.seed || "");
    show($("seed-line"), !!state.seed);
  }

  function renderControls(state) {
    var players = state.players || [];
    document.querySelectorAll("select[data-seats]").forEach(function (select) {
      var keep = select.value;
      var options = document.createDocumentFragment();
      players.forEach(function (p, i) {
        var o = make("option", "", (i + 1) + ". " + p.name); o.value = String(i); options.appendChild(o);
      });
      if (select.dataset.seats === "pool") {
        var pool = make("option", "", "the pool"); pool.value = "pool"; options.appendChild(pool);
      }
      select.replaceChildren(options);
      select.value = keep;
      if (select.selectedIndex < 0) select.value = select.name === "to" ? "pool" : "0";
    });
    document.querySelectorAll("fieldset[data-seats]").forEach(function (box) {
      var legend = box.querySelector("legend");
      var items = document.createDocumentFragment();
      items.appendChild(legend);
      players.forEach(function (p, i) {
        var label = make("label");
        var input = make("input"); input.type = "checkbox"; input.name = "winners"; input.value = String(i);
        label.append(input, " " + (i + 1) + ". " + p.name);
        items.appendChild(label);
      });
      box.replaceChildren(items);
    });
  }

  function render(state, fresh) {
    text($("title"), state.title || "No game yet");
    document.title = (state.title || "Parlour") + " · Parlour";
    text($("prompt"), state.prompt || "");
    var winners = winnersText(state);
    text($("winners"), winners);
    show($("winners"), !!winners);
    show($("roll"), !!state.last_roll);
    text($("roll-text"), rollText(state));
    if (window.ParlourDial) window.ParlourDial.draw($("dial"), state.last_roll, state.randomizer, fresh);
    show($("table-state"), (state.players || []).length > 0);
    renderPlayers(state);
    renderLog(state);
  }

  function apply(state) {
    if (!state || typeof state !== "object") return;
    if (current && state.game_id === current.game_id && state.version <= current.version) return;
    var seatsChanged = !current || JSON.stringify((current.players || []).map(function (p) { return p.name; })) !==
      JSON.stringify((state.players || []).map(function (p) { return p.name; }));
    var fresh = !!current && !!state.last_roll && (state.rolls !== current.rolls ||
      JSON.stringify(state.last_roll) !== JSON.stringify(current.last_roll));
    current = state;
    render(state, fresh);
    if (seatsChanged) renderControls(state);
    if (window.ParlourMoves) window.ParlourMoves.update(state);
  }

  function poll() {
    fetch("/api/state", {cache: "no-store"}).then(function (r) {
      if (!r.ok) throw new Error(r.status);
      return r.json();
    }).then(function (state) {
      setLive("polling", "Updating every few seconds");
      apply(state);
    }).catch(function () {
      setLive("reconnecting", "Reconnecting…");
    });
  }

  function startPolling() {
    if (source) { source.close(); source = null; }
    if (!pollTimer) { poll(); pollTimer = setInterval(poll, POLL_MS); }
    if (!retryTimer) retryTimer = setTimeout(function () { retryTimer = null; connect(); }, RETRY_STREAM_MS);
  }

  function connect() {
    if (!window.EventSource) { startPolling(); return; }
    source = new EventSource("/api/events");
    source.addEventListener("open", function () {
      if (pollTimer) { clearInterval(pollTimer); pollTimer = null; }
      setLive("live", "Live");
    });
    source.addEventListener("state", function (e) {
      setLive("live", "Live");
      try { apply(JSON.parse(e.data)); } catch (err) { /* a broken message: wait for the next */ }
    });
    source.addEventListener("error", function () {
      if (source && source.readyState === EventSource.CLOSED) startPolling();
      else setLive("reconnecting", "Reconnecting…");
    });
  }

  function start() {
    var initial = $("initial-state");
    try { apply(JSON.parse(initial.textContent)); } catch (err) { /* keep the server's page */ }
    connect();
    var choice = $("game-choice");
    if (choice) {
      var pick = function () {
        document.querySelectorAll("fieldset.options").forEach(function (f) {
          f.hidden = f.getAttribute("data-game") !== choice.value;
        });
      };
      choice.addEventListener("change", pick);
      pick();
    }
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
