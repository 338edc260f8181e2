// The personal page's "push messages on this device" button (templates/registration/public/signup.html):
// registers the service worker (/sw.js), subscribes with the site's VAPID public key and sends the
// subscription to the page's own URL with the form's CSRF token. Without Web Push the form stays hidden.
(function () {
  "use strict";
  var form = document.getElementById("push-form");
  if (!form || !("serviceWorker" in navigator) || !("PushManager" in window)) return;
  var status = document.getElementById("push-status");
  form.hidden = false;

  function keyBytes(base64url) {
    var padded = (base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    var raw = atob(padded);
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }

  function b64url(buffer) {
    var bytes = new Uint8Array(buffer);
    var text = "";
    for (var i = 0; i < bytes.length; i++) text += String.fromCharCode(bytes[i]);
    return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    navigator.serviceWorker
      .register(form.dataset.worker, { scope: "/" })
      .then(function () { return navigator.serviceWorker.ready; })
      .then(function (registration) {
        return registration.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey: keyBytes(form.dataset.key),
        });
      })
      .then(function (subscription) {
        var body = new FormData(form);
        body.set("endpoint", subscription.endpoint);
        body.set("p256dh", b64url(subscription.getKey("p256dh")));
        body.set("auth", b64url(subscription.getKey("auth")));
        return fetch(form.action, { method: "POST", body: body, credentials: "same-origin" });
      })
      .then(function (response) {
        status.textContent = response.ok ? form.dataset.done : form.dataset.failed;
      })
      .catch(function () {
        status.textContent = form.dataset.failed;
      });
  });
})();
