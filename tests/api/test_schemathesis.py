"""The API against its own live schema (Schemathesis): every operation, with generated parameters —
junk included — answers no server error, only a status the schema documents, and a body that matches it.

The schema is read from ``/api/v1/schema/`` through the WSGI application, as a client would, and the calls
go through the same application in the test's database, which holds the world of ``conftest.py`` (a
league, a members-only event, a tournament with hidden rounds), so the known slugs and ids answer too.
"""

from __future__ import annotations

import os

import pytest
import schemathesis
from django.core import signals
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance

from config.wsgi import application

pytestmark = pytest.mark.django_db

# Examples per operation. In the suite they are the same on every run (derandomized: CI answers the same
# on the same code); SCHEMATHESIS_EXAMPLES=800 explores with random ones, by hand (docs/developers.md).
EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "25"))
EXAMPLE_SETTINGS = settings(
    max_examples=EXAMPLES,
    derandomize="SCHEMATHESIS_EXAMPLES" not in os.environ,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)


# Read at collection, as a client would (the schema view reads no database).
schema = schemathesis.openapi.from_wsgi("/api/v1/schema/?format=json", application)


@pytest.fixture(autouse=True)
def keep_the_test_connection():
    """Django's test client does the same: a request's end would otherwise close the test's connection,
    and with it the transaction that holds the world."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@schema.parametrize()
@EXAMPLE_SETTINGS
def test_every_operation_answers_as_documented(case, world):  # type: ignore[no-untyped-def]
    case.call_and_validate()


def known_parameters(world) -> dict[str, object]:  # type: ignore[no-untyped-def]
    """Path parameters naming objects of the world (generated ones are nearly always a 404)."""
    return {
        "slug": world["tournament"].slug,
        "number": 1,
        "order": 1,
        "pk": world["hands_game"].pk,
    }


def test_every_operation_on_known_objects_answers_as_documented(world, organiser):  # type: ignore[no-untyped-def]
    """Each operation once with the world's objects — the league's, then the tournament's — so the
    bodies of the 200s are checked against the schema, not only the 404s."""
    from league.models import Player

    parameters = known_parameters(world)
    for result in schema.get_all_operations():
        operation = result.ok()
        names = {p.name for p in operation.path_parameters}
        for slug, pk in (
            (world["league"].slug, world["hands_game"].pk),
            (world["tournament"].slug, world["paper_game"].pk),
            (world["league"].slug, world["ann"].pk),
            ("riichi-lyon", Player.objects.first().pk),
        ):
            values = {**parameters, "slug": slug, "pk": pk, "id": pk}
            case = operation.Case(path_parameters={name: values[name] for name in names})
            response = case.call_and_validate()
            assert response.status_code < 500


@pytest.fixture
def writer(world, organiser):  # type: ignore[no-untyped-def]
    """A key of the league that may write everything: the writes' bodies, junk included, get past the
    key to the services."""
    from api.keys import create_key

    scopes = ["read_private", "enter_results", "import_logs"]
    return create_key(event=world["league"], name="fuzzer", scopes=scopes, user=organiser).secret


@schema.include(method="POST").parametrize()
@EXAMPLE_SETTINGS
def test_every_write_with_a_key_answers_as_documented(case, world, writer):  # type: ignore[no-untyped-def]
    """The writes again, with a key: generated bodies reach the services (and the engine's record reader)
    and are answered as documented — saved, already saved, refused (400), a conflict (409) — never 500.

    A body the schema allows may still break the game's rules (four scores that do not add up): the
    check that schema-valid requests are accepted does not apply to them."""
    if "pk" in case.path_parameters or "id" in case.path_parameters:
        name = "pk" if "pk" in case.path_parameters else "id"
        game = world["hands_game"] if "hands" in case.path else world["paper_game"]
        case.path_parameters[name] = game.pk
    if "slug" in case.path_parameters:
        case.path_parameters["slug"] = world["league"].slug
    case.call_and_validate(
        headers={"Authorization": f"Bearer {writer}"}, excluded_checks=[positive_data_acceptance]
    )
