// One tap, one submission: a form marked data-submit-once disables its submit buttons while its
// request runs, so a double tap on "Save hand" sends the hand once. The server still answers a
// resubmitted hand as "already saved"; this only spares the second request.
// The buttons are disabled just after the browser has built the form data (a disabled button's
// name and value would otherwise be left out), and enabled again when the page is shown from the
// back/forward cache or an htmx submission of the form completes. Without JavaScript the form posts
// as usual.
(function () {
  "use strict";

  function buttons(form) {
    return form.querySelectorAll('button[type="submit"], button:not([type]), input[type="submit"]');
  }

  function setBusy(form, busy) {
    buttons(form).forEach(function (button) {
      button.disabled = busy;
    });
    if (busy) {
      form.setAttribute("aria-busy", "true");
    } else {
      form.removeAttribute("aria-busy");
    }
  }

  function submitsThroughHtmx(form) {
    var trigger = form.getAttribute("hx-trigger");
    var sends = form.hasAttribute("hx-post") || form.hasAttribute("hx-get");
    return sends && (!trigger || /\bsubmit\b/.test(trigger));
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-submit-once")) {
      return;
    }
    if (form.getAttribute("aria-busy") === "true") {
      event.preventDefault(); // a second tap before the buttons were disabled
      return;
    }
    form.setAttribute("aria-busy", "true");
    window.setTimeout(function () {
      // Another handler may have stopped the submission: then nothing is on its way, unless htmx
      // sends the form itself (its end, below, enables the buttons again).
      setBusy(form, !event.defaultPrevented || submitsThroughHtmx(form));
    }, 0);
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    var config = event.detail && event.detail.requestConfig;
    var form = event.target;
    if (form instanceof HTMLFormElement && form.hasAttribute("data-submit-once") &&
        config && config.triggeringEvent && config.triggeringEvent.type === "submit") {
      setBusy(form, false);
    }
  });

  window.addEventListener("pageshow", function () {
    document.querySelectorAll("form[data-submit-once]").forEach(function (form) {
      setBusy(form, false);
    });
  });
})();
