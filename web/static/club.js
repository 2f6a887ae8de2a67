// The club's page: reload when the club's figures change (checked every few seconds).
(function () {
  "use strict";
  var body = document.body;
  var seconds = Number(body.getAttribute("data-poll")) || 3;
  var version = body.getAttribute("data-version");
  function check() {
    fetch("/api/club", {cache: "no-store"}).then(function (r) { return r.json(); })
      .then(function (data) {
        if (String(data.version) !== version) { window.location.reload(); }
      }).catch(function () {}).then(function () { setTimeout(check, seconds * 1000); });
  }
  setTimeout(check, seconds * 1000);
})();
