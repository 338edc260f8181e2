// The round clock counts down in the browser between two polls of the server (every 15 s, by htmx):
// each [data-clock] element says how many seconds were left when the server rendered it
// (data-remaining) and whether the clock runs (data-running). An element swapped in by a poll starts
// afresh from the server's figure, so the browser never drifts more than one poll from the truth.
// When the time runs out between two polls, the element's [data-clock-expired] note (the event's
// time-limit rule, written by the server in the page's language) is shown. No inline script: CSP.
(function () {
  "use strict";

  function format(seconds) {
    seconds = Math.max(0, Math.floor(seconds));
    var hours = Math.floor(seconds / 3600);
    var minutes = Math.floor((seconds % 3600) / 60);
    var secs = seconds % 60;
    var mm = hours ? String(minutes).padStart(2, "0") : String(minutes);
    var text = mm + ":" + String(secs).padStart(2, "0");
    return hours ? hours + ":" + text : text;
  }

  function tick() {
    var now = Date.now();
    document.querySelectorAll("[data-clock]").forEach(function (clock) {
      if (clock.clockDeadline === undefined) {
        // First sight of this element (page load or a fresh poll): start from the server's figure.
        var remaining = parseInt(clock.dataset.remaining, 10) || 0;
        clock.clockDeadline = now + remaining * 1000;
        clock.clockRunning = clock.dataset.running === "1";
      }
      if (!clock.clockRunning) {
        return;
      }
      var left = Math.ceil((clock.clockDeadline - now) / 1000);
      var time = clock.querySelector("[data-clock-time]");
      if (time) {
        time.textContent = format(left);
      }
      if (left <= 0 && !clock.classList.contains("expired")) {
        clock.classList.add("expired");
        var note = clock.querySelector("[data-clock-expired]");
        if (note) {
          note.hidden = false;
        }
        var state = clock.querySelector("[data-clock-state]");
        if (state && clock.dataset.textExpired) {
          state.textContent = clock.dataset.textExpired;
        }
      }
    });
  }

  tick();
  window.setInterval(tick, 250);
})();
