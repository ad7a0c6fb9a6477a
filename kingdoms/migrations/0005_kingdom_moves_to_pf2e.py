"""The Pathfinder kingdom moves to the pf2e app (issue 12), in the migration state only: its
table `kingdoms_kingdom` and its rows stay, and pf2e 0001 takes the model over."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("kingdoms", "0004_command_staff_skill_range")]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="Kingdom")],
            database_operations=[],
        )
    ]
