# The audit trail moved to league (league/migrations/0004_historyentry.py takes over the table).
# State only: nothing happens to the table scoring_historyentry or its rows.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0003_penalty_round'),
        ('league', '0004_historyentry'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name='HistoryEntry')],
            database_operations=[],
        ),
    ]
