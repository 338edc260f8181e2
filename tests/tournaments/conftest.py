"""The role fixtures of the league's permission matrix, shared with the tournament pages."""

from tests.league.conftest import other_club, other_organiser, player_user, staff_user, users  # noqa: F401
