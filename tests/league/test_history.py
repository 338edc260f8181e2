"""The audit trail of league's writes: creating and editing events, registering, editing, withdrawing and
restoring players each leave a history entry saying who, and what changed (old → new). The model lives
in league (league may not import scoring) on the table it had in scoring, so scoring's readers keep
working."""

from __future__ import annotations

import ast
from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.urls import reverse

from league import services
from league.models import Event, Hanchan, HistoryEntry, Player, Registration, Seat
from scoring.engine import make_ruleset
from tests.league.test_services import event_args

pytestmark = pytest.mark.django_db


def entries(action: str) -> list[HistoryEntry]:
    return list(HistoryEntry.objects.filter(action=action).order_by("id"))


# -- the model's new home ----------------------------------------------------------------------------------


def test_history_entry_is_league_s_model_on_scoring_s_table():
    import scoring.models
    import scoring.services.history

    assert HistoryEntry._meta.app_label == "league"
    assert HistoryEntry._meta.db_table == "scoring_historyentry"
    # Scoring's callers and readers are unchanged: the same class under the old names.
    assert scoring.models.HistoryEntry is HistoryEntry
    assert scoring.services.history.HistoryEntry is HistoryEntry


def test_league_history_imports_nothing_of_scoring():
    tree = ast.parse((Path(settings.BASE_DIR) / "league" / "history.py").read_text(encoding="utf-8"))
    imported = [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)] + [
        alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names
    ]
    assert not [name for name in imported if name.startswith("scoring")]


def test_the_move_is_state_only():
    """Both migrations change Django's idea of the models, never the table (its rows stay)."""
    from django.db.migrations.loader import MigrationLoader

    loader = MigrationLoader(None, ignore_no_migrations=True)
    league = loader.get_migration("league", "0004_historyentry")
    scoring = loader.get_migration("scoring", "0004_move_historyentry_to_league")
    assert ("scoring", "0004_move_historyentry_to_league") not in league.dependencies
    assert ("league", "0004_historyentry") in scoring.dependencies
    for migration in (league, scoring):
        (operation,) = migration.operations
        assert type(operation).__name__ == "SeparateDatabaseAndState"
        assert operation.database_operations == []
    assert league.operations[0].state_operations[0].options["db_table"] == "scoring_historyentry"
    out = StringIO()
    call_command("makemigrations", "--check", "--dry-run", stdout=out)  # the state matches the models
    assert "No changes detected" in out.getvalue()


# -- events ------------------------------------------------------------------------------------------------


def test_creating_an_event_is_in_its_history(club, organiser):
    event = services.create_event(**event_args(club, organiser, name="Spring League"))
    (entry,) = entries("event created")
    assert entry.event == event and entry.user == organiser and entry.hanchan is None
    assert "Spring League" in entry.summary and club.name in entry.summary
    assert entry.before is None
    assert entry.after["slug"] == "spring-league" and entry.after["city"] == "Lyon"
    assert entry.after["start_date"] == "2025-03-01" and entry.after["country"] == "FR"
    assert entry.after["ruleset"]["preset"] == "ema2016"


def test_editing_an_event_records_old_and_new_values(event, organiser):
    services.update_event(
        event=event,
        user=organiser,
        data={"name": "Spring League", "city": "Paris", "min_games": 0, "visibility": event.visibility},
    )
    (entry,) = entries("event edited")
    assert entry.user == organiser
    assert entry.before == {"name": "Autumn League", "city": ""}
    assert entry.after == {"name": "Spring League", "city": "Paris"}
    assert "name: Autumn League → Spring League" in entry.summary
    assert "city: — → Paris" in entry.summary
    assert "min games" not in entry.summary  # unchanged fields are not listed
    services.update_event(event=event, user=organiser, data={"name": "Spring League"})
    assert len(entries("event edited")) == 1  # an edit that changes nothing writes nothing


def test_editing_an_event_s_rules_names_the_settings_that_changed(event, organiser):
    services.update_event(
        event=event, user=organiser, data={"ruleset": make_ruleset("ema2016", {"kiriage": True})}
    )
    (entry,) = entries("event edited")
    assert entry.before["ruleset"]["kiriage"] is False and entry.after["ruleset"]["kiriage"] is True
    assert "ruleset: kiriage: no → yes" in entry.summary


