"""Armies, the kingdom log and recruitments move to the pf2e app (issue 12), in the migration
state only: their tables (`warfare_army`, `warfare_logentry`, `warfare_recruitment`) and rows
stay, and pf2e 0001 takes the models over. The `warfare` app keeps no models."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("warfare", "0004_army_initiative_bonus")]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="Recruitment"),
                migrations.DeleteModel(name="LogEntry"),
                migrations.DeleteModel(name="Army"),
            ],
            database_operations=[],
        )
    ]
