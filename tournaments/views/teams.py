"""Teams: the organisers' pages (the teams of an event, a team's members and captain, the pasted
``Team; Player`` lines, how team points count) and the public ones (team standings, a team's page, the
team standings as CSV, the wall's team slide).

Thin: :mod:`tournaments.teams` writes and reads. Manage views load the event through
``league.permissions.managed_event_or_404`` and the team within it, so someone else's answers 404;
public views are as public as the event (members-only events need a login) and show the standings as a
visitor may see them (hidden rounds stay hidden).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import IntegrityError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import SafeString
from django.utils.translation import gettext, gettext_lazy, ngettext

from league import services as league_services
from league.collation import order_by_name, sorted_by_name
from league.forms import add_service_errors
from league.models import Event, Player, Registration
from league.permissions import managed_event_or_404, visible_event_or_404
from league.views.post_only import post_only
from scoring.exports.csvfile import csv_response
from scoring.standings import hidden_after_round
from scoring.views.public import login_for_members_only
from tournaments import teams
from tournaments.models import Team, TeamMember, TeamSettings
from tournaments.views.wall import _tournament as wall_tournament
from tournaments.views.wall import options as wall_options
from tournaments.views.wall import ranked_slide_html

# -- forms ------------------------------------------------------------------------------------------------


class TeamNameForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Team name"), max_length=teams.NAME_LENGTH)


class TeamPasteForm(forms.Form):
    text = forms.CharField(
        label=gettext_lazy("Teams and players, one player per line"),
        max_length=league_services.PASTE_MAX_CHARS,
        widget=forms.Textarea(
            attrs={"rows": 8, "placeholder": "Red; Ann; captain\nRed; Bob\nBlue; Cho, , , 04390002"}
        ),
        help_text=gettext_lazy(
            "Each line: the team, a semicolon, then the player as in the players' paste (display name, "
            "then optionally given name, family name, EMA number, country…). End a line with “; captain” "
            "or “; substitute” to make that player the team's captain or to register a new player as a "
            "substitute. A team or a player the event does not have yet is created; pasting the same lines "
            "again changes nothing."
        ),
    )


class SettingsForm(forms.ModelForm):
    class Meta:
        model = TeamSettings
        fields = ["counting", "best"]
        widgets = {"counting": forms.RadioSelect}


class MemberForm(forms.Form):
    player = forms.ModelChoiceField(queryset=Player.objects.none(), label=gettext_lazy("Player"))
    captain = forms.BooleanField(required=False, label=gettext_lazy("Captain"))


class CaptainForm(forms.Form):
    captain = forms.ModelChoiceField(
        queryset=Player.objects.none(),
        required=False,
        label=gettext_lazy("Captain"),
        empty_label=gettext_lazy("no captain"),
    )


class RemoveForm(forms.Form):
    player = forms.ModelChoiceField(queryset=Player.objects.none())


class AfterRoundForm(forms.Form):
    """The public pages' "after round N" choice (tournaments)."""

    round = forms.IntegerField(min_value=1, max_value=999, required=False, label=gettext_lazy("After round"))


def _teams_url(slug: str, **_: Any) -> str:
    """Where a GET on a teams action goes (a restored tab): the event's teams page (see ``post_only``)."""
    return reverse("tournaments_manage:teams", args=[slug])


def _team_url(slug: str, pk: int, **_: Any) -> str:
    """Where a GET on one team's action goes: that team's page."""
    return reverse("tournaments_manage:team", args=[slug, pk])


SAME_TIME = gettext_lazy("Someone changed this team at the same time: nothing was saved, try again.")


def _submit(
    request: HttpRequest,
    form: forms.Form,
    *,
    run: Callable[[dict[str, Any]], tuple[str, str]],
    page: Callable[[forms.Form], HttpResponse],
    field: str,
    clash: Any = SAME_TIME,
) -> HttpResponse:
    """A team form's shape, written once: a valid form goes to the service (``run`` returns the message
    and the page to go back to); a refusal is shown under the form's fields on the page (422), a
    concurrent write (the database's unique constraints) under ``field`` with ``clash``."""
    if form.is_valid():
        try:
            done, back = run(form.cleaned_data)
        except ValidationError as exc:
            add_service_errors(form, exc)
        except IntegrityError:
            form.add_error(field, str(clash))
        else:
            messages.success(request, done)
            return redirect(back)
    return page(form)


