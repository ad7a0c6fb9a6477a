"""Battles: a setup, a seed and the commands applied so far; the snapshot is a cached replay.

`BattleCommand` and `BattleEvent` rows are append-only. Undo does not delete them: it marks
the last command undone, and a replay skips undone commands (and their events).
"""

import threading

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from kingdoms.models import Campaign
from warfare.engine.battle.registry import get_battle_system
from warfare.links import reversed_url
from warfare.words import per_language


class BattleStatus(models.TextChoices):
    ACTIVE = "active", _("in progress")
    FINISHED = "finished", _("finished")
    APPLIED = "applied", _("results applied")


#: The engine states of the battle versions this process read or wrote last, {(database,
#: battle id, seq, updated_at): state}: the state an action computed is what the next
#: request's battle row holds, and is not parsed from its snapshot again (issue 13). A
#: version names one snapshot (every write of a snapshot moves `updated_at`); a state is
#: immutable (the engines' states are frozen and every rule returns a new one).
_STATES: dict[tuple, object] = {}
STATES_KEPT = 128
_STATES_LOCK = threading.Lock()
#: What the snapshot of an instance not loaded from the database is compared with.
_NOT_LOADED = object()


def remember_state(battle: "Battle", state) -> None:
    """`state` is the engine state of `battle`'s snapshot, written at its version."""
    if battle.pk is not None and battle.updated_at is not None:
        _keep((battle._state.db, battle.pk, battle.seq, battle.updated_at), state)


def _keep(version: tuple, state) -> None:
    with _STATES_LOCK:  # (the request threads of one process share it)
        if len(_STATES) >= STATES_KEPT and version not in _STATES:
            del _STATES[next(iter(_STATES))]  # the oldest
        _STATES[version] = state


@per_language
def _status_labels() -> dict[str, str]:
    return {status.value: str(status.label) for status in BattleStatus}


class Battle(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="battles")
    name = models.CharField(_("name"), max_length=120)
    system = models.CharField(max_length=16)
    setup = models.JSONField()
    seed = models.BigIntegerField()
    snapshot = models.JSONField()
    seq = models.PositiveIntegerField(default=0, help_text="Number of live commands.")
    status = models.CharField(
        max_length=16, choices=BattleStatus.choices, default=BattleStatus.ACTIVE
    )
    players_may_act = models.BooleanField(
        _("players act for their armies"),
        default=True,
        help_text=_("Otherwise only the GM clicks; players watch."),
    )
    outcome = models.JSONField(null=True, blank=True)
    auto_sides = models.JSONField(
        _("sides that play themselves"),
        default=list,
        blank=True,
        help_text=_("Their turns are auto-played when reached (battles.autoplay)."),
    )
    autoplay_batch = models.UUIDField(
        null=True,
        blank=True,
        editable=False,
        help_text="The batch of the last live command if an auto-play applied it (the board's "
        '"Undo the auto-play" without a query).',
    )
    forecast_shared = models.BooleanField(
        _("players see the forecast"),
        default=False,
        help_text=_("Otherwise the odds are the GM's alone (they read every hidden number)."),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("battle")
        verbose_name_plural = _("battles")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reversed_url("battles:board", self.campaign_id, self.pk)

    def get_status_display(self) -> str:
        """The status's label in the page language, as Django's `get_FOO_display` says it
        (which builds a dict of every choice on each call, each label looked up in the
        catalogue: every board's head shows it)."""
        return _status_labels().get(self.status, str(self.status))

    @classmethod
    def from_db(cls, db, field_names, values):
        """The instance, with the version its snapshot was read at (`engine_state`)."""
        instance = super().from_db(db, field_names, values)
        loaded = instance.__dict__
        if "snapshot" in loaded and "seq" in loaded and "updated_at" in loaded:
            version = (db, instance.pk, instance.seq, instance.updated_at)
            loaded["_loaded_version"] = (instance.snapshot, version)
        return instance

    def engine_state(self):
        """The rule system's engine state of `snapshot`, read from its JSON once per snapshot
        (a board's context and its panels all read it; a new snapshot is read again), and
        not at all for a snapshot as read from the database at a version this process
        wrote or read last (`_STATES`)."""
        read = self.__dict__.get("_engine_state")
        if read is not None and read[0] is self.snapshot:
            return read[1]
        loaded, version = self.__dict__.get("_loaded_version", (_NOT_LOADED, None))
        state = _STATES.get(version) if loaded is self.snapshot else None
        if state is None:
            state = get_battle_system(self.system).state_from_dict(self.snapshot)
            if loaded is self.snapshot:
                _keep(version, state)
        self.__dict__["_engine_state"] = (self.snapshot, state)
        return state


class BattleCommand(models.Model):
    """One action on the board, at `position` among the live commands (its dice derive from
    the battle seed and that position)."""

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="commands")
    position = models.PositiveIntegerField()
    command = models.JSONField()
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    undone_at = models.DateTimeField(null=True, blank=True)
    batch = models.UUIDField(
        null=True,
        blank=True,
        help_text="The auto-play that applied it (battles.autoplay); undone as one. Replay "
        "reads only `command`.",
    )

    class Meta:
        ordering = ["position", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["battle", "position"],
                condition=Q(undone_at__isnull=True),
                name="one_live_command_per_position",
            )
        ]

    def __str__(self) -> str:
        return f"{self.battle} #{self.position}: {self.command.get('kind')}"


class BattleEvent(models.Model):
    """What a command (or the start) did: a code with params, dice included."""

    # (indexed with the id, `Meta.indexes`: not alone)
    battle = models.ForeignKey(
        Battle, on_delete=models.CASCADE, related_name="events", db_index=False
    )
    command = models.ForeignKey(
        BattleCommand, on_delete=models.CASCADE, null=True, blank=True, related_name="events"
    )
    round = models.PositiveIntegerField(default=1)
    code = models.CharField(max_length=64)
    params = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pk"]
        indexes = [
            # A battle's events in their order: the board's log page is the newest of one
            # battle's (`visibility.BattleView.log_page`), read from this index alone however
            # long the battle and however many battles the table holds (by the battle alone,
            # PostgreSQL read every event of the battle and sorted them).
            models.Index(fields=["battle", "id"], name="battle_events_in_order"),
        ]

    def __str__(self) -> str:
        return self.code
