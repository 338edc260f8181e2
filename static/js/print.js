// A button marked data-print opens the browser's print dialog. It lives here rather than in an
// onclick attribute because the Content-Security-Policy allows no inline script or event handler.
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    if (event.target instanceof Element && event.target.closest("[data-print]")) {
      window.print();
    }
  });
})();