def _errors(form: forms.Form) -> str:
    """A form's errors as one message naming each field (for a redirect's message)."""
    return " ".join(
        f"{form.fields[name].label or name}: {' '.join(errors)}" if name in form.fields else " ".join(errors)
        for name, errors in form.errors.items()
    )


# -- organisers ---------------------------------------------------------------------------------------------


def _unassigned(event: Event) -> Any:
    """The event's registered players in no team (the choices for adding a member)."""
    return order_by_name(
        Player.objects.filter(registrations__event=event, registrations__team_member__isnull=True)
    )


def _overview(request: HttpRequest, event: Event, **forms_: forms.Form) -> HttpResponse:
    found = teams.teams_of(event)
    together = teams.teammates_together(event) if event.kind == Event.Kind.TOURNAMENT else []
    unassigned = sorted_by_name(
        Registration.objects.filter(event=event, team_member__isnull=True).select_related("player"),
        lambda r: r.player.display_name,
    )
    context = {
        "event": event,
        "teams": found,
        "unassigned": unassigned,
        "together": together,
        "paste_form": forms_.get("paste_form") or TeamPasteForm(),
        "name_form": forms_.get("name_form") or TeamNameForm(),
        "settings_form": forms_.get("settings_form") or SettingsForm(instance=teams.settings_of(event)),
        "is_league": event.kind == Event.Kind.LEAGUE,
        "is_tournament": event.kind == Event.Kind.TOURNAMENT,
    }
    status = 422 if any(f.errors for f in forms_.values()) else 200
    return render(request, "tournaments/manage/teams.html", context, status=status)


@login_required
def overview(request: HttpRequest, slug: str) -> HttpResponse:
    """The event's teams: each with its members and captain, the players in no team, the paste, a new
    team, how team points count, and (tournaments) the tables where teammates sit together."""
    return _overview(request, managed_event_or_404(request.user, slug))


@login_required
@post_only(_teams_url)
def paste(request: HttpRequest, slug: str) -> HttpResponse:
    event = managed_event_or_404(request.user, slug)
    form = TeamPasteForm(request.POST)
    if form.is_valid():
        try:
            done = teams.register_teams(event=event, text=form.cleaned_data["text"], user=request.user)
        except ValidationError as exc:
            form.add_error("text", exc.messages)  # every wrong line, under the text
        else:
            if done.changed:
                messages.success(
                    request,
                    gettext("Teams pasted: %(teams)s, %(registered)s, %(members)s.")
                    % {
                        "teams": ngettext("%(count)d team created", "%(count)d teams created", done.teams)
                        % {"count": done.teams},
                        "registered": ngettext(
                            "%(count)d player registered", "%(count)d players registered", done.registered
                        )
                        % {"count": done.registered},
                        "members": ngettext("%(count)d member added", "%(count)d members added", done.members)
                        % {"count": done.members},
                    },
                )
            else:
                messages.info(request, gettext("Nothing new: every player was already in that team."))
            for notice in done.notices:
                messages.info(request, notice)
            return redirect("tournaments_manage:teams", event.slug)
    return _overview(request, event, paste_form=form)


@login_required
@post_only(_teams_url)
def create(request: HttpRequest, slug: str) -> HttpResponse:
    event = managed_event_or_404(request.user, slug)

    def run(data: dict[str, Any]) -> tuple[str, str]:
        team = teams.create_team(event=event, name=data["name"], user=request.user)
        return gettext("Team %(team)s created.") % {"team": team.name}, _team_url(event.slug, team.pk)

    return _submit(
        request,
        TeamNameForm(request.POST),
        run=run,
        page=lambda form: _overview(request, event, name_form=form),
        field="name",
        clash=gettext_lazy("Team name: the event already has that team."),
    )


