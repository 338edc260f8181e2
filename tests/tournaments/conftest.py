"""The role fixtures of the league's permission matrix, shared with the tournament pages, and the
tournament of the tournament-day tests (links, rounds, the tables' pages)."""

import pytest

from tests.league.conftest import other_club, other_organiser, player_user, staff_user, users  # noqa: F401


@pytest.fixture
def tournament(club, organiser):
    """Eight registered players seated for two rounds (tests/tournaments/test_links.py make_tournament)."""
    from tests.tournaments.test_links import make_tournament

    return make_tournament(club, organiser)


@pytest.fixture
def opened(tournament, organiser):
    """The tournament with round 1 open (its tables' links issued)."""
    from tournaments import rounds

    rounds.open_round(event=tournament, number=1, user=organiser)
    return tournament
