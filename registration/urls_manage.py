"""Organisers' URLs of registration: the settings and the list, its decisions and export, check-in."""

from django.urls import path

from .views import manage

app_name = "registration_manage"

LIST = "events/<slug:slug>/registration/"
CHECK_IN = "events/<slug:slug>/check-in/"

urlpatterns = [
    path(LIST, manage.registration, name="registration"),
    path(f"{LIST}csv/", manage.export_csv, name="csv"),
    path(f"{LIST}players/", manage.add_players, name="add_players"),
    path(f"{LIST}<int:pk>/approve/", manage.approve, name="approve"),
    path(f"{LIST}<int:pk>/reject/", manage.reject, name="reject"),
    path(f"{LIST}<int:pk>/wait/", manage.wait, name="wait"),
    path(CHECK_IN, manage.check_in_list, name="check_in"),
    path(f"{CHECK_IN}<int:pk>/", manage.tap, name="tap"),
    path(f"{CHECK_IN}seat/", manage.seat, name="seat"),
]
