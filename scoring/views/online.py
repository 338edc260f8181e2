"""The organisers' "Import online games" page: logs in, a preview, then every game imported or none.

The flow, for one event (its organisers only; someone else gets a 404 like every manage page):

1. **Sources** (:func:`online_import`): log files (tenhou.net/6 JSON, mjlog XML, gzip), pasted
   tenhou.net/6 JSON, and Tenhou replay links, one per line. Files and pastes are read at once — a file
   that is not a log is an error under the form, naming it. Links are only checked (a Tenhou link with a
   Tenhou log id) and queued.
2. **Fetching** (:func:`online_import_progress`): the links, and files too large to read in the request
   (``scoring.import_jobs.INLINE_BYTES``), are read by a background worker (an ``ImportJob``); the page
   polls it (htmx, every second; without JavaScript a link) and shows "log 3 of 12" as it goes. A log that
   fails is reported in the preview, which then refuses to import.
3. **Preview** (:func:`online_import_batch`): each game with its four players — found by online name, or
   picked by the organiser (a player, or "create") —, the final scores under the event's rules and the
   standings change (``scoring.imports.preview_online``, which writes nothing).
4. **Confirm** (:func:`online_import_confirm`): ``scoring.imports.import_online_games`` stores every game in
   one transaction, or none.

Between the steps the games are kept in the session, *signed* (``django.core.signing`` with a salt of its
own, and a maximum age): the client never sends the games back, only its picks, and a session store the
client could read or alter (signed cookies) still cannot slip in a game that was not read from a log. The
records are read again through the record reader when they come back, and the picks are checked against
the players the organiser may pick (``scoring.imports.resolve_choices``).
"""

from __future__ import annotations

import hashlib
import time
import uuid
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods
from django_htmx.http import HttpResponseClientRedirect

from league.engine_text import engine_message
from league.models import Event, Player
from league.permissions import managed_event_or_404
from league.views.post_only import post_only
from scoring import engine, import_jobs
from scoring.engine.logs.reader import MAX_BYTES
from scoring.imports import (
    NEW_PLAYER,
    ImportFailed,
    OnlinePreview,
    import_online_games,
    preview_online,
    selectable_players,
)
from scoring.models import ImportJob
from scoring.online import OnlineError, log_id_from_url

SESSION_KEY = "online_imports"
SALT = "scoring.views.online.batch"
MAX_AGE = 24 * 3600
"""Seconds a preview stays importable: a day, then the logs are read again."""
MAX_BATCHES = 3
"""Imports kept per session (an organiser with two tabs open keeps both)."""
MAX_FILES = 20
MAX_FILE_BYTES = MAX_BYTES
"""A log file's largest size, as the log reader allows (a real game is 30–100 kB)."""
MAX_PASTE = 1_000_000
"""Characters of pasted JSON: a tenhou.net/6 game is 20–60 kB, so a few games at a time."""
MAX_URLS = 50
MAX_GAMES = 100
"""Games of one import; more are imported in several goes (each checked and stored in one request)."""
MAX_LABEL = 120


