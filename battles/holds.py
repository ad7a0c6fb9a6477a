"""A force is on at most one unfinished board (DESIGN.md, "Results").

An unfinished battle — in progress, or finished with its results not applied yet — holds the
persistent rows its setup was built from: each rule system's plugin names them
(`BoardPlugin.held_rows(setup) -> {model label: {ids}}`). While a
row is held:

* setting up another battle with it is refused, naming the battle (`refuse_held`, HTTP 400);
* what would change it under the board (edits, activities, deleting it…) is refused with a
  clear message (`refuse_change`), except what each system lets through (see the README,
  "One battle at a time").

Reading the setups of a campaign's unfinished battles needs no lock: a battle's setup never
changes, and a service that sets one up holds the campaign's lock (kingdoms.transactions).
"""

from collections.abc import Iterable

from django.core.exceptions import ValidationError
from django.db.models import Model
from django.utils.translation import gettext as _

from kingdoms.services import check_version, save_row

from .models import Battle, BattleStatus
from .plugins import plugin_for

UNFINISHED = (BattleStatus.ACTIVE, BattleStatus.FINISHED)


def held_rows(battle: Battle) -> dict[str, set[int]]:
    """{model label: ids} of the persistent rows the battle was set up from."""
    plugin = plugin_for(battle.system)
    return plugin.held_rows(battle.setup) if plugin.held_rows is not None else {}


def holding_battles(campaign_id: int, rows: Iterable[Model]) -> dict[Model, Battle]:
    """{row: the unfinished battle holding it} for those of `rows` that are on a board."""
    rows = list(rows)
    if not rows:
        return {}
    battles = Battle.objects.filter(campaign_id=campaign_id, status__in=UNFINISHED).only(
        "pk", "name", "system", "setup", "campaign_id"
    )
    found: dict[Model, Battle] = {}
    for battle in battles.order_by("pk"):
        held = held_rows(battle)
        for row in rows:
            if row not in found and row.pk in held.get(row._meta.label_lower, ()):
                found[row] = battle
    return found


def _refuse(campaign_id: int, rows: Iterable[Model], message: str) -> None:
    """A ValidationError with `message` for each of `rows` on an unfinished board."""
    found = holding_battles(campaign_id, rows)
    if found:
        raise ValidationError(
            [message % {"name": row, "battle": battle.name} for row, battle in found.items()],
            code="held_by_battle",
        )


def refuse_held(campaign_id: int, rows: Iterable[Model]) -> None:
    """Set-up: refuse rows already on an unfinished board (one message per row, naming the
    battle)."""
    message = _(
        "%(name)s is already in the battle “%(battle)s”, which is not over or whose "
        "results are not applied yet: a force fights one battle at a time."
    )
    _refuse(campaign_id, rows, message)


def refuse_change(campaign_id: int, rows: Iterable[Model]) -> None:
    """A change under the board: refused while any of `rows` is on an unfinished board."""
    message = _(
        "%(name)s is in the battle “%(battle)s”: this waits until the battle is over and "
        "its results are applied (corrections to the fight go on its board)."
    )
    _refuse(campaign_id, rows, message)


def update_unless_held(row, version: int | None, **fields):
    """Edit a faction's row a board may hold (a force, an army, a character), locked by the
    caller: a form drawn from an older version is refused (`StaleEdit`, 409), then a change
    while the row is on an unfinished board (400); otherwise the fields are saved."""
    check_version(row, version)
    refuse_change(row.campaign_id, [row])
    return save_row(row, **fields)


def delete_unless_held(row) -> None:
    """Delete a faction's row (locked by the caller) unless an unfinished board holds it."""
    refuse_change(row.campaign_id, [row])
    row.delete()
