"""Settings for the test suite: PostgreSQL, fast hashing, a fixed key."""

import os

os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/warfare")
os.environ.setdefault("SECRET_KEY", "test-only-secret-key-" + "x" * 40)
os.environ.setdefault("ALLOWED_HOSTS", "testserver,localhost,127.0.0.1")
# The concurrency tests run 20 threads in one process: a pool they wait longer for than the
# 1 second a production request waits (tests/test_database_outage.py runs the defaults).
os.environ.setdefault("DATABASE_POOL_MAX", "20")
os.environ.setdefault("DATABASE_POOL_TIMEOUT", "10")

from .base import *  # noqa: E402, F403
from .base import CACHES, REDIS_URL, REST_FRAMEWORK, STORAGES  # noqa: E402

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# Serve static files straight from static/ (no collectstatic before tests).
WHITENOISE_AUTOREFRESH = True
WHITENOISE_USE_FINDERS = True
# Tests send many API writes in a row: the throttle's own test (tests/security/test_throttling.py)
# lowers this rate to check it.
# (API_WRITE_RATE sets it for the app processes a test starts.)
REST_FRAMEWORK = {
    **REST_FRAMEWORK,
    "DEFAULT_THROTTLE_RATES": {"api-write": os.environ.get("API_WRITE_RATE", "100000/minute")},
}
# With REDIS_URL (`make test` sets it) the tests run on a real Redis, as production does; each
# run has its own key prefix, and the suite clears only its own keys (tests/conftest.py), so
# two runs can share one Redis.
if REDIS_URL:
    prefix = os.environ.get("CACHE_KEY_PREFIX") or f"test-{os.getpid()}"
    CACHES = {"default": {**CACHES["default"], "KEY_PREFIX": prefix}}

# The tests count board renders (battles.rendering.RENDERS_KEY).
BOARD_RENDER_COUNT = True

# A fifth, test-only rule system (tests/toysystem): proves the board core is generic.
INSTALLED_APPS = [*INSTALLED_APPS, "tests.toysystem.apps.ToySystemConfig"]  # noqa: F405
