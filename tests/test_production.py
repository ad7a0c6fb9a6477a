"""Running as several processes: the shared Redis cache, the health check, one JSON log line
per request, the write throttle that counts atomically, and the files that build the image."""

import json
import logging
import threading
from pathlib import Path

import pytest
import yaml
from django.contrib.auth.models import AnonymousUser
from django.http import HttpResponse
from django.test import RequestFactory
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from rest_framework.test import APIRequestFactory

from tests.test_settings import manage
from warfare.api.throttling import WriteRateThrottle
from warfare.logs import JsonFormatter, request_log_middleware

ROOT = Path(__file__).resolve().parent.parent


def test_healthz_answers_ok_with_the_database_and_the_cache(
    client, db, django_assert_max_num_queries
):
    with django_assert_max_num_queries(1):
        response = client.get(reverse("healthz"))
    assert response.status_code == 200
    assert response.json() == {"database": "ok", "cache": "ok", "status": "ok"}
    assert "no-cache" in response["Cache-Control"]


def test_healthz_answers_503_when_the_cache_does_not(client, db, settings):
    # A real Redis client against a port where nothing listens.
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
            "OPTIONS": {"socket_connect_timeout": 0.5},
        }
    }
    response = client.get(reverse("healthz"))
    assert response.status_code == 503
    assert response.json() == {"database": "ok", "cache": "failing", "status": "failing"}


def test_healthz_takes_no_post(client, db):
    assert client.post(reverse("healthz")).status_code == 405


def test_redis_url_selects_the_shared_redis_cache_and_its_absence_local_memory():
    show = "from django.conf import settings; print(settings.CACHES['default']['BACKEND'])"
    common = {"DJANGO_SETTINGS_MODULE": "warfare.settings.base", "DEBUG": "true"}
    with_redis = manage(
        "shell", "--no-imports", "-c", show, REDIS_URL="redis://127.0.0.1:6379/3", **common
    )
    assert with_redis.stdout.strip() == "warfare.cache.RedisCache"
    without = manage("shell", "--no-imports", "-c", show, REDIS_URL="", **common)
    assert without.stdout.strip() == "django.core.cache.backends.locmem.LocMemCache"


def test_the_redis_cache_keeps_one_client_per_connection_pool(redis_cache):
    # Django's own makes a client (and its ~200 response callbacks) for every operation.
    first = redis_cache._cache.get_client("a", write=True)
    assert redis_cache._cache.get_client("b", write=True) is first
    redis_cache.set("probe", 2)
    assert redis_cache.get("probe") == 2


def test_the_suite_runs_on_its_own_keys_of_the_shared_redis(redis_cache):
    redis_cache.set("probe", 1)
    client = redis_cache._cache.get_client()
    assert client.exists(redis_cache.make_key("probe"))
    assert redis_cache.key_prefix.startswith("test-")


def test_one_json_line_per_request_with_status_duration_and_user(db, django_user_model):
    records = []

    class Keep(logging.Handler):
        def emit(self, record):
            records.append(self.format(record))

    handler = Keep()
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("warfare.requests")
    logger.addHandler(handler)
    try:
        user = django_user_model.objects.create(username="alice")
        request = RequestFactory().post("/campaigns/7/battles/")
        request.user = user
        request_log_middleware(lambda request: HttpResponse(status=201))(request)
        anonymous = RequestFactory().get("/healthz")
        anonymous.user = AnonymousUser()
        request_log_middleware(lambda request: HttpResponse(status=503))(anonymous)
    finally:
        logger.removeHandler(handler)
    lines = [json.loads(line) for line in records]
    assert [(x["method"], x["path"], x["status"], x["user"]) for x in lines] == [
        ("POST", "/campaigns/7/battles/", 201, user.pk),
        ("GET", "/healthz", 503, None),
    ]
    assert all(line["level"] == "INFO" and line["duration_ms"] >= 0 for line in lines)
    assert all("\n" not in line for line in records)


def test_the_request_line_never_looks_the_user_up_itself(
    db, django_user_model, django_assert_num_queries
):
    """An event stream gives its database connection back after `request.auser()`: the log
    line must not take another one (for as long as the stream lasts) to find the user."""
    records = []

    class Keep(logging.Handler):
        def emit(self, record):
            records.append(record.user)

    logger = logging.getLogger("warfare.requests")
    logger.addHandler(handler := Keep())
    user = django_user_model.objects.create(username="alice")
    try:
        for found in (user, None):
            request = RequestFactory().get("/campaigns/7/battles/1/live/")
            request.user = SimpleLazyObject(lambda: pytest.fail("the user was looked up"))
            if found is not None:
                request._acached_user = found  # what `await request.auser()` leaves
            with django_assert_num_queries(0):
                request_log_middleware(lambda request: HttpResponse())(request)
    finally:
        logger.removeHandler(handler)
    assert records == [user.pk, None]


def test_log_format_json_adds_the_request_line_middleware():
    show = "from django.conf import settings; print(settings.MIDDLEWARE[0])"
    common = {"DJANGO_SETTINGS_MODULE": "warfare.settings.base", "DEBUG": "true"}
    result = manage("shell", "--no-imports", "-c", show, LOG_FORMAT="json", **common)
    assert result.stdout.strip() == "warfare.logs.request_log_middleware"


def test_the_write_throttle_counts_atomically_on_the_shared_cache(redis_cache, settings, gm):
    """20 writes at once against a rate of 7: exactly 7 pass (DRF's own throttle reads a list,
    appends and writes it back, so concurrent requests can each see room)."""
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"api-write": "7/minute"},
    }

    class View:
        throttle_scope = "api-write"

    barrier, allowed = threading.Barrier(20), []

    def write():
        request = APIRequestFactory().post("/api/v1/anything/")
        request.user = gm
        barrier.wait()
        allowed.append(WriteRateThrottle().allow_request(request, View()))

    threads = [threading.Thread(target=write) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert allowed.count(True) == 7


def test_the_image_leaves_out_local_environments_and_secrets():
    ignored = (ROOT / ".dockerignore").read_text().split()
    for entry in (".venv/", "var/", ".git/", ".env"):
        assert entry in ignored


def test_compose_runs_migrations_once_then_several_app_processes_on_postgres_and_redis():
    services = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    assert {"db", "redis", "migrate", "web"} <= set(services)
    web = services["web"]
    assert web["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
    assert "migrate" in services["migrate"]["command"]
    assert "migrate" not in str(web.get("command", ""))
    assert web["environment"]["REDIS_URL"].startswith("redis://redis:")
    assert web["environment"]["WEB_CONCURRENCY"] != "1"
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "uvicorn_worker.UvicornWorker" in dockerfile and "warfare.asgi:application" in dockerfile
    assert "/healthz" in dockerfile