def test_registering_a_new_player_is_in_the_history(event, organiser):
    registration = services.register_player(
        event=event,
        display_name="Ann",
        given_name="Ann",
        family_name="Lee",
        ema_number="",
        country="FR",
        user=organiser,
    )
    (entry,) = entries("player registered")
    assert entry.event == event and entry.user == organiser
    assert entry.after["player"] == registration.player_id and entry.after["new_player"] is True
    assert "Ann registered (new player)" in entry.summary


def test_registering_a_known_player_says_which_blank_details_were_filled_in(event, club, organiser):
    known = Player.objects.create(display_name="Bob", club=club)
    services.register_player(
        event=event,
        display_name="Bob",
        given_name="Robert",
        family_name="",
        ema_number="",
        country="",
        user=organiser,
    )
    (entry,) = entries("player registered")
    assert entry.after["player"] == known.pk and entry.after["new_player"] is False
    assert entry.before == {"player_details": {"given_name": ""}}
    assert entry.after["player_details"] == {"given_name": "Robert"}
    assert "given name: — → Robert" in entry.summary


def test_a_pasted_list_writes_one_entry_per_player(event, organiser):
    registrations = services.register_players_csv(event=event, text="Ann\nBob\nCho", user=organiser)
    found = entries("player registered")
    assert [e.after["player"] for e in found] == [r.player_id for r in registrations]
    assert all(e.user == organiser and e.event == event for e in found)
    with pytest.raises(ValidationError):  # a refused paste saves nothing, history included
        services.register_players_csv(event=event, text="Dan\nDan", user=organiser)
    assert len(entries("player registered")) == 3


def test_editing_a_player_is_in_the_history_of_each_of_their_events(club, event, organiser):
    other = Event.objects.create(
        club=club, name="Winter Cup", slug="winter-cup", ruleset=make_ruleset("ema2016", {}).to_dict()
    )
    player = Player.objects.create(display_name="Ann", club=club)
    for target in (event, other):
        Registration.objects.create(event=target, player=player)
    services.update_player(
        player=player,
        user=organiser,
        display_name="Anne",
        given_name="Anne",
        family_name="",
        ema_number="",
        country="",
    )
    found = entries("player edited")
    assert {e.event_id for e in found} == {event.pk, other.pk}
    for entry in found:
        assert entry.before == {"player": player.pk, "display_name": "Ann", "given_name": ""}
        assert entry.after == {"player": player.pk, "display_name": "Anne", "given_name": "Anne"}
        assert "display name: Ann → Anne" in entry.summary


def test_withdrawing_unregistering_and_restoring_are_in_the_history(event, club, organiser):
    ann, bob, cho, dan, eve = (Player.objects.create(display_name=n, club=club) for n in "ABCDE")
    registrations = {p: Registration.objects.create(event=event, player=p) for p in (ann, bob, cho, dan, eve)}
    game = Hanchan.objects.create(event=event)
    Seat.objects.bulk_create(Seat(hanchan=game, seat=i, player=p) for i, p in enumerate((ann, bob, cho, dan)))

    services.withdraw_registration(registration=registrations[eve], user=organiser)  # never played
    (gone,) = entries("player unregistered")
    assert gone.before == {"player": eve.pk, "registered": True}
    assert gone.after == {"player": eve.pk, "registered": False}

    services.withdraw_registration(registration=registrations[ann], user=organiser, reason="moved away")
    (withdrawn,) = entries("player withdrawn")
    assert withdrawn.before == {"player": ann.pk, "withdrawn_at": None}
    assert withdrawn.after["withdrawn_at"]  # the moment, as ISO text
    assert withdrawn.user == organiser and "withdrawn: no → yes" in withdrawn.summary
    assert withdrawn.reason == "moved away"

    services.restore_registration(registration=registrations[ann], user=organiser)
    (restored,) = entries("player restored")
    assert restored.before["withdrawn_at"] == withdrawn.after["withdrawn_at"]
    assert restored.after == {"player": ann.pk, "withdrawn_at": None}


def test_the_manage_pages_write_the_history_too(client, club, organiser):
    """Through the real page: the event form's POST ends as an entry by the logged-in organiser."""
    from tests.league.test_views import event_post

    client.force_login(organiser)
    response = client.post(reverse("league_manage:event_create", args=[club.slug]), event_post())
    assert response.status_code == 302
    (entry,) = entries("event created")
    assert entry.user == organiser
