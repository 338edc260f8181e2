// Following players without an account: the browser keeps the list of followed players' ids in
// localStorage ("tenbou.following"). A player's page shows a "Follow" button ([data-follow-player]);
// the home page's section [data-followed-url] asks the server for the followed players' next table
// and latest result (accounts.views.followed) and shows it. Nothing is sent anywhere else, and
// without JavaScript (or storage) the button and the section simply stay hidden.
(function () {
  "use strict";

  var KEY = "tenbou.following";
  var MAX = 30;

  function read() {
    try {
      var list = JSON.parse(window.localStorage.getItem(KEY) || "[]");
      return Array.isArray(list) ? list.filter(function (id) { return /^\d{1,11}$/.test(String(id)); }).map(String) : [];
    } catch (e) {
      return [];
    }
  }

  function write(list) {
    try {
      window.localStorage.setItem(KEY, JSON.stringify(list.slice(0, MAX)));
      return true;
    } catch (e) {
      return false;
    }
  }

  function label(button, following) {
    button.textContent = following ? button.dataset.unfollowLabel : button.dataset.followLabel;
    button.setAttribute("aria-pressed", following ? "true" : "false");
  }

  function setUpButton(button) {
    var id = String(button.dataset.followPlayer);
    label(button, read().indexOf(id) !== -1);
    button.hidden = false;
    button.addEventListener("click", function () {
      var list = read();
      var at = list.indexOf(id);
      if (at === -1) {
        list.unshift(id);
      } else {
        list.splice(at, 1);
      }
      if (write(list)) {
        label(button, at === -1);
      }
    });
  }

  function showFollowed(section) {
    var list = read();
    if (!list.length) {
      return;
    }
    var url = section.dataset.followedUrl + "?ids=" + encodeURIComponent(list.join(","));
    fetch(url, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (response) { return response.ok ? response.text() : ""; })
      .then(function (html) {
        if (!html) {
          return;
        }
        section.querySelector("[data-followed-list]").innerHTML = html;
        section.hidden = false;
      })
      .catch(function () {});
  }

  function start() {
    document.querySelectorAll("[data-follow-player]").forEach(setUpButton);
    document.querySelectorAll("[data-followed-url]").forEach(showFollowed);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
