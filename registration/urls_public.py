"""Public URLs of registration: an event's form, and each sign-up's personal page (its token is the key:
it is in the confirmation e-mail and the check-in QR code)."""

from django.urls import path

from .views import public

app_name = "registration"

SIGNUP = "registration/<str:token>/"

urlpatterns = [
    path("events/<slug:slug>/register/", public.register, name="register"),
    path(SIGNUP, public.signup, name="signup"),
    path(f"{SIGNUP}withdraw/", public.withdraw, name="withdraw"),
    path(f"{SIGNUP}check-in/", public.check_in, name="check_in"),
    path(f"{SIGNUP}messages/", public.preferences, name="preferences"),
    path(f"{SIGNUP}push/", public.push_subscribe, name="push"),
]
