FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    DJANGO_SETTINGS_MODULE=warfare.settings.prod \
    WEB_CONCURRENCY=4 \
    LOG_FORMAT=json

RUN apt-get update && apt-get install -y --no-install-recommends gettext \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --create-home --uid 1000 warfare

WORKDIR /app
COPY . .
RUN pip install -c requirements.lock -e . \
    && SECRET_KEY=collectstatic-only ALLOWED_HOSTS=build DJANGO_SETTINGS_MODULE=warfare.settings.base \
       python manage.py collectstatic --noinput \
    && chown -R warfare /app/var

USER warfare
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2)"]
# WEB_CONCURRENCY app processes (gunicorn workers running the ASGI app under uvicorn, for the
# board's Server-Sent Events), stateless: they share PostgreSQL and Redis. Migrations are not
# run here: `python manage.py migrate` once per release (compose: the "migrate" service).
CMD ["gunicorn", "warfare.asgi:application", "--worker-class", "uvicorn_worker.UvicornWorker", "--bind", "0.0.0.0:8000", "--access-logfile", "-"]
