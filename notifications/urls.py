"""The notifications' public URLs: the unsubscribe link of every e-mail, and the service worker of Web
Push, served from the site's root so that its scope is the whole site."""

from django.urls import path

from . import views

app_name = "notifications"

urlpatterns = [
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("sw.js", views.service_worker, name="service_worker"),
]
