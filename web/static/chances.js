/* Chances to win and the game in pictures: each player's chance now, and two hand-drawn SVG
   line charts (chance to win and chips, step by step). On the status page it follows the live
   state (status.js sends a "parlour:state" event); on a history page it loads the chart of
   that game once from data-chart-url. */
(function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";
  // Drawn at the width it is shown (one unit a CSS pixel), so its words are the size the CSS
  // says on every phone: scaled from a fixed width, they were 8 px on a 320 px one.
  var H = 150, LEFT = 38, TOP = 8, BOTTOM = 20;
  var CHAR = 9;                     // a tag's letter at most, in CSS px (13 px bold)
  var TAG = 15;                     // the height a value at the right edge takes
  var last = null;                  // what was drawn last: drawn again at a new width

  function $(id) { return document.getElementById(id); }
  function el(tag, attrs, content) {
    var node = document.createElementNS(SVG, tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (content !== undefined) node.textContent = content;
    return node;
  }
  function make(tag, cls, content) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (content !== undefined) node.textContent = content;
    return node;
  }
  function percent(p) {
    if (p > 0 && p < 0.005) return "<1%";
    if (p < 1 && p > 0.995) return ">99%";
    return Math.round(p * 100) + "%";
  }

  /* Each player in the colour of their seat button (X12): the box's button n is `button-n`;
     the Pi holds no button ("pi"): it is drawn in ink, as its marker is; a second Pi seat
     ("Pi 2") dashed, its swatch striped (two Pis in one colour could not be told apart). */
  function colour(buttons, seat) {
    if (buttons[seat] === "pi") {
      return buttons.slice(0, seat).indexOf("pi") >= 0 ? "button-pi pi-later" : "button-pi";
    }
    return "button-" + (typeof buttons[seat] === "number" ? buttons[seat] : seat + 1);
  }

  /* Each seat's mark at its line's end, so the chart reads without its colours (red and
     brown lines looked alike): the fewest first letters of its name that no other name starts
     with ("A" for Ann, "Al" and "An" for Alice and Ann), spaces left out ("Pi" and "Pi2"), at
     most four, or a whole name of four letters at most ("Ann" beside Annabel's "Anna"); where
     two names agree further, the seat button's number, which the legend then shows too
     (seat numbers were marks found nowhere else on the page). */
  function marks(names, buttons) {
    var bare = names.map(function (n) { return Array.from(String(n || "").replace(/\s+/g, "")); });
    var first = bare.map(function (letters, seat) {
      for (var k = 1; k <= Math.min(4, letters.length); k++) {
        var start = letters.slice(0, k).join("").toLowerCase();
        if (bare.every(function (other, s) {
          return s === seat || other.slice(0, k).join("").toLowerCase() !== start; })) {
          return letters.slice(0, k).join("");
        }
      }
      return letters.length <= 4 ? letters.join("") : null;
    });
    return first.map(function (mark, seat) {
      var alike = mark === null || first.some(function (other, s) {
        return s !== seat && other !== null && other.toLowerCase() === mark.toLowerCase(); });
      return !alike ? mark : String(typeof buttons[seat] === "number" ? buttons[seat] : seat + 1);
    });
  }

  /* Who is which line: a swatch of the seat button's colour and the name. */
  function legend(figure, names, buttons, mark) {
    var list = figure.querySelector(".legend"), items = document.createDocumentFragment();
    if (!list) return;
    names.forEach(function (name, seat) {
      var swatch = make("span", "swatch " + colour(buttons, seat));
      swatch.setAttribute("aria-hidden", "true");
      var li = make("li");
      li.append(swatch, " " + (/^\d+$/.test(mark[seat]) ? mark[seat] + ": " : "") + name);
      items.appendChild(li);
    });
    list.replaceChildren(items);
  }

  /* One chart: `series[step][seat]` (null where unknown), y from 0 to `top`. */
  function draw(figure, series, names, buttons, top, label, format) {
    var plot = figure.querySelector(".plot");
    var steps = series.length;
    var known = series.filter(function (row) { return row; });
    figure.hidden = known.length < 1;
    if (figure.hidden) { plot.replaceChildren(); return; }
    // measured once shown: a chart's first drawing measured its hidden figure (0, so 340
    // units scaled to the card) and stayed so until the next state
    var W = Math.max(240, Math.min(640, Math.round(plot.clientWidth) || 340));
    var mark = marks(names, buttons), widest = 0;      // room at the right for the widest tag
    series.forEach(function (row) {
      (row || []).forEach(function (v, seat) {
        if (typeof v === "number") widest = Math.max(widest, (mark[seat] + " " + format(v)).length);
      });
    });
    var RIGHT = 18 + CHAR * Math.max(4, widest);
    var x = function (i) { return LEFT + (steps > 1 ? i * (W - LEFT - RIGHT) / (steps - 1) : 0); };
    var y = function (v) { return TOP + (H - TOP - BOTTOM) * (1 - v / top); };
    var svg = el("svg", {viewBox: "0 0 " + W + " " + H, role: "img"});
    [0, top / 2, top].forEach(function (v) {
      svg.appendChild(el("line", {"class": "grid", x1: LEFT, x2: W - RIGHT, y1: y(v), y2: y(v)}));
      svg.appendChild(el("text", {"class": "axis", x: LEFT - 4, y: y(v) + 4, "text-anchor": "end"},
        format(v)));
    });
    svg.appendChild(el("text", {"class": "axis", x: LEFT, y: H - 4}, "start"));
    svg.appendChild(el("text", {"class": "axis", x: W - RIGHT, y: H - 4, "text-anchor": "end"},
      steps > 1 ? "move " + (steps - 1) : ""));
    var now = [];
    names.forEach(function (name, seat) {
      var d = "", pen = "M", last = null;
      series.forEach(function (row, i) {
        if (!row || typeof row[seat] !== "number") { pen = "M"; return; }
        d += pen + x(i).toFixed(1) + " " + y(row[seat]).toFixed(1) + " ";
        pen = "L"; last = [i, row[seat]];
      });
      var g = el("g", {"class": colour(buttons, seat)});
      if (d) {                     // a halo under the line: a white or black button shows too
        g.appendChild(el("path", {"class": "halo", d: d}));
        g.appendChild(el("path", {"class": "line", d: d}));
      }
      if (last) {
        g.appendChild(el("circle", {"class": "dot", cx: x(last[0]), cy: y(last[1]), r: 3.5}));
        now.push([seat, last[1]]);
      }
      svg.appendChild(g);
    });
    /* The latest value of each seat at the right edge, nudged apart so none overlap, and
       moved up together where the nudging would push the lowest below the chart (six seats
       at one value stacked under it). */
    now.sort(function (a, b) { return b[1] - a[1]; });
    var at = [], floor = -Infinity;
    now.forEach(function (item) { floor = Math.max(y(item[1]) + 4, floor + TAG); at.push(floor); });
    var ceiling = H - 2;
    for (var i = at.length - 1; i >= 0; i--) { at[i] = Math.min(at[i], ceiling); ceiling = at[i] - TAG; }
    now.forEach(function (item, i) {         // each value with its seat's dot: whose it is
      var ty = Math.max(at[i], TAG - 2), tag = el("g", {"class": colour(buttons, item[0])});
      tag.appendChild(el("circle", {"class": "dot", cx: W - RIGHT + 8, cy: ty - 4, r: 3.5}));
      tag.appendChild(el("text", {"class": "tag", x: W - RIGHT + 14, y: ty},
        mark[item[0]] + " " + format(item[1])));
      svg.appendChild(tag);
    });
    svg.setAttribute("aria-label", label + ": " + now.map(function (item) {
      return names[item[0]] + " " + format(item[1]);
    }).join(", "));
    plot.replaceChildren(svg);
    legend(figure, names, buttons, mark);
  }

  function note(odds, game) {
    if (!odds) return "";
    if (odds.exact) {
      return game === "domino-rex" ? "Exact, if from here every choice were made at random." :
        "Exact, from the rules.";
    }
    var runs = odds.playouts ? " from " + odds.playouts.toLocaleString() + " games played out" : "";
    var how = game === "domino-rex" ? ", choices made at random" : "";
    return "Within ±" + (odds.margin * 100).toFixed(1) + " points (95%)" + runs + how + ".";
  }

  function render(data) {
    var box = $("chances");
    if (!box) return;
    last = data;
    var names = data.names || [], buttons = data.buttons || [];
    var chart = data.chart || {chips: [], win: []};
    var chances = !!data.odds || !!data.paused || (chart.win || []).some(function (r) { return r; });
    var has = chances || (chart.chips || []).length > 1;
    box.hidden = !has;
    if (!has) return;
    $("chances-title").textContent = chances ? "Chances to win" : "Chips";   // free play: no chances
    var list = $("chance-list"), items = document.createDocumentFragment();
    // Each player's chance now, in the players' table's order (the order of play, C1); not
    // once the game is over: the result is said above, and "50%" beside a shared winner read as
    // a game still open (the club's screen and a game's history page list none then either).
    if (data.odds && !data.over) {
      (data.order || names.map(function (n, i) { return i; })).forEach(function (seat) {
        var name = names[seat], li = make("li");
        var swatch = make("span", "swatch " + colour(buttons, seat)); swatch.setAttribute("aria-hidden", "true");
        li.append(swatch, " " + name + " ", make("strong", "", percent(data.odds.win[seat])));
        items.appendChild(li);
      });
    }
    list.replaceChildren(items);
    list.hidden = !list.children.length;
    $("chance-note").textContent = data.paused ? "Chances are paused: " + data.paused + "." :
      data.note || note(data.odds, data.game);
    draw($("chart-win"), chart.win || [], names, buttons, 1, "Chance to win", function (v) { return percent(v); });
    var chips = chart.chips || [];
    var most = Math.max.apply(null, [1].concat(chips.map(function (r) { return Math.max.apply(null, r); })));
    var top = Math.max(2, Math.ceil(most / 2) * 2);
    draw($("chart-chips"), chips, names, buttons, top, "Chips", function (v) { return String(Math.round(v)); });
  }

  function fromState(state) {
    if (!state || !state.game) { render({}); return; }
    render({names: (state.players || []).map(function (p) { return p.name; }),
      buttons: (state.players || []).map(function (p) { return p.pi ? "pi" : p.button; }),
      odds: state.odds,
      order: window.ParlourState ? window.ParlourState.rowOrder(state) : null,
      paused: state.chances_paused, over: state.phase === "over",
      chart: state.chart, game: state.game});
  }

  function start() {
    var box = $("chances");
    if (!box) return;
    redrawOnResize();
    var url = box.getAttribute("data-chart-url");
    if (url) {
      fetch(url, {cache: "no-store"}).then(function (r) { return r.json(); }).then(function (c) {
        var unknown = !(c.win || []).some(function (r) { return r; });
        render({names: c.names, buttons: c.buttons, chart: c, game: c.game,
          note: unknown ? "Chances were not worked out for this game." :
            c.exact ? "Exact, from the rules." : "From games played out at each move."});
      }).catch(function () { box.hidden = true; });
      return;
    }
    var initial = $("initial-state");
    try { fromState(JSON.parse(initial.textContent)); } catch (err) { /* the server's list stays */ }
    document.addEventListener("parlour:state", function (e) { fromState(e.detail); });
  }

  // Drawn again when its width changes: a phone turned, or the page's styles arriving after
  // the first drawing (it measured the unstyled page).
  function redrawOnResize() {
    var box = $("chances"), drawnAt = -1;
    var again = function () {
      var width = box.clientWidth;
      if (!last || !width || width === drawnAt) return;
      drawnAt = width;
      render(last);
    };
    if (window.ResizeObserver) new ResizeObserver(again).observe(box);
    else window.addEventListener("resize", again);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
