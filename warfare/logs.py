"""Logs a collector can read: one JSON object a line (`LOG_FORMAT=json`), and one line for
every request (method, path, status, duration, user) from `request_log_middleware`."""

import json
import logging
import time
from datetime import UTC, datetime

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.utils.functional import empty

request_logger = logging.getLogger("warfare.requests")

#: Attributes every LogRecord has; whatever else a record carries (`extra=`) goes in the line.
_STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime", "taskName"}


class JsonFormatter(logging.Formatter):
    """A log record as one line of JSON: time, level, logger, message, extra fields, and the
    traceback of an exception."""

    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": datetime.fromtimestamp(record.created, tz=UTC).isoformat(),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        line.update({k: v for k, v in vars(record).items() if k not in _STANDARD})
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str, ensure_ascii=False)


def _user_id(request) -> int | None:
    """The id of the request's user as the request found them, never looked up here: an
    async view (the board's event stream) resolves its user with `request.auser()` and gives
    its database connection back at once; a lookup of `request.user` after it would take a
    connection from the pool for as long as the stream lasts (hours), and a few dozen viewers
    would exhaust the pool."""
    user = getattr(request, "user", None)
    if getattr(user, "_wrapped", user) is empty:  # a lazy user nobody asked for
        user = getattr(request, "_acached_user", None)  # what `request.auser()` found, if any
    return user.pk if user is not None and user.is_authenticated else None


def _log(request, response, started: float) -> None:
    request_logger.info(
        "%s %s %s",
        request.method,
        request.path,
        response.status_code,
        extra={
            "method": request.method,
            "path": request.path,
            "status": response.status_code,
            "duration_ms": round((time.perf_counter() - started) * 1000, 1),
            "user": _user_id(request),
        },
    )


def request_log_middleware(get_response):
    """One log line per request, for sync and async views alike (an async view such as the
    board's event stream is not pushed onto a thread by this middleware)."""
    if iscoroutinefunction(get_response):

        async def middleware(request):
            started = time.perf_counter()
            response = await get_response(request)
            _log(request, response, started)
            return response

        return markcoroutinefunction(middleware)

    def middleware(request):
        started = time.perf_counter()
        response = get_response(request)
        _log(request, response, started)
        return response

    return middleware


request_log_middleware.sync_capable = True
request_log_middleware.async_capable = True
