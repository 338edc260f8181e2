"""Organisers' URLs of the tournament day: rounds, seating, printed slips, the EMA report."""

from django.urls import path

from .views import clock, ema, manage, reseat, rounds

app_name = "tournaments_manage"

ROUND = "events/<slug:slug>/rounds/<int:number>/"  # a round on the day (tournaments/views/rounds.py)

urlpatterns = [
    path("events/<slug:slug>/tournament/", manage.overview, name="tournament"),
    path("events/<slug:slug>/tournament/seating/", manage.generate, name="tournament_generate"),
    path("events/<slug:slug>/tournament/swap/", manage.swap, name="tournament_swap"),
    path("events/<slug:slug>/tournament/replace/", manage.replace, name="tournament_replace"),
    path("events/<slug:slug>/tournament/swiss/", manage.swiss, name="tournament_swiss"),
    path("events/<slug:slug>/tournament/reseat/", reseat.reseat, name="tournament_reseat"),
    path("events/<slug:slug>/rounds/<int:number>/seating/", manage.seating_print, name="seating_print"),
    path("events/<slug:slug>/rounds/<int:number>/slips/", manage.slips_print, name="slips_print"),
    # A round on the day: its tables live, their entry links, opening and closing it.
    path(ROUND, rounds.round_page, name="round"),
    path(f"{ROUND}tables/", rounds.round_tables, name="round_tables"),
    path(f"{ROUND}open/", rounds.open_round, name="round_open"),
    path(f"{ROUND}close/", rounds.close_round, name="round_close"),
    path(f"{ROUND}links/", rounds.issue_links, name="round_links"),
    path(f"{ROUND}games/<int:pk>/reissue/", rounds.reissue, name="link_reissue"),
    path(f"{ROUND}games/<int:pk>/revoke/", rounds.revoke, name="link_revoke"),
    path(f"{ROUND}games/<int:pk>/confirm/", rounds.confirm, name="table_confirm"),
    path(f"{ROUND}games/<int:pk>/referee/", rounds.clear_referee, name="referee_clear"),
    path(f"{ROUND}games/<int:pk>/return/", rounds.give_back, name="table_return"),
    path("events/<slug:slug>/tournament/clock/start/", clock.start, name="clock_start"),
    path("events/<slug:slug>/tournament/clock/pause/", clock.pause, name="clock_pause"),
    path("events/<slug:slug>/tournament/clock/adjust/", clock.adjust, name="clock_adjust"),
    path("events/<slug:slug>/tournament/clock/length/", clock.length, name="clock_length"),
    path("events/<slug:slug>/standings/release/", clock.release_standings, name="standings_release"),
    path("events/<slug:slug>/ema/", ema.overview, name="ema"),
    path("events/<slug:slug>/ema/<str:fmt>/", ema.download, name="ema_download"),
]
