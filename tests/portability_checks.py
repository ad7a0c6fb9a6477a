"""Shared checks of the campaign file for each rule system's tests: play a battle with the
engine's own buttons, round-trip a campaign, refuse a damaged file with nothing written."""

import copy
import json

import pytest
from django.apps import apps
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.html import strip_tags

from battles import services as battle_services
from battles.models import Battle
from battles.plugins import plugin_for
from kingdoms.portability import ImportRefused, campaign_export, campaign_import
from warfare.engine.battle.registry import get_battle_system


def play(user, battle: Battle, steps: int) -> Battle:
    """Apply `steps` commands as the GM, each the first button some actor has (an action
    before ending a turn), so that the battle has commands and events naming its pieces."""
    system = get_battle_system(battle.system)
    for _step in range(steps):
        battle.refresh_from_db()
        state = system.state_from_dict(battle.snapshot)
        actors = list(plugin_for(battle.system).actor_factions(battle))
        specs = [(actor, spec) for actor in actors for spec in system.legal_actions(state, actor)]
        specs.sort(key=lambda pair: pair[1].key == "end_turn")
        commands = [command for actor, spec in specs for command in spec.commands(actor)[:1]]
        for command in commands:
            try:
                battle = battle_services.battle_act(
                    user=user, campaign_id=battle.campaign_id, battle_id=battle.pk,
                    expected_seq=battle.seq, command=command.to_dict(),
                )[0]  # fmt: skip
                break
            except ValidationError:
                continue
        else:
            break
    battle.refresh_from_db()
    return battle


def without_export_time(document: dict) -> dict:
    return {k: v for k, v in document.items() if k != "exported_at"}


def round_trip(campaign, user):
    """(the file, the imported campaign): the copy exports to the same file, and each of its
    battles verifies (replaying its commands gives its board)."""
    first = campaign_export(campaign)
    copy_ = campaign_import(user=user, data=json.loads(json.dumps(first)))
    assert copy_.pk != campaign.pk
    assert without_export_time(campaign_export(copy_)) == without_export_time(first)
    battles = list(Battle.objects.filter(campaign=copy_))
    assert len(battles) == len(first["battles"])
    assert all(battle_services.battle_verify(battle) for battle in battles)
    return first, copy_


def row_counts() -> dict[str, int]:
    """The number of rows of every model of the project's apps."""
    return {
        model._meta.label: model.objects.count()
        for app in ("kingdoms", "pf2e", "battles", "gurps4e", "gurps3e", "dnd5e")
        for model in apps.get_app_config(app).get_models()
    }


def assert_refused(document: dict, user, change, message: str) -> None:
    """`change(copy of document)` makes a file the import refuses with `message`; nothing is
    written."""
    damaged = copy.deepcopy(document)
    change(damaged)
    before = row_counts()
    with pytest.raises(ImportRefused, match=message):
        campaign_import(user=user, data=json.loads(json.dumps(damaged)))
    assert row_counts() == before


def export_queries(campaign) -> int:
    """How many queries exporting `campaign` (fetched with its creator) takes."""
    campaign = type(campaign).objects.select_related("created_by").get(pk=campaign.pk)
    with CaptureQueriesContext(connection) as queries:
        campaign_export(campaign)
    return len(queries)


def clone_battle(battle: Battle) -> Battle:
    """Another battle with the same setup, commands and events (for query counts)."""
    commands = list(battle.commands.order_by("pk"))
    events = list(battle.events.order_by("pk"))
    battle.pk = None
    battle.save()
    by_old = {}
    for command in commands:
        old = command.pk
        command.pk, command.battle = None, battle
        command.save()
        by_old[old] = command
    for event in events:
        event.pk, event.battle = None, battle
        event.command = by_old.get(event.command_id)
        event.save()
    return battle


def page_text(client, url: str) -> str:
    """The text a page shows (tags, and with them ids in links and attributes, removed)."""
    response = client.get(url)
    assert response.status_code == 200, url
    return " ".join(strip_tags(response.content.decode()).split())


def assert_same_pages(client, pairs) -> None:
    """Each (source URL, copy URL) pair shows the same text."""
    for source, copy_ in pairs:
        assert page_text(client, copy_) == page_text(client, source), copy_


def assert_same_campaign_pages(client, battle: Battle, copy_: Battle, *, lists, details):
    """A rule system's pages show the same text for `battle`'s campaign and for its imported
    copy (`copy_`, the battle in the copy): each list page (`lists`: URL names taking the
    campaign), each row's detail page (`details`: (URL name, model) pairs; the copy's row of
    the same name), and the two boards."""
    source, target = battle.campaign_id, copy_.campaign_id
    assert source != target
    pairs = [(reverse(name, args=[source]), reverse(name, args=[target])) for name in lists]
    for name, model in details:
        copies = dict(model.objects.filter(campaign_id=target).values_list("name", "pk"))
        rows = list(model.objects.filter(campaign_id=source))
        assert rows, model  # each detail page is read at least once
        pairs += [
            (reverse(name, args=[source, row.pk]), reverse(name, args=[target, copies[row.name]]))
            for row in rows
        ]
    pairs.append(
        (reverse("battles:board", args=[source, battle.pk]),
         reverse("battles:board", args=[target, copy_.pk]))
    )  # fmt: skip
    assert_same_pages(client, pairs)


def assert_import_page_refuses(client, user, document: dict, message: str) -> None:
    """The import page answers a damaged file with 400 and `message`; nothing is written."""
    client.force_login(user)
    before = row_counts()
    upload = SimpleUploadedFile(
        "campaign.json", json.dumps(document).encode(), content_type="application/json"
    )
    response = client.post(reverse("kingdoms:campaign-import"), {"file": upload})
    assert response.status_code == 400
    assert message in response.content.decode()
    assert row_counts() == before
