// The club's page: reload when the club's figures change, or its broker is lost or found
// (checked every few seconds); say so while the club itself cannot be reached.
(function () {
  "use strict";
  var body = document.body;
  var seconds = Number(body.getAttribute("data-poll")) || 3;
  var version = body.getAttribute("data-version");
  var broker = body.getAttribute("data-broker");
  var lost = false;                       // the club itself could not be reached
  function check() {
    fetch("/api/club", {cache: "no-store"}).then(function (r) { return r.json(); })
      .then(function (data) {
        var now = data.broker && !data.broker.connected ? "off: " + data.broker.problem : "on";
        if (lost || String(data.version) !== version || now !== broker) {
          window.location.reload();
        }
      }).catch(function () {
        lost = true;
        document.getElementById("club-off").hidden = false;
        document.querySelectorAll(".table-status").forEach(function (node) {
          node.textContent = "status not known";
        });
      })
      .then(function () { setTimeout(check, seconds * 1000); });
  }
  setTimeout(check, seconds * 1000);
})();
