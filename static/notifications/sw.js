// Tenbou's service worker (served as /sw.js, the site's root scope): shows the Web Push messages the
// worker sends (notifications/push.py: {title, body, url, tag}) and opens their page on a tap.
"use strict";

self.addEventListener("push", function (event) {
  var data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (error) {
    data = { title: event.data ? event.data.text() : "Tenbou" };
  }
  event.waitUntil(
    self.registration.showNotification(data.title || "Tenbou", {
      body: data.body || "",
      tag: data.tag || undefined,
      data: { url: data.url || "/" },
      icon: "/static/favicon.svg",
    })
  );
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var url = (event.notification.data && event.notification.data.url) || "/";
  event.waitUntil(self.clients.openWindow(url));
});