# -- forms ------------------------------------------------------------------------------------------------


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """Several files in one input: a list of uploaded files (empty when none)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault(
            "widget",
            MultipleFileInput(attrs={"accept": ".json,.xml,.mjlog,.gz,.txt,application/json,text/xml"}),
        )
        super().__init__(*args, **kwargs)

    def clean(self, data: Any, initial: Any = None) -> list[Any]:
        single = super().clean
        if isinstance(data, list | tuple):
            return [single(item, initial) for item in data if item]
        return [single(data, initial)] if data else []


class OnlineSourcesForm(forms.Form):
    """Where the games come from: files, pasted JSON, replay links (at least one of them)."""

    files = MultipleFileField(
        label=gettext_lazy("Log files"),
        required=False,
        help_text=gettext_lazy(
            "Tenhou's .mjlog files (XML, plain or gzip), tenhou.net/6 JSON as the Tenhou viewer saves it, "
            "or JSON written by tensoul for Mahjong Soul games. Several files at once are fine."
        ),
    )
    pasted = forms.CharField(
        label=gettext_lazy("Or paste tenhou.net/6 JSON"),
        required=False,
        max_length=MAX_PASTE,
        widget=forms.Textarea(
            attrs={"rows": 4, "spellcheck": "false", "placeholder": '{"title": …, "log": …}'}
        ),
    )
    urls = forms.CharField(
        label=gettext_lazy("Or paste Tenhou replay links, one per line"),
        required=False,
        max_length=MAX_URLS * 200,
        widget=forms.Textarea(
            attrs={
                "rows": 3,
                "spellcheck": "false",
                "inputmode": "url",
                "placeholder": "https://tenhou.net/0/?log=2023061523gm-0089-0000-1a2b3c4d",
            }
        ),
        help_text=gettext_lazy(
            "Tenbou fetches each log from tenhou.net. Mahjong Soul links cannot be fetched."
        ),
    )

    def clean_files(self) -> list[Any]:
        files = self.cleaned_data.get("files") or []
        if len(files) > MAX_FILES:
            raise forms.ValidationError(
                gettext("%(count)d files: at most %(max)d at a time.")
                % {"count": len(files), "max": MAX_FILES}
            )
        for upload in files:
            if upload.size > MAX_FILE_BYTES:
                raise forms.ValidationError(
                    gettext("%(name)s is larger than %(max)d MB: no game log is that large.")
                    % {"name": _label(upload.name), "max": MAX_FILE_BYTES // (1024 * 1024)}
                )
        return files

    def clean_urls(self) -> list[tuple[str, str]]:
        """(link, log id) of each line; every wrong line is reported, naming its number."""
        lines = [line.strip() for line in (self.cleaned_data.get("urls") or "").splitlines()]
        numbered = [(n, line) for n, line in enumerate(lines, start=1) if line]
        if len(numbered) > MAX_URLS:
            raise forms.ValidationError(
                gettext("%(count)d links: at most %(max)d at a time.")
                % {"count": len(numbered), "max": MAX_URLS}
            )
        found: list[tuple[str, str]] = []
        errors: list[str] = []
        first: dict[str, int] = {}
        for number, line in numbered:
            try:
                log_id = log_id_from_url(line)
            except OnlineError as exc:
                errors.append(
                    gettext("line %(number)d: %(error)s") % {"number": number, "error": exc.message}
                )
                continue
            if log_id in first:
                errors.append(
                    gettext("line %(number)d: the same log as line %(first)d.")
                    % {"number": number, "first": first[log_id]}
                )
                continue
            first[log_id] = number
            found.append((line, log_id))
        if errors:
            raise forms.ValidationError(errors)
        return found

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if not self.errors and not (
            cleaned.get("files") or cleaned.get("pasted", "").strip() or cleaned.get("urls")
        ):
            raise forms.ValidationError(
                gettext(
                    "Nothing to import: choose log files, paste a tenhou.net/6 log, or paste replay links."
                )
            )
        return cleaned


def _choice_key(name: str) -> str:
    """The form field of a log name: from a hash, so any name (Japanese, spaces, quotes) makes a field."""
    return "player_" + hashlib.sha256(name.encode("utf-8")).hexdigest()[:16]


def _player_label(player: Player) -> str:
    online = [n for n in (player.tenhou_name, player.mahjongsoul_name, player.mahjongsoul_id) if n]
    return f"{player.display_name} ({', '.join(online)})" if online else player.display_name


class OnlinePlayersForm(forms.Form):
    """For each log name no player was found for: a player to count the games for, or a new player."""

    def __init__(
        self,
        *args: Any,
        unresolved: dict[str, tuple[Player, ...]],
        players: list[Player],
        picked: dict[str, str],
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.names: dict[str, str] = {}
        options = [(str(p.pk), _player_label(p)) for p in players]
        for name, candidates in unresolved.items():
            key = _choice_key(name)
            self.names[key] = name
            choices: list[Any] = [
                ("", gettext("— pick a player —")),
                (NEW_PLAYER, gettext("Create a new player “%(name)s”") % {"name": name}),
            ]
            if candidates:
                choices.append(
                    (
                        gettext("Players with this name"),
                        [(str(p.pk), _player_label(p)) for p in candidates],
                    )
                )
            choices.append((gettext("Players of the event and the club"), options))
            self.fields[key] = forms.ChoiceField(
                label=name, choices=choices, required=False, initial=picked.get(name, "")
            )

    def picks(self) -> dict[str, str]:
        """Log name → player id or ``new``, for the names given an answer."""
        return {self.names[key]: value for key, value in self.cleaned_data.items() if value}


# -- the batch kept between the steps ------------------------------------------------------------------


def _label(name: str | None) -> str:
    text = "".join(ch for ch in (name or "") if ch.isprintable()).strip() or "-"
    return text if len(text) <= MAX_LABEL else text[: MAX_LABEL - 1] + "…"


def _store(request: HttpRequest, batch: dict[str, Any]) -> None:
    """Keep ``batch`` signed in the session, with at most :data:`MAX_BATCHES` of them."""
    kept = dict(request.session.get(SESSION_KEY) or {})
    kept[batch["id"]] = {"at": batch["created"], "data": signing.dumps(batch, salt=SALT, compress=True)}
    newest = sorted(kept.items(), key=lambda item: item[1]["at"], reverse=True)[:MAX_BATCHES]
    request.session[SESSION_KEY] = dict(newest)


def _forget(request: HttpRequest, batch_id: str) -> None:
    kept = dict(request.session.get(SESSION_KEY) or {})
    kept.pop(batch_id, None)
    request.session[SESSION_KEY] = kept


def _load(request: HttpRequest, event: Event, batch_id: Any) -> dict[str, Any] | None:
    """The batch ``batch_id`` of ``event`` if this session holds it, intact and not too old."""
    entry = (request.session.get(SESSION_KEY) or {}).get(str(batch_id))
    if not isinstance(entry, dict):
        return None
    try:
        batch = signing.loads(entry.get("data", ""), salt=SALT, max_age=MAX_AGE)
    except signing.BadSignature:  # SignatureExpired too
        return None
    if not isinstance(batch, dict) or batch.get("event") != event.pk:
        return None
    return batch


def _records(batch: dict[str, Any]) -> list[tuple[str, engine.GameRecord]] | None:
    """The batch's games read back through the record reader (they were signed, and are checked again);
    None if one no longer reads (a batch kept across an upgrade of the reader): the import starts again."""
    try:
        return [(label, engine.record_from_dict(data)) for label, data in batch["games"]]
    except engine.EngineError:
        return None


def _gone(request: HttpRequest, event: Event) -> HttpResponse:
    messages.error(
        request,
        gettext(
            "This import is no longer available (it was imported, or is more than a day old): start again."
        ),
    )
    return _redirect(request, reverse("scoring_manage:online_import", args=[event.slug]))


def _redirect(request: HttpRequest, url: str) -> HttpResponse:
    """A redirect that htmx follows as a whole page (an htmx request would swap the page into a part)."""
    if getattr(request, "htmx", False):
        return HttpResponseClientRedirect(url)
    return redirect(url)


def _batch_url(event: Event, batch: dict[str, Any]) -> str:
    return reverse("scoring_manage:online_import_batch", args=[event.slug, batch["id"]])


_read_games = import_jobs.read_games
_labelled = import_jobs.labelled


def _batch_page(slug: str, batch: Any) -> str:
    """Where a GET on a batch's step goes (a restored tab): the batch's page (see ``post_only``)."""
    return reverse("scoring_manage:online_import_batch", args=[slug, batch])


# -- views ----------------------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def online_import(request: HttpRequest, slug: str) -> HttpResponse:
    """Step 1: files, pasted JSON and links; files and pastes are read now, links are queued."""
    event = managed_event_or_404(request.user, slug)
    posted = request.method == "POST"  # an empty POST is bound too: "nothing to import" is said
    form = OnlineSourcesForm(request.POST, request.FILES) if posted else OnlineSourcesForm()
    if request.method == "POST" and form.is_valid():
        games: list[tuple[str, dict[str, Any]]] = []
        errors: list[str] = []
        queued: list[dict[str, Any]] = []  # for the worker: large files, then every link
        inline = 0
        for upload in form.cleaned_data["files"]:
            label = _label(upload.name)
            data = upload.read(MAX_FILE_BYTES + 1)
            inline += len(data)
            if inline > import_jobs.INLINE_BYTES:
                queued.append(import_jobs.file_source(label, upload.name or "-", data))
                continue
            try:
                games += _read_games(label, data, upload.name or "-")
            except engine.EngineError as exc:
                errors.append(_labelled(label, engine_message(exc)))
        pasted = form.cleaned_data["pasted"].strip()
        if pasted:
            label = gettext("pasted log")
            try:
                games += _read_games(label, pasted.encode("utf-8", "replace"), "-")
            except engine.EngineError as exc:
                errors.append(_labelled(label, engine_message(exc)))
        queued += [import_jobs.url_source(url, _label(url)) for url, _ in form.cleaned_data["urls"]]
        if len(games) + len(queued) > MAX_GAMES:
            errors.append(
                ngettext(
                    "%(count)d game: at most %(max)d in one import; import them in several goes.",
                    "%(count)d games: at most %(max)d in one import; import them in several goes.",
                    len(games) + len(queued),
                )
                % {"count": len(games) + len(queued), "max": MAX_GAMES}
            )
        if errors:
            for error in errors:
                form.add_error(None, error)
        else:
            batch = {
                "id": str(uuid.uuid4()),
                "event": event.pk,
                "created": time.time(),
                "games": games,
                "job": None,
                "errors": [],
                "picks": {},
            }
            if queued:
                batch["job"] = str(import_jobs.start(event=event, user=request.user, sources=queued).pk)
            _store(request, batch)
            return redirect(_batch_url(event, batch))
    status = 422 if request.method == "POST" else 200
    return render(request, "scoring/manage/online_import.html", {"event": event, "form": form}, status=status)


def _progress_context(event: Event, batch: dict[str, Any], job: ImportJob) -> dict[str, Any]:
    return {
        "event": event,
        "batch_id": batch["id"],
        "done": job.done,
        "total": job.total,
        "next_url": job.sources[job.done]["label"] if job.done < job.total else "",
        "games": len(batch["games"]) + len(job.games),
        "errors": job.errors,
    }


def _job_read(request: HttpRequest, event: Event, batch: dict[str, Any]) -> ImportJob | None:
    """The batch's job while the worker reads it; once it is done its games and errors join the batch
    (and the job row goes). None then, or when there was none."""
    if not batch.get("job"):
        return None
    job = ImportJob.objects.filter(pk=batch["job"], event=event).first()
    if job is not None and job.status != ImportJob.Status.DONE:
        return job
    if job is not None:
        batch["games"] += [tuple(game) for game in job.games]
        batch["errors"] += job.errors
        job.delete()
    else:  # gone (deleted by hand): its logs were never read
        batch["errors"].append(gettext("The logs to fetch were lost: start again."))
    batch["job"] = None
    _store(request, batch)
    return None


@login_required
@require_http_methods(["GET"])
def online_import_batch(request: HttpRequest, slug: str, batch: Any) -> HttpResponse:
    """Step 2 while the worker reads the links (the progress page), then step 3: the preview."""
    event = managed_event_or_404(request.user, slug)
    data = _load(request, event, batch)
    if data is None:
        return _gone(request, event)
    job = _job_read(request, event, data)
    if job is not None:
        return render(
            request, "scoring/manage/online_import_fetching.html", _progress_context(event, data, job)
        )
    records = _records(data)
    if records is None:
        return _gone(request, event)
    preview = preview_online(event=event, records=records, choices=data["picks"])
    form = OnlinePlayersForm(
        unresolved=_asked(preview), players=selectable_players(event), picked=data["picks"]
    )
    return _preview_page(request, event, data, preview, form)


def _preview_page(
    request: HttpRequest,
    event: Event,
    batch: dict[str, Any],
    preview: OnlinePreview,
    form: OnlinePlayersForm,
    *,
    status: int = 200,
) -> HttpResponse:
    context = {
        "event": event,
        "batch_id": batch["id"],
        "preview": preview,
        "form": form,
        "fetch_errors": batch["errors"],
        "ready": preview.ready and not batch["errors"],
        # The names still unknown are answered in the same form, so only errors keep the button away.
        "can_import": bool(preview.games) and not preview.errors and not batch["errors"],
        "count": len(preview.games),
    }
    return render(request, "scoring/manage/online_import_preview.html", context, status=status)


@login_required
@require_http_methods(["GET"])
def online_import_progress(request: HttpRequest, slug: str, batch: Any) -> HttpResponse:
    """How far the worker is (the progress page polls this every second); once it is done, the page
    goes to the preview."""
    event = managed_event_or_404(request.user, slug)
    data = _load(request, event, batch)
    if data is None:
        return _gone(request, event)
    job = _job_read(request, event, data)
    if job is None:
        return _redirect(request, _batch_url(event, data))
    if getattr(request, "htmx", False):
        return render(
            request, "scoring/manage/online_import_progress.html", _progress_context(event, data, job)
        )
    return redirect(_batch_url(event, data))


@login_required
@post_only(_batch_page)
def online_import_confirm(request: HttpRequest, slug: str, batch: Any) -> HttpResponse:
    """Step 4: save the organiser's picks; "check" shows the preview with them, "import" imports."""
    event = managed_event_or_404(request.user, slug)
    data = _load(request, event, batch)
    if data is None:
        return _gone(request, event)
    if _job_read(request, event, data) is not None:
        return _redirect(request, _batch_url(event, data))
    records = _records(data)
    if records is None:
        return _gone(request, event)
    preview = preview_online(event=event, records=records, choices=data["picks"])
    form = OnlinePlayersForm(
        request.POST, unresolved=_asked(preview), players=selectable_players(event), picked=data["picks"]
    )
    if not form.is_valid():  # a value that is not one of the choices: a stale or forged form
        if getattr(request, "htmx", False):
            messages.error(request, gettext("A player picked is not one of the choices: pick again."))
            return _redirect(request, _batch_url(event, data))
        return _preview_page(request, event, data, preview, form, status=422)
    # The names on the form take the form's answer (a blank one takes a pick back); others keep theirs.
    asked = set(form.names.values())
    data["picks"] = {**{k: v for k, v in data["picks"].items() if k not in asked}, **form.picks()}
    _store(request, data)
    if request.POST.get("action") != "import":
        return _redirect(request, _batch_url(event, data))
    if data["errors"]:
        messages.error(request, gettext("Some logs could not be read: remove them and start again."))
        return _redirect(request, _batch_url(event, data))
    try:
        hanchans = import_online_games(event=event, records=records, choices=data["picks"], user=request.user)
    except ImportFailed as exc:
        messages.error(request, gettext("Nothing was imported: %(error)s") % {"error": exc})
        return _redirect(request, _batch_url(event, data))
    _forget(request, data["id"])
    count = len(hanchans)
    messages.success(
        request,
        ngettext(
            "%(count)d online game imported: it counts in the standings.",
            "%(count)d online games imported: they count in the standings.",
            count,
        )
        % {"count": count},
    )
    return _redirect(request, reverse("scoring_manage:games", args=[event.slug]))


def _asked(preview: OnlinePreview) -> dict[str, tuple[Player, ...]]:
    """The names the form asks about: those no player was found for, and those the organiser answered
    already (settled now, they keep their field so that a pick can still be changed)."""
    picked = {name: () for name, match in preview.matches.items() if match.field in ("chosen", "new")}
    return {**picked, **preview.unresolved}
