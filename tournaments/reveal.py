"""The final reveal: a tournament can keep its public standings at "after round N" (the event setting
``standings_hidden_after_round``) and show the rest at the prize-giving, with one action.

What is hidden is decided in one place, :func:`scoring.standings.hidden_after_round`; this module only
records the organiser's release. The organiser's pages and ``manage.py standings`` always show
everything.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from league.models import Event
from scoring.cache import bump_results
from scoring.services import history
from scoring.standings import hidden_after_round


@transaction.atomic
def release_standings(*, event: Event, user: Any) -> Event:
    """Show the whole standings to the public from now on. Releasing twice changes nothing; an event
    that hides nothing is refused (there is nothing to release).

    The results versions of the event and of its players are bumped with the release: cached public
    pages (standings, games, players' pages) are keyed by them, and the release changes what they show
    without changing any result."""
    locked = Event.objects.select_for_update(of=("self",), no_key=True).get(pk=event.pk)
    if locked.standings_released_at is not None:
        event.standings_released_at = locked.standings_released_at
        return event
    hidden = hidden_after_round(locked)
    if hidden is None:
        raise ValidationError(
            {
                "standings_hidden_after_round": gettext(
                    "%(event)s does not hide its standings: there is nothing to release."
                )
                % {"event": locked.name}
            }
        )
    locked.standings_released_at = timezone.now()
    locked.save(update_fields=["standings_released_at"])
    bump_results(event_ids=[locked.pk], event_players=True)  # their pages show the hidden rounds now
    history.log(
        event=locked,
        user=user,
        action="standings released",
        summary=gettext("Standings released: the public sees every round, not only rounds 1 to %(n)s.")
        % {"n": hidden},
        before={"standings_released_at": None},
        after={"standings_released_at": locked.standings_released_at},
    )
    event.standings_released_at = locked.standings_released_at
    event.refresh_from_db(fields=["results_version"])
    return event
