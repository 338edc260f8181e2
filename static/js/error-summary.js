// A refused form comes back with a summary of its errors at its top (templates/league/_form_errors.html).
// On a phone that summary can be below the first screen (the scoreboard and the clock come before the
// hand form): bring the page's first summary into view if it is not, and give it the focus, so the error
// is read at once, by eye and by a screen reader. Its links lead on to each field.
(function () {
  "use strict";
  var summary = document.querySelector("[data-error-summary]");
  if (!summary) return;
  var box = summary.getBoundingClientRect();
  if (box.top < 0 || box.bottom > window.innerHeight) summary.scrollIntoView({ block: "start" });
  summary.focus({ preventScroll: true });
})();
