"""Django admin: every model is registered, and each change list opens for a superuser."""

import pytest
from django.apps import apps
from django.contrib import admin
from django.urls import reverse

from tests.factories import UserFactory


def _project_models():
    return [m for m in apps.get_models() if m._meta.app_label in {"kingdoms", "pf2e", "battles"}]


def test_every_model_is_registered():
    assert _project_models()
    assert [m.__name__ for m in _project_models() if not admin.site.is_registered(m)] == []


@pytest.mark.django_db
def test_every_change_list_opens(client, world, kingdom_faction):
    root = UserFactory(username="root", is_staff=True, is_superuser=True)
    client.force_login(root)
    for model in _project_models():
        url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
        assert client.get(url).status_code == 200, url
