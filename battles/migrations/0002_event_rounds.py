"""Data migration: each stored battle event gets the round (GURPS 3e: the day) in which it
happened, as `battles.services.event_round` now tags new events.

Until now a command's events were all tagged with the round after it (GURPS 3e: the day it
was given in), so a command that ended round 1 logged round 1's last events as round 2 and a
"day 2 begins" as day 1. The stored params say when rounds begin and end ("round", "day"), so
the rounds are worked out again from the rows alone, in the order they were written: each
command starts in the round the command before it (at its position, as it was then) left, and
an event naming a round moves the count there. Commands and snapshots are untouched: replay
and `verify_battles` do not read the events.

The rule is copied here on purpose (a migration is a snapshot of its time).
"""

from django.db import migrations


def _round(params, current: int) -> int:
    for key in ("round", "day"):
        value = (params or {}).get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return current


def _start_round(system: str, opening) -> int:
    """The round of the start events: D&D 5e begins in deployment (0) unless the armies
    were placed at set-up (its start then opens round 1)."""
    if system == "dnd5e" and not any(row.code == "dnd5e.round" for row in opening):
        return 0
    return 1


def retag(apps, schema_editor):
    Battle = apps.get_model("battles", "Battle")
    BattleCommand = apps.get_model("battles", "BattleCommand")
    BattleEvent = apps.get_model("battles", "BattleEvent")
    for battle in Battle.objects.only("pk", "system").iterator():
        rows = list(BattleEvent.objects.filter(battle=battle).order_by("pk"))
        by_command: dict[int | None, list] = {}
        for row in rows:
            by_command.setdefault(row.command_id, []).append(row)
        changed = []

        def tag(events, current: int) -> int:
            for row in events:
                current = _round(row.params, current)
                if row.round != current:
                    row.round = current
                    changed.append(row)
            return current

        opening = by_command.get(None, [])
        after = {-1: tag(opening, _start_round(battle.system, opening))}
        commands = BattleCommand.objects.filter(battle=battle).order_by("pk")
        for command in commands.only("pk", "position"):
            before = max((p for p in after if p < command.position), default=-1)
            after[command.position] = tag(by_command.get(command.pk, []), after[before])
        BattleEvent.objects.bulk_update(changed, ["round"], batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [("battles", "0001_initial")]

    operations = [migrations.RunPython(retag, migrations.RunPython.noop)]
