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
from .base import REST_FRAMEWORK, STORAGES  # noqa: E402

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
REST_FRAMEWORK = {**REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"api-write": "100000/minute"}}
