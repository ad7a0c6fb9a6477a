"""English and Russian: every page renders in both, and the Russian catalogue is complete."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from tests.factories import InviteFactory

PO = Path(settings.BASE_DIR) / "locale" / "ru" / "LC_MESSAGES" / "django.po"
MO = PO.with_suffix(".mo")


def _pages(world, faction, settlement, invite):
    c = world.pk
    return [
        reverse("kingdoms:campaign-list"),
        reverse("kingdoms:campaign-create"),
        reverse("kingdoms:campaign-detail", args=[c]),
        reverse("kingdoms:campaign-edit", args=[c]),
        reverse("kingdoms:faction-create", args=[c]),
        reverse("kingdoms:faction-detail", args=[c, faction.pk]),
        reverse("kingdoms:faction-edit", args=[c, faction.pk]),
        reverse("kingdoms:settlement-create", args=[c]),
        reverse("kingdoms:settlement-edit", args=[c, settlement.pk]),
        reverse("kingdoms:members", args=[c]),
        reverse("kingdoms:invite-accept", args=[invite.token]),
        reverse("password_change"),
        *_army_pages(world, faction),
    ]


def _army_pages(world, faction):
    from warfare.systems.pf2e import services
    from warfare.systems.pf2e.models import Kingdom

    Kingdom.objects.filter(faction=faction).update(level=3)
    gm = world.created_by
    army = services.army_create(
        user=gm,
        campaign_id=world.pk,
        faction_id=faction.pk,
        name="Pikes",
        army_type="infantry",
        tactics=("keen_eyed",),
    )
    recruitment = services.recruitment_start(
        user=gm, campaign_id=world.pk, faction_id=faction.pk, army_type="infantry"
    )
    from battles.services import battle_create

    enemy = services.army_create(
        user=gm,
        campaign_id=world.pk,
        faction_id=faction.pk,
        name="Turncoats",
        army_type="infantry",
        tactics=("keen_eyed",),
    )
    battle = battle_create(
        user=gm, campaign_id=world.pk, name="Skirmish", sides={"a": [army.pk], "b": [enemy.pk]}
    )
    return [
        reverse("battles:list", args=[world.pk]),
        reverse("battles:create", args=[world.pk]),
        battle.get_absolute_url(),
        reverse("battles:report", args=[world.pk, battle.pk]),
        reverse("pf2e:army-list", args=[world.pk, faction.pk]),
        reverse("pf2e:army-create", args=[world.pk, faction.pk]),
        reverse("pf2e:army-detail", args=[world.pk, army.pk]),
        reverse("pf2e:army-edit", args=[world.pk, army.pk]),
        reverse("pf2e:army-activity", args=[world.pk, army.pk]),
        reverse("pf2e:recruit-start", args=[world.pk, faction.pk]),
        recruitment.get_absolute_url(),
    ]


@pytest.mark.parametrize(
    ("language", "marker"),
    [("en", "Campaigns"), ("ru", "Кампании")],
)
def test_every_page_renders_in_both_languages(client, world, gm, kingdom_faction, language, marker):
    client.force_login(gm)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    invite = InviteFactory(campaign=world)
    settlement = kingdom_faction.settlements.first()
    for url in _pages(world, kingdom_faction, settlement, invite):
        response = client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        assert f'<html lang="{language}">' in html, url
        assert marker in html, url


@pytest.mark.parametrize(
    ("language", "marker"),
    [("en", "Log in"), ("ru", "Войти")],
)
def test_anonymous_pages_render_in_both_languages(client, db, language, marker):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    for url in (reverse("login"), reverse("signup")):
        response = client.get(url)
        assert response.status_code == 200
        assert marker in response.content.decode()


def test_rule_terms_follow_the_glossary():
    """Russian rule terms from shared/rules/pf2e-kingmaker-warfare.md §12."""
    with translation.override("ru"):
        assert translation.pgettext("kingdom skill", "Warfare") == "Военное дело"
        assert translation.pgettext("kingdom skill", "Defense") == "Оборона"
        assert translation.pgettext("kingdom skill", "Statecraft") == "Управление"
        assert translation.gettext("Control DC").startswith("СЛ")


def _entries(po_text: str):
    """(msgid, [msgstr...], flags) for every entry but the header."""
    for block in po_text.split("\n\n"):
        flags = " ".join(line for line in block.splitlines() if line.startswith("#,"))
        msgid = "".join(re.findall(r'^msgid "(.*)"$', block, re.M))
        strs = re.findall(r'^msgstr(?:\[\d\])? "(.*)"((?:\n".*")*)', block, re.M)
        if not msgid and 'msgid ""' in block and "Project-Id-Version" in block:
            continue
        if "msgid" in block:
            yield (
                msgid,
                ["".join([first, *re.findall(r'"(.*)"', rest)]) for first, rest in strs],
                flags,
            )


def test_russian_catalogue_is_complete_and_not_fuzzy():
    entries = list(_entries(PO.read_text(encoding="utf-8")))
    assert len(entries) > 100
    untranslated = [msgid for msgid, strs, _ in entries if not all(strs)]
    fuzzy = [msgid for msgid, _, flags in entries if "fuzzy" in flags]
    assert untranslated == []
    assert fuzzy == []


def test_compiled_catalogue_matches_the_source(tmp_path):
    if shutil.which("msgfmt") is None:
        pytest.skip("gettext's msgfmt is not installed")
    fresh = tmp_path / "django.mo"
    subprocess.run(["msgfmt", "--check", "-o", str(fresh), str(PO)], check=True)
    assert fresh.read_bytes() == MO.read_bytes(), "run `make messages` and commit the .mo"
