/* Parlour: times written in UTC by the table, shown in the phone's own time zone. */
(function () {
  "use strict";
  function local() {
    document.querySelectorAll("time[datetime]").forEach(function (node) {
      var moment = new Date(node.getAttribute("datetime"));
      if (isNaN(moment.getTime())) return;
      node.title = node.textContent;
      node.textContent = moment.toLocaleString([], {year: "numeric", month: "short", day: "numeric",
        hour: "2-digit", minute: "2-digit"});
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", local);
  else local();
})();
