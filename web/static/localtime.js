/* Parlour: times written in UTC by the table, shown in the phone's own time zone; and the BG
   Stats link's play date in the phone's own zone (the app on this phone reads it as local). */
(function () {
  "use strict";
  function moment(iso) {                 // a time without a zone is the table's UTC
    var date = new Date(/(Z|[+-]\d\d:?\d\d)$/.test(iso) ? iso : iso + "Z");
    return isNaN(date.getTime()) ? null : date;
  }
  function two(n) { return (n < 10 ? "0" : "") + n; }
  function bgStatsHere(link, startedIso) {
    // The link's play date as this phone's local "YYYY-MM-DD HH:MM:SS" (BG Stats' own form).
    var at = link.href.indexOf("?data="), when = startedIso ? moment(startedIso) : null;
    if (at < 0 || !when) return;
    try {
      var play = JSON.parse(decodeURIComponent(link.href.slice(at + 6)));
      play.playDate = when.getFullYear() + "-" + two(when.getMonth() + 1) + "-" + two(when.getDate()) +
        " " + two(when.getHours()) + ":" + two(when.getMinutes()) + ":" + two(when.getSeconds());
      link.href = link.href.slice(0, at + 6) + encodeURIComponent(JSON.stringify(play));
    } catch (err) { /* a link this page did not make: left as the table wrote it */ }
  }
  function local(root) {                 // the page, or a part of it put in later
    root = root && root.querySelectorAll ? root : document;
    root.querySelectorAll("time[datetime]").forEach(function (node) {
      var when = new Date(node.getAttribute("datetime"));
      if (isNaN(when.getTime())) return;
      node.title = node.textContent;
      node.textContent = when.toLocaleString([], {year: "numeric", month: "short", day: "numeric",
        hour: "2-digit", minute: "2-digit"});
    });
    root.querySelectorAll("a[data-started]").forEach(function (link) {
      bgStatsHere(link, link.getAttribute("data-started"));
    });
  }
  window.ParlourTime = {bgStatsHere: bgStatsHere, local: local};
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", local);
  else local();
})();
