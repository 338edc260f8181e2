"""Organisers' URLs of the tournament day: rounds, seating, printed slips, the EMA report."""

from django.urls import path

from .views import clock, ema, manage, reseat, rounds, stages, team_league, teams

app_name = "tournaments_manage"

ROUND = "events/<slug:slug>/rounds/<int:number>/"  # a round on the day (tournaments/views/rounds.py)
TEAM = "events/<slug:slug>/teams/<int:pk>/"  # one team (tournaments/views/teams.py)
DAY = "events/<slug:slug>/match-days/<int:number>/"  # a team league's match day (views/team_league.py)

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
    # Teams of an event (any kind), and a team league's match days.
    path("events/<slug:slug>/teams/", teams.overview, name="teams"),
    path("events/<slug:slug>/teams/paste/", teams.paste, name="teams_paste"),
    path("events/<slug:slug>/teams/new/", teams.create, name="team_create"),
    path("events/<slug:slug>/teams/settings/", teams.settings, name="team_settings"),
    path(TEAM, teams.team, name="team"),
    path(f"{TEAM}rename/", teams.rename, name="team_rename"),
    path(f"{TEAM}members/", teams.add_member, name="team_member_add"),
    path(f"{TEAM}members/remove/", teams.remove_member, name="team_member_remove"),
    path(f"{TEAM}captain/", teams.captain, name="team_captain"),
    path(f"{TEAM}delete/", teams.delete, name="team_delete"),
    path("events/<slug:slug>/match-days/", team_league.match_days, name="match_days"),
    path(DAY, team_league.match_day, name="match_day"),
    path(f"{DAY}tables/<int:table>/start/", team_league.start, name="match_game_start"),
    # Stages, cuts and finals (tournaments/views/stages.py).
    path("events/<slug:slug>/stages/", stages.overview, name="stages"),
    path("events/<slug:slug>/stages/add/", stages.add, name="stage_add"),
    path("events/<slug:slug>/stages/<int:order>/close/", stages.close, name="stage_close"),
    path("events/<slug:slug>/stages/<int:order>/seat/", stages.seat, name="stage_seat"),
    path("events/<slug:slug>/stages/<int:order>/hide/", stages.hide, name="stage_hide"),
    path("events/<slug:slug>/stages/<int:order>/release/", stages.release, name="stage_release"),
    path("events/<slug:slug>/ema/", ema.overview, name="ema"),
    path("events/<slug:slug>/ema/<str:fmt>/", ema.download, name="ema_download"),
]
