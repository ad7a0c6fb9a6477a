"""A stale activity post answers 409 with the army as it is now (pages and API), and two
recruitments of one specialized army finished at once create it once (§3.3: one of each
specialized army per faction), on PostgreSQL with real threads."""

import threading
from collections import Counter

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from warfare.systems.pf2e.models import Army, LogEntry, Recruitment, RecruitmentStep

#: Train Army: Warfare +7, a typed 20 (a critical success, §4.8) learns Keen Eyed in place of
#: Toughened Soldiers (a level 3 army knows one tactic, §1.2).
TRAIN = {"activity": "train_army", "skill": "warfare", "tactic": "keen_eyed",
         "replace": "toughened_soldiers", "typed_die": 20}  # fmt: skip


def _posts(client, url, militia, times):
    return [client.post(url, {**TRAIN, "version": militia.version}) for _ in range(times)]


def test_a_stale_train_army_post_answers_409_with_the_army_now(client, world, player, militia):
    """Twice the same post (a double click): the first learns the tactic; the second, drawn
    from the older army, is a 409 showing the army as it is now — not a 400 saying that
    Toughened Soldiers (replaced meanwhile) "is not one of the available choices"."""
    client.force_login(player)
    url = reverse("pf2e:army-activity", args=[world.pk, militia.pk])
    first, again = _posts(client, url, militia, 2)
    assert first.status_code == 200
    assert again.status_code == 409
    body = again.content.decode()
    assert "This army changed meanwhile" in body and "not one of the available choices" not in body
    militia.refresh_from_db()
    assert militia.tactics == ["keen_eyed"]
    assert LogEntry.objects.filter(army=militia, code="army.tactic_learned").count() <= 1


def test_a_stale_army_edit_answers_409_with_the_army_now(client, world, gm, militia):
    """An edit drawn from an older army saves nothing and redraws the form from the army as it
    is now (kingdoms.pages.form_page, as every edit page of the site)."""
    client.force_login(gm)
    url = reverse("pf2e:army-edit", args=[world.pk, militia.pk])
    fields = {"name": "Renamed", "hex": "", "hp": militia.hp, "potion_doses": 0, "notes": ""}
    saved = client.post(url, {**fields, "version": militia.version})
    assert saved.status_code == 302
    again = client.post(url, {**fields, "name": "Renamed again", "version": militia.version})
    assert again.status_code == 409
    body = again.content.decode()
    assert "someone changed this meanwhile" in body and 'value="Renamed"' in body
    militia.refresh_from_db()
    assert militia.name == "Renamed"


def test_a_stale_train_army_api_post_answers_409_with_the_army_now(as_role, world, militia):
    client = as_role("player")
    url = reverse("api:army-activities", args=[world.pk, militia.pk])
    body = {**TRAIN, "version": militia.version}
    assert client.post(url, body, format="json").status_code == 200
    again = client.post(url, body, format="json")
    assert again.status_code == 409
    assert "keen_eyed" in str(again.json()["army"]["tactics"])
    assert again.json()["army"]["version"] == Army.objects.get(pk=militia.pk).version


@pytest.mark.django_db(transaction=True)
def test_a_burst_of_stale_train_army_posts_applies_once(world, player, militia, kingdom):
    """Eight posts of one form at once (pages and API mixed): one applies, seven get 409."""
    barrier = threading.Barrier(8)
    statuses: list[int] = []

    def post(number: int) -> None:
        try:
            client = APIClient() if number % 2 else Client()
            client.force_login(player)
            connection.close()
            if number % 2:
                url = reverse("api:army-activities", args=[world.pk, militia.pk])
                barrier.wait(timeout=60)
                response = client.post(url, {**TRAIN, "version": militia.version}, format="json")
            else:
                url = reverse("pf2e:army-activity", args=[world.pk, militia.pk])
                barrier.wait(timeout=60)
                response = client.post(url, {**TRAIN, "version": militia.version})
            statuses.append(response.status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=post, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert Counter(statuses) == {200: 1, 409: 7}
    assert Army.objects.get(pk=militia.pk).version == militia.version + 1


def _finish_at_once(player, recruitments, name: str) -> list[tuple[int, str]]:
    """Post the last step (the name) of every recruitment at the same moment."""
    barrier = threading.Barrier(len(recruitments))
    answers: list[tuple[int, str]] = []

    def finish(recruitment: Recruitment) -> None:
        try:
            client = Client()
            client.force_login(player)
            connection.close()
            barrier.wait(timeout=60)
            response = client.post(recruitment.get_absolute_url(), {"action": "name", "name": name})
            answers.append((response.status_code, response.content.decode()))
        finally:
            connection.close()

    threads = [threading.Thread(target=finish, args=(r,)) for r in recruitments]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return answers


@pytest.mark.django_db(transaction=True)
def test_two_recruitments_of_one_specialized_army_create_it_once(world, player, kingdom):
    """§3.3: a faction has one army of each specialized kind. Four recruitments of the
    Sootscale Warriors reach their last step and are finished at the same moment, three
    times over: each time one army joins, the others get 400 "This faction already has
    Sootscale Warriors." (`army.specialized_already_in_faction`)."""
    for attempt in range(3):
        recruitments = [
            Recruitment.objects.create(
                faction=kingdom.faction,
                started_by=player,
                army_type="infantry",
                specialized="sootscale_warriors",
                step=RecruitmentStep.NAME,
                hex="C7",
            )  # fmt: skip
            for _ in range(4)
        ]
        answers = _finish_at_once(player, recruitments, f"Sootscales {attempt}")
        assert sorted(status for status, _body in answers) == [302, 400, 400, 400]
        assert all("This faction already has" in body for status, body in answers if status == 400)
        armies = Army.objects.active().filter(
            faction=kingdom.faction, specialized="sootscale_warriors"
        )
        assert armies.count() == 1
        armies.update(status="disbanded")  # the next attempt may recruit them again
