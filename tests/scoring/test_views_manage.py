"""The organisers' game pages through the test client: entry, preview, corrections, actions."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.urls import reverse

from league.models import Hanchan
from scoring import services
from scoring.models import Hand as HandRow
from scoring.models import HistoryEntry, SeatResult

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(event, players, organiser):
    return services.start_game(event=event, players=players[:4], user=organiser)


@pytest.fixture
def client_in(client, organiser):
    client.force_login(organiser)
    return client


def post_hand(client, game, **data):
    data.setdefault("version", Hanchan.objects.get(pk=game.pk).version)
    return client.post(reverse("scoring_manage:hand_add", args=[game.pk]), data)


def test_game_page_shows_table_state(client_in, game):
    page = client_in.get(reverse("scoring_manage:game", args=[game.pk]))
    assert page.status_code == 200
    text = page.content.decode()
    assert "E1" in text and "honba 0" in text and "30000" in text and "Ann" in text


def test_single_ron_in_five_inputs(client_in, game):
    # ron is preselected: winner, loser, han, fu and the save button.
    response = post_hand(client_in, game, result="ron", winner=0, loser=2, han=3, fu=40)
    assert response.status_code == 302
    assert HandRow.objects.get(hanchan=game).deltas == [7700, 0, -7700, 0]  # dealer 3 han 40 fu


def test_bad_han_fu_pair_message_on_the_field(client_in, game):
    response = post_hand(client_in, game, result="ron", winner=0, loser=2, han=1, fu=25)
    assert response.status_code == 422
    assert "fu 25 needs at least 2 han on a ron" in response.context["form"].errors["fu"][0]
    assert not HandRow.objects.exists()


def test_winner_cannot_be_loser(client_in, game):
    response = post_hand(client_in, game, result="ron", winner=1, loser=1, han=2, fu=30)
    assert response.status_code == 422
    assert "cannot win on their own discard" in str(response.context["form"].errors)
    assert not HandRow.objects.exists()


def test_preview_shows_payments_without_saving(client_in, game):
    response = client_in.post(
        reverse("scoring_manage:preview", args=[game.pk]),
        {"result": "tsumo", "winner": 1, "han": 1, "fu": 30, "riichi": [1]},
    )
    text = response.content.decode()
    assert response.status_code == 200
    # 300/500 plus the own deposit back: +1100 net for Bob; the dealer pays 500, the others 300.
    assert "+1100" in text and "−500" in text and "−300" in text
    assert not HandRow.objects.exists()


def test_preview_reports_rule_errors(client_in, game):
    response = client_in.post(
        reverse("scoring_manage:preview", args=[game.pk]),
        {"result": "tsumo", "winner": 1, "han": 1, "fu": 20},
    )
    assert "fu 20 needs at least 2 han" in response.content.decode()


def test_stale_version_answers_409_with_current_state(client_in, game):
    assert post_hand(client_in, game, result="draw", version=0).status_code == 302
    response = post_hand(client_in, game, result="draw", tenpai=[1], version=0)
    assert response.status_code == 409
    assert "The game changed" in response.content.decode()
    assert HandRow.objects.filter(hanchan=game).count() == 1


def test_resubmitted_hand_is_already_saved(client_in, game):
    """A double tap on "Save hand" posts the form twice: one hand, and the second tap says so."""
    page = client_in.get(reverse("scoring_manage:game", args=[game.pk])).content.decode()
    key = re.search(r'name="entry_key" value="([\w-]+)"', page).group(1)  # the form's own key
    data = {"result": "ron", "winner": 0, "loser": 2, "han": 3, "fu": 40, "version": 0, "entry_key": key}
    first = post_hand(client_in, game, **data)
    assert first.status_code == 302
    assert [str(m) for m in get_messages(first.wsgi_request)] == ["Hand 1 saved."]
    again = post_hand(client_in, game, **data)
    assert again.status_code == 302
    said = list(get_messages(again.wsgi_request))[-1]  # the first tap's message was not shown yet
    assert (str(said), said.level_tag) == ("This hand was already saved (hand 1).", "info")
    assert HandRow.objects.filter(hanchan=game).count() == 1
    assert Hanchan.objects.get(pk=game.pk).version == 1


def test_hand_entry_pages_send_the_form_once(client_in, game):
    """The save buttons are disabled while the form is on its way (static/js/submit-once.js)."""
    post_hand(client_in, game, result="draw")
    for url in (
        reverse("scoring_manage:game", args=[game.pk]),
        reverse("scoring_manage:hand_correct", args=[game.pk, 1]),
        reverse("scoring_manage:undo", args=[game.pk]),
    ):
        page = client_in.get(url).content.decode()
        assert "js/submit-once.js" in page, url
        assert "data-submit-once" in page, url


def test_double_ron_and_chombo_and_correction(client_in, game):
    post_hand(client_in, game, result="ron", winner=1, loser=0, han=2, fu=30, winner_2=3, han_2=1, fu_2=40)
    assert HandRow.objects.get(number=1).deltas == [-3300, 2000, 0, 1300]
    post_hand(client_in, game, result="chombo", seat=2)
    response = client_in.post(
        reverse("scoring_manage:hand_correct", args=[game.pk, 1]),
        {
            "result": "ron",
            "winner": 1,
            "loser": 0,
            "han": 3,
            "fu": 30,
            "correction_reason": "han miscounted",
            "version": Hanchan.objects.get(pk=game.pk).version,
        },
    )
    assert response.status_code == 302
    assert HandRow.objects.get(number=1).deltas == [-3900, 3900, 0, 0]
    assert HistoryEntry.objects.filter(action="hand corrected", reason="han miscounted").exists()


def test_correction_needs_a_reason(client_in, game):
    post_hand(client_in, game, result="draw")
    response = client_in.post(
        reverse("scoring_manage:hand_correct", args=[game.pk, 1]),
        {
            "result": "draw",
            "tenpai": [0],
            "version": Hanchan.objects.get(pk=game.pk).version,
        },
    )
    assert response.status_code == 422
    assert "Say why" in response.content.decode()


class _Controls(HTMLParser):
    """The form controls inside the element that posts the htmx preview (the hand form)."""

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0  # > 0 inside the form with hx-post
        self.controls: list[dict[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if tag == "form" and "hx-post" in attributes:
            self.depth = 1
        elif self.depth and tag in ("input", "select", "textarea"):
            self.controls.append({"tag": tag, **attributes})

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.depth = 0


def unfilled_required(html: str) -> list[str]:
    """Names of the required controls of the htmx form left empty: htmx validates a form before it
    posts it, so any such control stops the live preview until it is filled in."""
    parser = _Controls()
    parser.feed(html)
    filled = {
        c["name"]
        for c in parser.controls
        if (c.get("type") in ("radio", "checkbox") and "checked" in c)
        or (c.get("type") not in ("radio", "checkbox") and c["tag"] != "select" and c.get("value"))
    }
    return sorted({str(c["name"]) for c in parser.controls if "required" in c and c["name"] not in filled})


def test_correction_preview_does_not_wait_for_the_reason(client_in, game):
    """The correction page previews as the entry page does: only saving needs the reason."""
    post_hand(client_in, game, result="ron", winner=0, loser=2, han=3, fu=40)
    entry = client_in.get(reverse("scoring_manage:game", args=[game.pk])).content.decode()
    correction = client_in.get(reverse("scoring_manage:hand_correct", args=[game.pk, 1])).content.decode()
    assert 'name="correction_reason"' in correction
    assert unfilled_required(entry) == []
    assert unfilled_required(correction) == []
    # And the preview itself answers without a reason.
    url = reverse("scoring_manage:preview", args=[game.pk]) + "?number=1"
    text = client_in.post(
        url, {"number": 1, "result": "ron", "winner": 1, "loser": 2, "han": 1, "fu": 30}
    ).content.decode()
    assert "+1000" in text
    # Saving still needs it.
    response = client_in.post(
        reverse("scoring_manage:hand_correct", args=[game.pk, 1]),
        {"result": "ron", "winner": 1, "loser": 2, "han": 1, "fu": 30, "version": 1},
    )
    assert response.status_code == 422 and "Say why" in response.content.decode()
    assert HandRow.objects.get(hanchan=game, number=1).deltas == [7700, 0, -7700, 0]


def test_undo_asks_for_confirmation_and_a_reason(client_in, game):
    post_hand(client_in, game, result="ron", winner=0, loser=2, han=3, fu=40)
    post_hand(client_in, game, result="draw", tenpai=[1])
    game_page = client_in.get(reverse("scoring_manage:game", args=[game.pk])).content.decode()
    assert 'id="undo" href="{}"'.format(reverse("scoring_manage:undo", args=[game.pk])) in game_page
    url = reverse("scoring_manage:undo", args=[game.pk])
    page = client_in.get(url)
    assert page.status_code == 200
    text = page.content.decode()
    assert "Undo hand 2" in text and 'name="reason"' in text
    assert HandRow.objects.filter(hanchan=game).count() == 2  # asking removes nothing
    # No reason: the page again, with the error on the field, and nothing removed.
    refused = client_in.post(url, {"version": 2, "reason": "  "})
    assert refused.status_code == 422
    assert "Say why the last hand is undone" in str(refused.context["form"].errors["reason"])
    assert HandRow.objects.filter(hanchan=game).count() == 2
    done = client_in.post(url, {"version": 2, "reason": "Bob was not tenpai"})
    assert done.status_code == 302
    assert list(HandRow.objects.filter(hanchan=game).values_list("number", flat=True)) == [1]
    entry = HistoryEntry.objects.get(hanchan=game, action="hand undone")
    assert entry.reason == "Bob was not tenpai"


def test_undo_is_refused_on_a_finished_game(client_in, game):
    for _ in range(8):
        post_hand(client_in, game, result="draw")
    game.refresh_from_db()
    assert game.status == Hanchan.Status.FINISHED
    message = "This game is finished: reopen it first, with a reason, or correct the hand."
    page = client_in.get(reverse("scoring_manage:game", args=[game.pk])).content.decode()
    assert message in page
    assert 'id="undo" disabled' in page
    assert 'href="{}"'.format(reverse("scoring_manage:undo", args=[game.pk])) not in page
    url = reverse("scoring_manage:undo", args=[game.pk])
    asked = client_in.get(url)
    assert asked.status_code == 302
    assert [str(m) for m in get_messages(asked.wsgi_request)] == [message]
    refused = client_in.post(url, {"version": game.version, "reason": "wrong hand"})
    assert refused.status_code == 302
    assert message in [str(m) for m in get_messages(refused.wsgi_request)]
    game.refresh_from_db()
    assert game.status == Hanchan.Status.FINISHED
    assert HandRow.objects.filter(hanchan=game).count() == 8
    assert SeatResult.objects.filter(hanchan=game).count() == 4


def test_finish_early_then_results(client_in, game):
    post_hand(client_in, game, result="ron", winner=0, loser=2, han=3, fu=40)
    version = Hanchan.objects.get(pk=game.pk).version
    client_in.post(reverse("scoring_manage:finish", args=[game.pk]), {"version": version, "reason": ""})
    assert not SeatResult.objects.exists()  # refused: no reason for an early end
    client_in.post(reverse("scoring_manage:finish", args=[game.pk]), {"version": version, "reason": "time"})
    assert SeatResult.objects.filter(hanchan=game).count() == 4


def test_someone_elses_game_is_404(client, game, db):
    stranger = get_user_model().objects.create_user("stranger", password="x-pass-12345")
    client.force_login(stranger)
    for name in ("game", "undo"):
        assert client.get(reverse(f"scoring_manage:{name}", args=[game.pk])).status_code == 404
    for name in ("finish", "preview"):  # a GET on an action goes to the game's page, which is not theirs
        response = client.get(reverse(f"scoring_manage:{name}", args=[game.pk]), follow=True)
        assert response.redirect_chain[0][1] == 303 and response.status_code == 404
    assert (
        client.post(reverse("scoring_manage:hand_add", args=[game.pk]), {"result": "draw"}).status_code == 404
    )
    assert not HandRow.objects.exists()


def test_preview_of_a_correction_replays_from_that_hand(client_in, game):
    post_hand(client_in, game, result="ron", winner=0, loser=2, han=3, fu=40)  # the dealer stays
    post_hand(client_in, game, result="draw")
    url = reverse("scoring_manage:preview", args=[game.pk]) + "?number=1"
    # Hand 1 as a non-dealer win instead: Bob's 1 han 30 fu ron from Cho is 1000.
    text = client_in.post(
        url, {"result": "ron", "winner": 1, "loser": 2, "han": 1, "fu": 30}
    ).content.decode()
    assert "+1000" in text and "−1000" in text
    assert HandRow.objects.get(hanchan=game, number=1).deltas == [7700, 0, -7700, 0]  # nothing saved
    junk = client_in.post(
        reverse("scoring_manage:preview", args=[game.pk]) + "?number=x1", {"result": "draw"}
    )
    assert junk.status_code == 200
    missing = client_in.post(
        reverse("scoring_manage:preview", args=[game.pk]) + "?number=9", {"result": "draw"}
    )
    assert "Hand 9 does not exist" in missing.content.decode()


def test_an_invalid_game_action_names_the_field_and_the_rule(client_in, game):
    """Void with an over-long reason: the message names the field, nothing changes."""
    response = client_in.post(
        reverse("scoring_manage:void", args=[game.pk]), {"reason": "x" * 301, "version": 0}, follow=True
    )
    texts = [str(m) for m in response.context["messages"]]
    assert any(t.startswith("Reason: ") and "300" in t for t in texts), texts
    game.refresh_from_db()
    assert game.status == game.Status.IN_PROGRESS