@login_required
@post_only(_teams_url)
def settings(request: HttpRequest, slug: str) -> HttpResponse:
    event = managed_event_or_404(request.user, slug)
    form = SettingsForm(request.POST, instance=TeamSettings(event=event))
    if form.is_valid():
        try:
            teams.update_settings(
                event=event,
                counting=form.cleaned_data["counting"],
                best=form.cleaned_data["best"],
                user=request.user,
            )
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            messages.success(request, gettext("Team points: saved."))
            return redirect("tournaments_manage:teams", event.slug)
    return _overview(request, event, settings_form=form)


def _team(request: HttpRequest, slug: str, pk: int) -> tuple[Event, Team]:
    event = managed_event_or_404(request.user, slug)
    team = get_object_or_404(Team, pk=pk, event=event)
    team.event = event
    return event, team


def _team_page(request: HttpRequest, event: Event, team: Team, **forms_: forms.Form) -> HttpResponse:
    roster = sorted_by_name(
        TeamMember.objects.filter(team=team).select_related("registration__player"),
        lambda m: m.registration.player.display_name,
    )
    member_form = forms_.get("member_form") or MemberForm()
    member_form.fields["player"].queryset = _unassigned(event)
    captain_form = forms_.get("captain_form") or CaptainForm(
        initial={"captain": next((m.registration.player_id for m in roster if m.is_captain), None)}
    )
    captain_form.fields["captain"].queryset = order_by_name(
        Player.objects.filter(registrations__team_member__team=team)
    )
    context = {
        "event": event,
        "team": team,
        "roster": roster,
        "name_form": forms_.get("name_form") or TeamNameForm(initial={"name": team.name}),
        "member_form": member_form,
        "captain_form": captain_form,
    }
    status = 422 if any(f.errors for f in forms_.values()) else 200
    return render(request, "tournaments/manage/team.html", context, status=status)


