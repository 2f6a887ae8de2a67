/* Parlour: the last throw drawn like the real thing, as inline SVG.
   dice -> die faces with pips; indicator -> a dial 1..6 with two arrows; spinner -> a disc of
   segments with one arrow. ParlourDial.draw(container, lastRoll, randomizer, fresh). */
(function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var PIPS = {1: [[50, 50]], 2: [[28, 28], [72, 72]], 3: [[28, 28], [50, 50], [72, 72]],
    4: [[28, 28], [72, 28], [28, 72], [72, 72]],
    5: [[28, 28], [72, 28], [50, 50], [28, 72], [72, 72]],
    6: [[28, 26], [72, 26], [28, 50], [72, 50], [28, 74], [72, 74]]};

  function el(name, attrs, parent) {
    var node = document.createElementNS(NS, name);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (parent) parent.appendChild(node);
    return node;
  }

  function svg(viewBox, cls, label) {
    var node = el("svg", {viewBox: viewBox, "class": cls, role: "img"});
    el("title", {}, node).textContent = label;
    return node;
  }

  function polar(angle, r) {           // angle in degrees, 0 at the top, clockwise
    var a = (angle - 90) * Math.PI / 180;
    return [50 + r * Math.cos(a), 50 + r * Math.sin(a)];
  }

  function dice(values) {
    var node = svg("0 0 " + (values.length * 110 - 10) + " 100", "dice", "dice showing " + values.join(" and "));
    values.forEach(function (v, i) {
      var g = el("g", {transform: "translate(" + (i * 110) + " 0)"}, node);
      el("rect", {"class": "face", x: 4, y: 4, width: 92, height: 92, rx: 14}, g);
      (PIPS[v] || []).forEach(function (p) { el("circle", {"class": "pip", cx: p[0], cy: p[1], r: 8}, g); });
      if (!PIPS[v]) { var t = el("text", {x: 50, y: 62, "text-anchor": "middle", "class": "tick"}, g); t.textContent = v; }
    });
    return node;
  }

  function arrow(parent, value, faces, length, cls) {
    var spin = el("g", {"class": "spin"}, parent);
    var angle = (value - 0.5) * 360 / faces;
    var g = el("g", {transform: "rotate(" + angle + " 50 50)", "class": cls}, spin);
    el("polygon", {points: "50," + (50 - length) + " 45," + (50 - length + 12) + " 48," + (50 - length + 10) +
      " 47,56 53,56 52," + (50 - length + 10) + " 55," + (50 - length + 12)}, g);
  }

  // A segment's words as they fit a slice of a 12-segment disc: "double 6" is "2×6" (what it
  // counts, as India's rules say); the full words stay in the dial's title for screen readers.
  function short(label) {
    var m = /^double\s+(\d+)$/i.exec(String(label));
    return m ? "2\u00d7" + m[1] : String(label);
  }

  function disc(faces, labels, shade) {
    var node = svg("0 0 100 100", "disc" + (faces > 8 ? " many" : ""), "");
    el("circle", {"class": "rim", cx: 50, cy: 50, r: 48}, node);
    for (var k = 0; k < faces; k++) {
      var a = polar(k * 360 / faces, 46), b = polar((k + 1) * 360 / faces, 46);
      if (shade) {
        el("path", {"class": k % 2 ? "seg-b" : "seg-a", d: "M50,50 L" + a[0] + "," + a[1] +
          " A46,46 0 0,1 " + b[0] + "," + b[1] + " Z"}, node);
      } else {
        el("line", {x1: 50 + (a[0] - 50) * 0.8, y1: 50 + (a[1] - 50) * 0.8, x2: a[0], y2: a[1], stroke: "currentColor", "stroke-width": 0.6}, node);
      }
      var p = polar((k + 0.5) * 360 / faces, faces > 8 ? 36 : 39);
      var t = el("text", {"class": "tick", x: p[0], y: p[1] + 3, "text-anchor": "middle"}, node);
      t.textContent = labels ? short(labels[k]) : String(k + 1);
    }
    return node;
  }

  function indicator(values) {
    var node = disc(6, null, false);
    node.querySelector("title").textContent = "the Indicator: arrows on " + values.join(" and ");
    arrow(node, values[0], 6, 34, "arrow-1");
    arrow(node, values[1], 6, 24, "arrow-2");
    el("circle", {"class": "hub", cx: 50, cy: 50, r: 4}, node);
    return node;
  }

  function spinner(value, faces, labels) {
    var node = disc(faces, labels, true);
    node.querySelector("title").textContent = "the spinner on " + (labels ? labels[value - 1] : value);
    arrow(node, value, faces, faces > 8 ? 26 : 32, "arrow-1");   // short of the labels: the
                                                    // tip hid India's "2×4" it pointed at
    el("circle", {"class": "hub", cx: 50, cy: 50, r: 4}, node);
    return node;
  }

  function draw(container, lastRoll, randomizer, fresh) {
    while (container.firstChild) container.removeChild(container.firstChild);
    if (!lastRoll || !lastRoll.values || !lastRoll.values.length) return;
    var values = lastRoll.values, r = randomizer || {};
    var fits = r.count === values.length;
    var node;
    if (fits && r.kind === "indicator") node = indicator(values);
    else if (fits && r.kind === "spinner") node = spinner(values[0], r.faces, r.labels);
    else node = dice(values);
    container.classList.toggle("fresh", !!fresh);
    container.appendChild(node);
  }

  window.ParlourDial = {draw: draw};
})();
