"""The "Import online games" page: sources, fetching links with progress, the preview, the confirmation.

Links are fetched from a local fake Tenhou (tests/scoring/online_server.py): no test reaches the
internet. The games wait in the session between the steps, signed: a changed or foreign batch is
"no longer available", and what the browser sends back is only the organiser's picks, checked again.
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest
from django.core import signing
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from background.worker import run_ready
from league.models import Hanchan, Player, Registration
from scoring.models import ImportJob
from scoring.views import online as online_views
from tests.conftest import make_event
from tests.scoring.online_server import MISSING_ID, MJLOG_ID, closed_port_url, fake_tenhou

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).resolve().parent / "logs" / "fixtures"
TOBI = (FIXTURES / "tenhou-hanchan-tobi.json").read_bytes()
WEST = (FIXTURES / "tenhou-hanchan-west.json").read_bytes()
TOBI_ID = "2023061523gm-0089-0000-1a2b3c4d"


@pytest.fixture
def online(club):
    return make_event(club, "tenhou", slug="tenhou-league")


@pytest.fixture
def tonpuu(club):
    return make_event(club, "tenhou", slug="tenhou-tonpuu", length="tonpuusen")


@pytest.fixture
def known(club, online):
    """Aoi and ばんび are known by Tenhou name; Kenta and 雀士X are not known at all."""
    made = [
        Player.objects.create(display_name="Aoi Tanaka", club=club, tenhou_name="Aoi"),
        Player.objects.create(display_name="Bambi", club=club, tenhou_name="ばんび"),
    ]
    for player in made:
        Registration.objects.create(event=online, player=player)
    return made


@pytest.fixture
def client(organiser):
    client = Client()
    client.force_login(organiser)
    return client


def url(name: str, event, *args) -> str:
    return reverse(f"scoring_manage:{name}", args=[event.slug, *args])


def upload(name: str, data: bytes) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="application/octet-stream")


def start(client, event, **data) -> str:
    """Post the sources; the batch page's address."""
    response = client.post(url("online_import", event), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    return response["Location"]


def pick_fields(html: str) -> dict[str, str]:
    """The preview's pick fields, by the log name each one asks about."""
    found = re.findall(r'<label for="id_(player_[0-9a-f]+)">([^<]*)</label>', html)
    return {name: field for field, name in found}


def test_the_event_page_links_to_the_import(client, online):
    page = client.get(reverse("league_manage:event", args=[online.slug])).content.decode()
    assert url("online_import", online) in page
    form = client.get(url("online_import", online))
    assert form.status_code == 200
    assert (
        b'type="file"' in form.content and b'name="urls"' in form.content and b'name="pasted"' in form.content
    )


def test_nothing_to_import_is_said(client, online):
    response = client.post(url("online_import", online), {})
    assert response.status_code == 422
    assert "Nothing to import" in response.content.decode()


def test_a_file_that_is_not_a_log_is_named_and_nothing_is_kept(client, online):
    response = client.post(
        url("online_import", online),
        {"files": [upload("tobi.json", TOBI), upload("notes.txt", b"hello")]},
    )
    assert response.status_code == 422
    assert "notes.txt: not a game log" in response.content.decode()
    assert not client.session.get(online_views.SESSION_KEY)


def test_too_large_a_file_is_refused(client, online, monkeypatch):
    monkeypatch.setattr(online_views, "MAX_FILE_BYTES", 1000)
    response = client.post(url("online_import", online), {"files": [upload("big.json", TOBI)]})
    assert response.status_code == 422
    assert "big.json is larger than" in response.content.decode()


def test_wrong_links_are_listed_by_line(client, online):
    text = f"https://tenhou.net/0/?log={TOBI_ID}\n\nhttps://evil.example/x\nhttps://tenhou.net/6/?log={TOBI_ID}\n"
    response = client.post(url("online_import", online), {"urls": text})
    assert response.status_code == 422
    page = response.content.decode()
    assert "line 3: https://evil.example/x: only tenhou.net replay links" in page
    assert "line 4: the same log as line 1." in page


def test_upload_preview_pick_and_import(client, online, known, organiser):
    batch = start(
        client, online, files=[upload("tobi.json", TOBI), upload("west.json.gz", gzip.compress(WEST))]
    )
    page = client.get(batch)
    assert page.status_code == 200
    html = page.content.decode()
    assert "Import all 2 games" in html and "tobi.json" in html and "west.json.gz" in html
    assert "by Tenhou name" in html
    fields = pick_fields(html)
    assert set(fields) == {"Kenta", "雀士X", "Hana", "Jiro", "Kumi", "Mori"}
    assert not Hanchan.objects.exists()  # the preview writes nothing

    # Pick Bambi for Hana, create the others; first "update the preview".
    picks = {field: "new" for field in fields.values()}
    picks[fields["Hana"]] = str(known[1].pk)
    confirm = batch + "confirm/"
    assert client.post(confirm, {**picks, "action": "check"})["Location"] == batch
    html = client.get(batch).content.decode()
    assert "your pick" in html and "new player" in html
    assert not Hanchan.objects.exists()

    done = client.post(confirm, {**picks, "action": "import"})
    assert done.status_code == 302 and done["Location"] == url("games", online)
    assert Hanchan.objects.filter(event=online, status="finished").count() == 2
    assert set(Hanchan.objects.values_list("source_log_id", flat=True)) == {
        TOBI_ID,
        "2023091020gm-00a9-0000-c0ffee01",
    }
    assert Player.objects.get(display_name="Kenta").tenhou_name == "Kenta"
    known[1].refresh_from_db()
    assert known[1].tenhou_name == "ばんび"  # not overwritten: it was set already
    messages = [str(m) for m in client.get(done["Location"]).context["messages"]]
    assert messages == ["2 online games imported: they count in the standings."]
    # The batch is gone: confirming again imports nothing.
    again = client.post(confirm, {**picks, "action": "import"})
    assert again.status_code == 302 and again["Location"] == url("online_import", online)
    assert Hanchan.objects.count() == 2


def test_a_log_already_imported_shows_why_and_cannot_be_confirmed(client, online, known):
    picks = {"Kenta": "new", "雀士X": "new"}
    batch = start(client, online, pasted=TOBI.decode())
    fields = pick_fields(client.get(batch).content.decode())
    client.post(batch + "confirm/", {fields[n]: v for n, v in picks.items()} | {"action": "import"})
    assert Hanchan.objects.count() == 1
    second = start(client, online, pasted=TOBI.decode())
    html = client.get(second).content.decode()
    assert f"pasted log: log {TOBI_ID} is already imported in this event" in html
    assert "online-import-submit" not in html  # no import button
    forced = client.post(second + "confirm/", {"action": "import"})
    assert forced.status_code == 302
    follow = client.get(forced["Location"])
    assert any("Nothing was imported" in str(m) for m in follow.context["messages"])
    assert Hanchan.objects.count() == 1


def test_a_forged_pick_is_refused(client, online, known, other_club):
    stranger = Player.objects.create(display_name="Stranger", club=other_club)
    batch = start(client, online, files=[upload("tobi.json", TOBI)])
    fields = pick_fields(client.get(batch).content.decode())
    data = {fields["Kenta"]: str(stranger.pk), fields["雀士X"]: "new", "action": "import"}
    response = client.post(batch + "confirm/", data)
    assert response.status_code == 422
    assert "Select a valid choice" in response.content.decode()
    assert not Hanchan.objects.exists()
    stranger.refresh_from_db()
    assert stranger.tenhou_name == ""


def test_a_tampered_or_foreign_batch_is_no_longer_available(client, online, known, club):
    batch = start(client, online, files=[upload("tobi.json", TOBI)])
    batch_id = batch.rstrip("/").rsplit("/", 1)[1]
    # Another event of the same organiser cannot use this event's batch.
    other = make_event(club, "tenhou", slug="other")
    assert client.get(url("online_import_batch", other, batch_id))["Location"] == url("online_import", other)
    # Games changed where the batch is kept, signed without the site's key: refused, not shown.
    session = client.session
    stored = session[online_views.SESSION_KEY][batch_id]
    payload = signing.loads(stored["data"], salt=online_views.SALT)
    payload["games"][0][1]["players"] = ["Evil", "Evil2", "Evil3", "Evil4"]
    stored["data"] = signing.dumps(payload, key="not-the-secret-key", salt=online_views.SALT, compress=True)
    session.save()
    response = client.get(batch)
    assert response.status_code == 302 and response["Location"] == url("online_import", online)
    assert client.post(batch + "confirm/", {"action": "import"})["Location"] == url("online_import", online)
    assert not Hanchan.objects.exists() and not Player.objects.filter(display_name="Evil").exists()


def test_someone_elses_import_is_a_404(online, known, other_organiser):
    client = Client()
    client.force_login(other_organiser)
    for name, method in [
        ("online_import", "get"),
        ("online_import_batch", "get"),
        ("online_import_progress", "get"),
        ("online_import_confirm", "post"),
    ]:
        args = [] if name == "online_import" else ["0b5e4c1e-7a8d-4f0e-9c55-2d3b1a6f8e90"]
        assert getattr(client, method)(url(name, online, *args)).status_code == 404


def test_links_are_fetched_by_the_worker_while_the_page_shows_progress(client, tonpuu, settings):
    with fake_tenhou() as tenhou:
        settings.TENBOU_TENHOU_URL = tenhou.url
        link = f"https://tenhou.net/0/?log={MJLOG_ID}&tw=1"
        batch = start(client, tonpuu, urls=link)
        assert tenhou.requests == []  # queued for the worker: the request fetched nothing
        job = ImportJob.objects.get()
        assert (job.status, job.done, job.total) == ("queued", 0, 1)
        page = client.get(batch)
        assert page.status_code == 200
        html = page.content.decode()
        assert "0 of 1 logs fetched" in html and 'hx-trigger="every 1s"' in html
        progress = batch + "progress/"
        polled = client.get(progress, HTTP_HX_REQUEST="true")  # the page polls: still waiting
        assert polled.status_code == 200 and "0 of 1 logs fetched" in polled.content.decode()
        assert tenhou.requests == []
        run_ready()  # the worker
        assert tenhou.requests == [f"/0/log/?{MJLOG_ID}"]
        assert client.get(progress, HTTP_HX_REQUEST="true")["HX-Redirect"] == batch
        assert not ImportJob.objects.exists()  # read into the organiser's import, then gone
    html = client.get(batch).content.decode()
    assert f"log {MJLOG_ID}" in html and "Bob" in html
    assert set(pick_fields(html)) == {"あおい", "Bob", "Cho Li", "Dan"}


def test_an_unreachable_tenhou_is_reported_in_the_preview(client, tonpuu, settings):
    settings.TENBOU_TENHOU_URL = closed_port_url()
    batch = start(client, tonpuu, urls=f"https://tenhou.net/0/?log={MJLOG_ID}")
    run_ready()
    response = client.get(batch + "progress/")  # without htmx: back to the page
    assert response.status_code == 302 and response["Location"] == batch
    html = client.get(batch).content.decode()
    assert "tenhou.net could not be reached" in html
    assert "online-import-submit" not in html


def test_files_over_the_inline_size_are_read_by_the_worker(client, online, known, monkeypatch):
    from scoring import import_jobs

    monkeypatch.setattr(import_jobs, "INLINE_BYTES", len(TOBI) - 1)
    batch = start(client, online, files=[upload("tobi.json", TOBI)])
    job = ImportJob.objects.get()
    assert job.total == 1 and job.sources[0]["label"] == "tobi.json" and job.games == []
    assert "0 of 1 logs fetched" in client.get(batch).content.decode()
    run_ready()
    assert ImportJob.objects.get().games[0][0] == "tobi.json"
    html = client.get(batch).content.decode()
    assert set(pick_fields(html)) == {"Kenta", "雀士X"} and "online-import-submit" in html


def test_a_job_goes_on_from_its_last_committed_log(client, tonpuu, settings):
    """A worker killed after the first of two links leaves the job at 1 of 2 with that log's games: the
    next worker fetches only the second."""
    with fake_tenhou() as tenhou:
        settings.TENBOU_TENHOU_URL = tenhou.url
        batch = start(
            client,
            tonpuu,
            urls=f"https://tenhou.net/0/?log={MJLOG_ID}\nhttps://tenhou.net/0/?log={MISSING_ID}",
        )
        ImportJob.objects.update(status="running", done=1, errors=["first log: read before the crash"])
        run_ready()
        assert tenhou.requests == [f"/0/log/?{MISSING_ID}"]
    job = ImportJob.objects.get()
    assert (job.status, job.done) == ("done", 2) and job.errors[0] == "first log: read before the crash"
    assert f"tenhou.net has no log {MISSING_ID}" in job.errors[1]
    assert "first log: read before the crash" in client.get(batch).content.decode()


def test_confirming_through_htmx_redirects_the_whole_page(client, online, known):
    batch = start(client, online, files=[upload("tobi.json", TOBI)])
    fields = pick_fields(client.get(batch).content.decode())
    data = {fields["Kenta"]: "new", fields["雀士X"]: "new", "action": "import"}
    response = client.post(batch + "confirm/", data, HTTP_HX_REQUEST="true")
    assert response["HX-Redirect"] == url("games", online)
    assert Hanchan.objects.count() == 1


def test_the_preview_page_costs_a_bounded_number_of_queries(
    client, online, known, django_assert_max_num_queries
):
    batch = start(client, online, files=[upload("tobi.json", TOBI), upload("west.json", WEST)])
    with django_assert_max_num_queries(20):
        assert client.get(batch).status_code == 200
