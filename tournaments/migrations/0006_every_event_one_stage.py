"""Every existing event becomes one stage holding all its rounds, so nothing it shows changes.

The stage starts at round 1 and, being the event's only (so last) stage, covers every round from there:
its standings are the event's standings, its final ranking is the same list, and the EMA report reads
the same rows (tests/tournaments/test_stages_migration.py compares them before and after).
"""

from django.db import migrations
from django.db.models import Max


def one_stage_per_event(apps, schema_editor):
    """Create the single stage of each event that has none (idempotent: run twice, nothing more)."""
    Event = apps.get_model("league", "Event")
    Hanchan = apps.get_model("league", "Hanchan")
    Stage = apps.get_model("tournaments", "Stage")
    last = dict(
        Hanchan.objects.filter(round_number__isnull=False)
        .values("event_id")
        .annotate(last=Max("round_number"))
        .values_list("event_id", "last")
    )
    have = set(Stage.objects.values_list("event_id", flat=True))
    Stage.objects.bulk_create(
        [
            Stage(event_id=pk, order=1, first_round=1, rounds=min(max(last.get(pk) or 1, 1), 99))
            for pk in Event.objects.exclude(pk__in=have).values_list("pk", flat=True)
        ]
    )


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0005_stages")]

    operations = [migrations.RunPython(one_stage_per_event, migrations.RunPython.noop)]
