// Wide tables on a narrow screen: each .table-wrap scrolls sideways, and when its table is wider than
// the screen a short hint ("Scroll for more →") is shown above it, so no column is hidden without a
// cue. The hint's words come from the body's data-scroll-hint attribute (translated with the page).
// Without JavaScript the tables still scroll, and the CSS shadow at the cut edge remains the cue.
(function () {
  "use strict";
  var text = document.body.dataset.scrollHint || "Scroll for more →";

  function setUp(wrap) {
    if (wrap.dataset.scrollHintReady) {
      return;
    }
    wrap.dataset.scrollHintReady = "1";
    var hint = document.createElement("p");
    hint.className = "scroll-hint";
    hint.textContent = text;
    hint.hidden = true;
    wrap.parentNode.insertBefore(hint, wrap);

    function update() {
      var overflowing = wrap.scrollWidth > wrap.clientWidth + 1;
      hint.hidden = !overflowing;
      wrap.classList.toggle("is-overflowing", overflowing);
      wrap.classList.toggle("at-end", wrap.scrollLeft + wrap.clientWidth >= wrap.scrollWidth - 1);
      // A scrollable region must be reachable with the keyboard to be scrolled with the arrow keys.
      if (overflowing) {
        wrap.tabIndex = 0;
      } else {
        wrap.removeAttribute("tabindex");
      }
    }

    wrap.addEventListener("scroll", update, { passive: true });
    if (window.ResizeObserver) {
      new ResizeObserver(update).observe(wrap);
    } else {
      window.addEventListener("resize", update);
    }
    update();
  }

  function scan(root) {
    if (root.matches && root.matches(".table-wrap")) {
      setUp(root);
    }
    if (root.querySelectorAll) {
      root.querySelectorAll(".table-wrap").forEach(setUp);
    }
  }

  scan(document);
  // Parts of pages swapped in by htmx (the hand log, the scoreboard) get their hints too.
  document.body.addEventListener("htmx:load", function (event) {
    scan(event.detail.elt);
  });
})();
