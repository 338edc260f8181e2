"""Public URLs of the tournament day: what players and the room see without an account."""


app_name = "tournaments"

urlpatterns: list = []
