"""Settings shared by every environment, read from the environment.

`make run` sets DEBUG=true; production uses `warfare.settings.prod`, which only tightens these.
Every variable is listed in `.env.example`.
"""

from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent.parent

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

DEBUG = env.bool("DEBUG", default=False)

SECRET_KEY = env.str("SECRET_KEY", default="")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. Set it in the environment, or set DEBUG=true for local "
            "development (`make run` does that for you)."
        )
    SECRET_KEY = "django-insecure-development-only-key-do-not-use-in-production"  # noqa: S105

ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "csp",
    "warfare",
    "warfare.systems.pf2e",
    "warfare.systems.gurps4e",
    "warfare.systems.gurps3e",
    "warfare.systems.dnd5e",
    "kingdoms",
    "battles",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Database trouble: 409 when two writes could not be serialised, 503 when it is down.
    "warfare.middleware.DatabaseTroubleMiddleware",
]

ROOT_URLCONF = "warfare.urls"
WSGI_APPLICATION = "warfare.wsgi.application"
ASGI_APPLICATION = "warfare.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
            # `{% url %}` reversing each URL once per process (after Django's own builtins)
            "builtins": ["warfare.templatetags.urls"],
        },
    },
]

# Database: an embedded SQLite file by default, PostgreSQL when DATABASE_URL says so.
_SQLITE_DEFAULT = BASE_DIR / "var" / "warfare.sqlite3"
DATABASES = {"default": env.db_url("DATABASE_URL", default=f"sqlite:///{_SQLITE_DEFAULT}")}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    Path(DATABASES["default"]["NAME"]).parent.mkdir(parents=True, exist_ok=True)
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # psycopg 3's connection pool; with a pool, connections are not kept per thread. A
    # request waits at most DATABASE_POOL_TIMEOUT seconds for a connection, and a connection
    # attempt gives up after DATABASE_CONNECT_TIMEOUT: with the database down the answer is a
    # 503 within about 2 seconds (warfare.middleware), and the pool reconnects by itself.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    options = DATABASES["default"].setdefault("OPTIONS", {})
    options["pool"] = {
        "min_size": env.int("DATABASE_POOL_MIN", default=1),
        "max_size": env.int("DATABASE_POOL_MAX", default=10),
        "timeout": env.float("DATABASE_POOL_TIMEOUT", default=1.0),
    }
    options.setdefault("connect_timeout", env.int("DATABASE_CONNECT_TIMEOUT", default=2))
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
# The board's access check runs as a prepared statement on PostgreSQL (`warfare.compiled`),
# planned once per connection: set false behind a pooler that shares server connections
# between clients (PgBouncer in transaction mode), which prepared statements do not survive.
DATABASE_PREPARE = env.bool("DATABASE_PREPARE", default=True)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "kingdoms:campaign-list"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("ru", _("Russian"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "var" / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# Content-Security-Policy: htmx is served from our own static files and no page has inline
# scripts or styles, so everything comes from 'self'.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
        "base-uri": ["'self'"],
        "object-src": ["'none'"],
    },
}
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
# Sessions read from the cache (Redis with REDIS_URL, shared by every app process), written
# through to the database: a request reads its session without a query (the live poll of an
# unchanged board needs none at all, `battles.live.unchanged_poll`).
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

# The cache holds the throttles' counters (API writes, failed log-ins) and, shared by every app
# process, what they must agree on. With several processes (gunicorn workers, containers) set
# REDIS_URL: Django's RedisCache, one Redis for all. Without it, the local-memory cache of the
# single-process `make run` (each process would count on its own).
REDIS_URL = env.str("REDIS_URL", default="")
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "warfare.cache.RedisCache",  # Django's, its client kept
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": env.str("CACHE_KEY_PREFIX", default="warfare"),
            # Fail fast when Redis is down: a request waits at most this long for it.
            "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 2},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# BOARD_RENDER_COUNT=true: every real board render is counted in the shared cache
# (`battles.rendering.RENDERS_KEY`), for the benchmark `bench/live.py` and the tests; off in
# production (one cache write per render saved).
BOARD_RENDER_COUNT = env.bool("BOARD_RENDER_COUNT", default=False)

# Failed log-ins per client address and username before the login page answers 429, and the
# window (seconds) they are counted in (warfare.accounts).
LOGIN_FAILURE_LIMIT = 10
LOGIN_FAILURE_WINDOW = 15 * 60
# How many reverse proxies in front of the app append the client's address to X-Forwarded-For
# (warfare.accounts.client_address). 0: none, the header is ignored (anybody can send it).
TRUSTED_PROXY_COUNT = env.int("TRUSTED_PROXY_COUNT", default=0)

REST_FRAMEWORK = {
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # Session first: an anonymous request gets 403 (no WWW-Authenticate challenge).
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PAGINATION_CLASS": "warfare.api.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # Writes (POST) per user; see warfare.api.throttling.
    "DEFAULT_THROTTLE_CLASSES": ["warfare.api.throttling.WriteRateThrottle"],
    "DEFAULT_THROTTLE_RATES": {"api-write": env.str("API_WRITE_RATE", default="120/minute")},
    # The client's address for DRF's throttles: the same trusted proxies (DRF's default, None,
    # would believe any X-Forwarded-For).
    "NUM_PROXIES": TRUSTED_PROXY_COUNT,
}

# OpenAPI (drf-spectacular): the schema at /api/v1/schema/, Swagger UI at /api/v1/docs/ with its
# assets from our own static files (drf-spectacular-sidecar): no CDN, no inline script.
SPECTACULAR_SETTINGS = {
    "TITLE": "Warfare API",
    "DESCRIPTION": (
        "Campaigns, factions and armies, with the same permissions as the web pages. "
        "Authenticate with the session (browser) or `Authorization: Token <key>` "
        "(create a token on your profile page)."
    ),
    "VERSION": "1",
    "SCHEMA_PATH_PREFIX": "/api/v1",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # One name for a choice set several systems' battle-create bodies share.
    "ENUM_NAME_OVERRIDES": {
        "BattleSideEnum": ["a", "b"],
        "Gurps3eMoraleModifierEnum": "warfare.engine.systems.gurps3e.results.MORALE_MODIFIERS",
    },
}

# LOG_FORMAT=json: every log record is one JSON line, and every request logs one line
# (`warfare.requests`: method, path, status, duration, user) for a log collector to read.
LOG_FORMAT = env.str("LOG_FORMAT", default="text")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"json": {"()": "warfare.logs.JsonFormatter"}},
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            **({"formatter": "json"} if LOG_FORMAT == "json" else {}),
        }
    },
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
}
if LOG_FORMAT == "json":
    MIDDLEWARE.insert(0, "warfare.logs.request_log_middleware")
