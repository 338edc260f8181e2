# The audit trail moves from scoring to league (league's services write it too, and league may not
# import scoring). State only: the table keeps its name, scoring_historyentry, and its rows.

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('league', '0003_countries_played_on_withdrawn'),
        ('scoring', '0003_penalty_round'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='HistoryEntry',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('action', models.CharField(max_length=40)),
                        ('summary', models.CharField(max_length=300)),
                        ('reason', models.CharField(blank=True, max_length=300)),
                        ('before', models.JSONField(blank=True, null=True)),
                        ('after', models.JSONField(blank=True, null=True)),
                        ('at', models.DateTimeField(default=django.utils.timezone.now)),
                        ('event', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='history', to='league.event')),
                        ('hanchan', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='history', to='league.hanchan')),
                        ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'verbose_name_plural': 'history entries',
                        'ordering': ['-at', '-id'],
                        'db_table': 'scoring_historyentry',
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
