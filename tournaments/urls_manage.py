"""Organisers' URLs of the tournament day: rounds, seating, printed slips, the EMA report."""

from django.urls import path

from .views import ema, manage

app_name = "tournaments_manage"

urlpatterns = [
    path("events/<slug:slug>/tournament/", manage.overview, name="tournament"),
    path("events/<slug:slug>/tournament/seating/", manage.generate, name="tournament_generate"),
    path("events/<slug:slug>/tournament/swap/", manage.swap, name="tournament_swap"),
    path("events/<slug:slug>/tournament/replace/", manage.replace, name="tournament_replace"),
    path("events/<slug:slug>/tournament/swiss/", manage.swiss, name="tournament_swiss"),
    path("events/<slug:slug>/rounds/<int:number>/seating/", manage.seating_print, name="seating_print"),
    path("events/<slug:slug>/rounds/<int:number>/slips/", manage.slips_print, name="slips_print"),
    path("events/<slug:slug>/ema/", ema.overview, name="ema"),
    path("events/<slug:slug>/ema/<str:fmt>/", ema.download, name="ema_download"),
]
