FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    DJANGO_SETTINGS_MODULE=warfare.settings.prod

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
CMD ["gunicorn", "warfare.wsgi", "--bind", "0.0.0.0:8000", "--workers", "3", "--access-logfile", "-"]
