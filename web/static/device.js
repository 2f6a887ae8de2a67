/* Parlour's simulated device: the OLED refreshed when its frame changes, buttons, and a knob
   you can turn (drag), press (click), hold (press 1 s) and flick (fast swipe round).

   Knob gestures, decided from the pointer:
     down ──move < 10°──> up before 1 s ............ press
     down ──still there after 1 s ................... hold
     down ──move, slower than FLICK_SPEED ........... turn, one message per DEGREES_PER_DETENT
     down ──move ... up while faster than FLICK_SPEED  flick (detents: how far it was swung)  */
(function () {
  "use strict";
  var DEGREES_PER_DETENT = 18;     // an EC11 has 20 detents a turn
  var FLICK_SPEED = 540;           // degrees per second at release
  var HOLD_MS = 1000, TAP_DEGREES = 10, SPEED_WINDOW_MS = 120;
  var POLL_MS = 100;
  var queue = Promise.resolve();

  function $(id) { return document.getElementById(id); }

  function say(words, bad) {
    var status = $("device-status");
    status.textContent = words;
    status.className = "fine" + (bad ? " bad" : "");
  }

  function send(payload) {
    queue = queue.then(function () {
      var csrf = document.querySelector('meta[name="parlour-csrf"]');
      return fetch("/device/input", {method: "POST", headers: {"Content-Type": "application/json",
        "X-Parlour-Csrf": csrf ? csrf.content : ""}, body: JSON.stringify(payload)}).then(function (r) {
        return r.json().catch(function () { return {}; }).then(function (body) {
          if (!r.ok) say(body.error || ("the device said " + r.status), true);
          else say("");
          refresh();
        });
      }).catch(function () { say("The table cannot be reached.", true); });
    });
    return queue;
  }

  // -- the screen ------------------------------------------------------------------------------
  var version = null, loading = false, timer = null, down = false;
  function refresh() {
    if (timer) { clearTimeout(timer); timer = null; }
    fetch("/device/screen", {cache: "no-store"}).then(function (r) { return r.json(); }).then(function (body) {
      if (down) { down = false; say(""); }     // back: the screen is the table's again
      light(body.lit || []);
      var img = $("screen");
      if (version === null) version = Number(img.getAttribute("data-version"));
      if (body.version !== version && !loading) {
        loading = true;
        var next = new Image();
        next.onload = next.onerror = function () {
          img.src = next.src;
          img.setAttribute("data-version", String(body.version));
          version = body.version;
          loading = false;
        };
        next.src = "/device/screen.png?v=" + encodeURIComponent(body.version);
      }
      timer = setTimeout(refresh, POLL_MS);
    }).catch(function () {          // stopped (Ctrl-C) or out of reach: said at once, not
      if (!down) {                   // only at the next press, beside a screen that looks live
        down = true;
        say("The table cannot be reached: the screen and lights are as they last were.", true);
      }
      timer = setTimeout(refresh, 1000);
    });
  }

  // -- the seat buttons' LEDs: lit as the box lights them (the armed seats) -------------------
  function light(seats) {
    document.querySelectorAll("#seat-buttons .seat").forEach(function (button) {
      var on = seats.indexOf(Number(button.getAttribute("data-seat"))) >= 0;
      button.classList.toggle("lit", on);
      var word = button.querySelector(".led-word");
      if (word) word.hidden = !on;
    });
  }

  // -- the knob --------------------------------------------------------------------------------
  function knob() {
    var node = $("knob"), mark = $("knob-mark");
    var drag = null, shown = 0;

    function angleOf(e) {
      var box = node.getBoundingClientRect();
      return Math.atan2(e.clientY - (box.top + box.height / 2), e.clientX - (box.left + box.width / 2)) * 180 / Math.PI;
    }
    function turnMark(degrees) {
      shown = degrees;
      mark.style.transform = "rotate(" + shown + "deg)";
    }
    function speed() {
      var s = drag.samples, now = performance.now();
      while (s.length > 2 && now - s[0].t > SPEED_WINDOW_MS) s.shift();
      if (s.length < 2) return 0;
      var first = s[0], last = s[s.length - 1];
      if (now - last.t > SPEED_WINDOW_MS) return 0;          // stopped before letting go
      var dt = (last.t - first.t) / 1000;
      return dt > 0 ? (last.total - first.total) / dt : 0;
    }
    function pending() { return Math.trunc(drag.total / DEGREES_PER_DETENT) - drag.sent; }

    node.addEventListener("pointerdown", function (e) {
      e.preventDefault();
      node.setPointerCapture(e.pointerId);
      node.classList.add("down");
      drag = {last: angleOf(e), total: 0, sent: 0, held: false, base: shown,
        samples: [{t: performance.now(), total: 0}]};
      drag.timer = setTimeout(function () {
        if (drag && Math.abs(drag.total) < TAP_DEGREES) { drag.held = true; send({input: "knob", action: "hold"}); }
      }, HOLD_MS);
    });
    node.addEventListener("pointermove", function (e) {
      if (!drag || drag.held) return;
      var a = angleOf(e), d = a - drag.last;
      if (d > 180) d -= 360;
      if (d < -180) d += 360;
      drag.last = a;
      drag.total += d;
      drag.samples.push({t: performance.now(), total: drag.total});
      turnMark(drag.base + drag.total);
      if (Math.abs(drag.total) >= TAP_DEGREES) clearTimeout(drag.timer);
      var n = pending();
      if (n !== 0 && Math.abs(speed()) < FLICK_SPEED) {
        drag.sent += n;
        send({input: "knob", action: "turn", detents: n});
      }
    });
    function release() {
      if (!drag) return;
      clearTimeout(drag.timer);
      node.classList.remove("down");
      var d = drag;
      var v = speed();
      drag = null;
      if (d.held) return;
      if (Math.abs(d.total) < TAP_DEGREES && d.sent === 0) { send({input: "knob", action: "press"}); return; }
      if (Math.abs(v) >= FLICK_SPEED) {
        var swing = Math.round((d.total - d.sent * DEGREES_PER_DETENT) / DEGREES_PER_DETENT);
        if (swing === 0) swing = v > 0 ? 1 : -1;
        send({input: "knob", action: "flick", detents: swing});
        return;
      }
      var rest = Math.trunc(d.total / DEGREES_PER_DETENT) - d.sent;
      if (rest) send({input: "knob", action: "turn", detents: rest});
    }
    node.addEventListener("pointerup", release);
    node.addEventListener("pointercancel", release);
    node.addEventListener("keydown", function (e) {
      var payload = null;
      if (e.key === "ArrowRight" || e.key === "ArrowUp") payload = {input: "knob", action: "turn", detents: 1};
      else if (e.key === "ArrowLeft" || e.key === "ArrowDown") payload = {input: "knob", action: "turn", detents: -1};
      else if (e.key === "Enter" || e.key === " ") payload = {input: "knob", action: "press"};
      else if (e.key === "h" || e.key === "H") payload = {input: "knob", action: "hold"};
      else if (e.key === "f" || e.key === "F") payload = {input: "knob", action: "flick", detents: 12};
      if (!payload) return;
      e.preventDefault();
      if (payload.detents) turnMark(shown + payload.detents * DEGREES_PER_DETENT);
      send(payload);
    });
  }

  function start() {
    document.querySelectorAll("button[data-input]").forEach(function (button) {
      button.addEventListener("click", function () { send(JSON.parse(button.getAttribute("data-input"))); });
    });
    knob();
    refresh();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
