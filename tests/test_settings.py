"""Settings: production refuses to start half-configured and passes Django's deploy checks."""

import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings

ROOT = Path(__file__).resolve().parent.parent
STRONG_KEY = "k3y-" + "".join(chr(ord("a") + i % 26) + str(i % 10) for i in range(40))


def manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    ignored = {"DATABASE_URL", "DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE", "DJANGO_SETTINGS_MODULE"}
    clean = {k: v for k, v in os.environ.items() if k not in ignored}
    clean.update({"SECRET_KEY": "", "ALLOWED_HOSTS": ""}, **env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_production_settings_pass_check_deploy_without_warnings():
    result = manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DJANGO_SETTINGS_MODULE="warfare.settings.prod",
        SECRET_KEY=STRONG_KEY,
        ALLOWED_HOSTS="warfare.example.org",
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/warfare",
    )
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout


def test_production_refuses_to_start_without_a_secret_key():
    result = manage(
        "check",
        DJANGO_SETTINGS_MODULE="warfare.settings.prod",
        ALLOWED_HOSTS="warfare.example.org",
    )
    assert result.returncode != 0
    assert "SECRET_KEY is not set" in result.stderr


def test_production_refuses_to_start_with_debug_on():
    result = manage(
        "check",
        DJANGO_SETTINGS_MODULE="warfare.settings.prod",
        SECRET_KEY=STRONG_KEY,
        ALLOWED_HOSTS="warfare.example.org",
        DEBUG="true",
    )
    assert result.returncode != 0
    assert "DEBUG must be off" in result.stderr


def test_without_debug_the_base_settings_demand_a_secret_key():
    result = manage("check", DJANGO_SETTINGS_MODULE="warfare.settings.base")
    assert result.returncode != 0
    assert "SECRET_KEY is not set" in result.stderr


def test_debug_runs_with_the_development_key_and_sqlite():
    result = manage(
        "shell",
        "-c",
        "from django.conf import settings as s; print(s.DATABASES['default']['ENGINE'])",
        DJANGO_SETTINGS_MODULE="warfare.settings.base",
        DEBUG="true",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "django.db.backends.sqlite3"


def test_postgresql_uses_the_psycopg_pool_and_health_checks():
    database = settings.DATABASES["default"]
    assert database["ENGINE"] == "django.db.backends.postgresql"
    assert database["OPTIONS"]["pool"]["max_size"] >= 1
    assert database["CONN_HEALTH_CHECKS"] is True
    assert database["CONN_MAX_AGE"] == 0


def test_trusted_proxies_are_none_unless_the_environment_says_how_many():
    """X-Forwarded-For counts only behind TRUSTED_PROXY_COUNT proxies (warfare.accounts);
    DRF's throttles read the same number, not their trust-every-header default."""
    assert (settings.TRUSTED_PROXY_COUNT, settings.REST_FRAMEWORK["NUM_PROXIES"]) == (0, 0)
    result = manage(
        "shell",
        "-c",
        "from django.conf import settings as s; "
        "print(s.TRUSTED_PROXY_COUNT, s.REST_FRAMEWORK['NUM_PROXIES'])",
        DJANGO_SETTINGS_MODULE="warfare.settings.base",
        DEBUG="true",
        TRUSTED_PROXY_COUNT="2",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "2 2"
