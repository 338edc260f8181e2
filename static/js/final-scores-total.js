// The running total of the final-scores form: the sum of the four scores against the expected sum
// (4 × start points, less 1000 per riichi stick left on the table), updated as the organiser types.
// A help only: the server checks the total when the form is saved. The words come from the page's
// data-text-* attributes, so they are translated with the rest of the page.
(function () {
  "use strict";
  var form = document.getElementById("final-scores-form");
  var out = document.getElementById("final-scores-total");
  if (!form || !out) {
    return;
  }
  var base = parseInt(out.dataset.expectedTotal, 10);

  function value(name) {
    var input = form.elements[name];
    if (!input || input.value.trim() === "") {
      return null;
    }
    var number = Number(input.value);
    return Number.isFinite(number) ? Math.trunc(number) : null;
  }

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (_, key) {
      return String(values[key]);
    });
  }

  function update() {
    var total = 0;
    var complete = true;
    for (var seat = 0; seat < 4; seat += 1) {
      var score = value("score_" + seat);
      if (score === null) {
        complete = false;
      } else {
        total += score;
      }
    }
    var sticks = value("sticks") || 0;
    var expected = base - 1000 * sticks;
    var difference = expected - total;
    var template = !complete
      ? out.dataset.textIncomplete
      : difference === 0
        ? out.dataset.textOk
        : out.dataset.textOff;
    out.textContent = fill(template, {
      total: total,
      expected: expected,
      difference: (difference > 0 ? "+" : "") + difference,
    });
    out.classList.toggle("bad", complete && difference !== 0);
    out.classList.toggle("good", complete && difference === 0);
  }

  form.addEventListener("input", update);
  update();
})();