@login_required
def team(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """One team: rename it, add and remove members, choose its captain, delete it."""
    event, found = _team(request, slug, pk)
    return _team_page(request, event, found)


@login_required
@post_only(_team_url)
def rename(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    event, found = _team(request, slug, pk)

    def run(data: dict[str, Any]) -> tuple[str, str]:
        teams.rename_team(team=found, name=data["name"], user=request.user)
        return gettext("Team renamed %(team)s.") % {"team": found.name}, _team_url(event.slug, found.pk)

    return _submit(
        request,
        TeamNameForm(request.POST),
        run=run,
        page=lambda form: _team_page(request, event, found, name_form=form),
        field="name",
        clash=gettext_lazy("Team name: the event already has that team."),
    )


@login_required
@post_only(_team_url)
def add_member(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    event, found = _team(request, slug, pk)
    form = MemberForm(request.POST)
    # Any registered player: one already in this team is no error (a form sent twice), one in another
    # team is refused by the service with the rule.
    form.fields["player"].queryset = Player.objects.filter(registrations__event=event)

    def run(data: dict[str, Any]) -> tuple[str, str]:
        teams.add_member(team=found, player=data["player"], captain=data["captain"], user=request.user)
        done = gettext("%(player)s is in team %(team)s.") % {"player": data["player"], "team": found.name}
        return done, _team_url(event.slug, found.pk)

    return _submit(
        request,
        form,
        run=run,
        page=lambda form: _team_page(request, event, found, member_form=form),
        field="player",
    )


@login_required
@post_only(_team_url)
def remove_member(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    event, found = _team(request, slug, pk)
    form = RemoveForm(request.POST)
    form.fields["player"].queryset = Player.objects.filter(registrations__event=event)
    if not form.is_valid():
        messages.error(request, gettext("Choose a member of the team to take out."))
    else:
        try:
            teams.remove_member(team=found, player=form.cleaned_data["player"], user=request.user)
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
        else:
            messages.success(
                request,
                gettext("%(player)s left team %(team)s.")
                % {"player": form.cleaned_data["player"], "team": found.name},
            )
    return redirect("tournaments_manage:team", event.slug, found.pk)


@login_required
@post_only(_team_url)
def captain(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    event, found = _team(request, slug, pk)
    form = CaptainForm(request.POST)
    form.fields["captain"].queryset = Player.objects.filter(registrations__event=event)

    def run(data: dict[str, Any]) -> tuple[str, str]:
        teams.set_captain(team=found, player=data["captain"], user=request.user)
        return gettext("Captain saved."), _team_url(event.slug, found.pk)

    return _submit(
        request,
        form,
        run=run,
        page=lambda form: _team_page(request, event, found, captain_form=form),
        field="captain",
    )


@login_required
@post_only(_team_url)
def delete(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    event = managed_event_or_404(request.user, slug)
    found = Team.objects.filter(pk=pk, event=event).first()
    if found is None:  # deleted a moment ago (a double tap): done already
        return redirect("tournaments_manage:teams", event.slug)
    found.event = event
    try:
        teams.delete_team(team=found, user=request.user)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect("tournaments_manage:team", event.slug, found.pk)
    messages.success(
        request, gettext("Team %(team)s deleted; its players stay registered.") % {"team": found.name}
    )
    return redirect("tournaments_manage:teams", event.slug)


# -- the public pages ----------------------------------------------------------------------------------------


def _after_round(request: HttpRequest, event: Event) -> tuple[AfterRoundForm, int | None]:
    form = AfterRoundForm(request.GET)
    if event.kind != Event.Kind.TOURNAMENT or not form.is_valid():
        return form, None
    return form, form.cleaned_data["round"]


@login_for_members_only
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    """The team standings, "after round N" for a tournament, as a visitor may see them."""
    event = visible_event_or_404(request.user, slug)
    form, after = _after_round(request, event)
    found = teams.team_standings(event, up_to_round=after)
    query = f"?round={found.up_to_round}" if after is not None and found.up_to_round is not None else ""
    return render(
        request,
        "tournaments/public/team_standings.html",
        {
            "event": event,
            "standings": found,
            "rows": [(row, found.member_names(row)) for row in found.rows],
            "form": form,
            "hidden_after_round": hidden_after_round(event),
            "round_query": query,
            "csv_url": reverse("tournaments:team_standings_csv", args=[event.slug]) + query,
        },
    )


@login_for_members_only
def standings_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """The team standings as CSV (the page's rows; an invalid round answers 400 with the reason)."""
    event = visible_event_or_404(request.user, slug)
    form = AfterRoundForm(request.GET)
    if not form.is_valid():
        return HttpResponse(_errors(form), status=400, content_type="text/plain; charset=utf-8")
    after = form.cleaned_data["round"] if event.kind == Event.Kind.TOURNAMENT else None
    found = teams.team_standings(event, up_to_round=after)
    return csv_response(teams.csv_rows(found), f"{event.slug}-teams.csv")


@login_for_members_only
def team_public(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A team: its place and points, each member's results and statistics, its points per round."""
    event = visible_event_or_404(request.user, slug)
    found = get_object_or_404(Team, pk=pk, event=event)
    found.event = event
    form, after = _after_round(request, event)
    page = teams.team_page(found, up_to_round=after)
    return render(
        request,
        "tournaments/public/team.html",
        {"event": event, "page": page, "form": form, "hidden_after_round": hidden_after_round(event)},
    )


def wall_teams_html(event: Event, chosen: dict[str, Any]) -> SafeString:
    """The wall's team standings slide, rendered once per results version through the page cache (every
    team change writes a history entry, which moves the version on)."""

    return ranked_slide_html(
        event,
        chosen,
        slide="wall-teams",
        ranked=lambda: teams.team_standings(event).ranked,
        template="tournaments/public/wall_teams.html",
    )


@login_for_members_only
def wall_teams(request: HttpRequest, slug: str) -> HttpResponse:
    """The wall's team standings slide (``?teams=1`` on the wall): the public team standings' top N."""
    event = wall_tournament(request, slug)
    return HttpResponse(wall_teams_html(event, wall_options(request)))
