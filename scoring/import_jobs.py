"""Reading the logs of an online import in a background worker (``ImportJob``, scoring/tasks.py).

The "Import online games" page (scoring/views/online.py) reads small files in the request; every replay
link — a fetch from tenhou.net, up to its timeout — and every file over :data:`INLINE_BYTES` become the
sources of an :class:`~scoring.models.ImportJob`, marked for the worker in the same transaction. The
worker (:func:`run`) reads them in order and commits after each one its progress, the games read and
the errors, so the page polling the job shows how far it is, and a worker killed on the way goes on
from the next source, to the same result. Nothing is imported here: the games go back to the page's
preview, and the organiser's confirmation imports them as before.
"""

from __future__ import annotations

import base64
import uuid
from typing import Any

from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext

from league.engine_text import engine_message
from league.models import Event
from scoring import engine
from scoring.engine.logs import read_log
from scoring.models import ImportJob
from scoring.online import OnlineError, fetch_tenhou_log, log_id_from_url

INLINE_BYTES = 256 * 1024
"""Files of one import read in the request up to this size in all (a real game's log is 30–100 kB); the
rest are read by the worker: a large gzip of many games costs seconds to decompress and replay."""


def read_games(label: str, data: bytes, name: str) -> list[tuple[str, dict[str, Any]]]:
    """The games of one log as (label, record) pairs; raises EngineError (LogError) when it is no log."""
    records = read_log(data, name=name)
    if len(records) == 1:
        return [(label, records[0].to_dict())]
    return [
        (gettext("%(label)s: game %(number)d") % {"label": label, "number": n}, r.to_dict())
        for n, r in enumerate(records, 1)
    ]


def labelled(label: str, error: str) -> str:
    """An error of one log, after the log's name ("game.mjlog: not a Tenhou log")."""
    return gettext("%(label)s: %(error)s") % {"label": label, "error": error}


def url_source(url: str, label: str) -> dict[str, Any]:
    return {"url": url, "label": label}


def file_source(label: str, name: str, data: bytes) -> dict[str, Any]:
    return {"label": label, "name": name, "data": base64.b64encode(data).decode("ascii")}


def start(*, event: Event, user: Any, sources: list[dict[str, Any]]) -> ImportJob:
    """A job reading ``sources`` for ``event``, marked for the worker in the caller's transaction."""
    from scoring.tasks import ONLINE_IMPORT

    with transaction.atomic():
        job = ImportJob.objects.create(
            id=uuid.uuid4(),
            event=event,
            created_by=user if getattr(user, "is_authenticated", False) else None,
            language=translation.get_language() or "en",
            sources=sources,
        )
        ONLINE_IMPORT.mark(job.pk, scope=f"event:{event.pk}")
    return job


def _read(source: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    label = source["label"]
    if "url" in source:
        log_id = log_id_from_url(source["url"])
        return read_games(label, fetch_tenhou_log(log_id), log_id)
    return read_games(label, base64.b64decode(source["data"]), source.get("name") or "-")


def run(job_id: str) -> None:
    """Read the job's sources from the first one not done yet, committing after each; a job that is
    done (or gone: the organiser's import was read, or the event deleted) is left as it is."""
    job = ImportJob.objects.filter(pk=job_id).first()
    if job is None or job.status == ImportJob.Status.DONE:
        return
    ImportJob.objects.filter(pk=job.pk).update(status=ImportJob.Status.RUNNING, updated_at=timezone.now())
    games, errors = list(job.games), list(job.errors)
    with translation.override(job.language):
        for index in range(job.done, job.total):
            source = job.sources[index]
            try:
                games += _read(source)
            except OnlineError as exc:
                errors.append(labelled(source["label"], exc.message))
            except engine.EngineError as exc:
                errors.append(labelled(source["label"], engine_message(exc)))
            # One statement: the progress and what it read go together, so a restart resumes exactly.
            ImportJob.objects.filter(pk=job.pk).update(
                done=index + 1, games=games, errors=errors, updated_at=timezone.now()
            )
    ImportJob.objects.filter(pk=job.pk).update(status=ImportJob.Status.DONE, updated_at=timezone.now())
