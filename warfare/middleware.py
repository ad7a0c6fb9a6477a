"""How pages and the API answer when the database is the problem, in one place.

* Two writes that the database could not serialise, even after `write_transaction` retried
  once (`kingdoms.transactions.Contention`, or a deadlock outside such a service): **409**,
  nothing saved, try again — `{"errors": [...]}` under /api/, a short page (or, for htmx, a
  reload that shows the current state and the message).
* The database unreachable (down, restarting, no connection within the pool's timeout):
  **503** with `Retry-After` — `{"detail": ...}` under /api/, a short translated page that
  reads nothing from the database. The connection pool reconnects by itself when the
  database is back.
"""

import logging

from django.contrib import messages
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from kingdoms.transactions import Contention, is_contention

from .api.errors import API_PREFIX

logger = logging.getLogger(__name__)

#: Seconds a client should wait before trying again after a 503.
RETRY_AFTER = 5


def _contention(request: HttpRequest) -> HttpResponse:
    message = _(
        "Someone else saved at the same moment and this change could not be saved. "
        "Nothing was changed: look again and retry."
    )
    if request.path.startswith(API_PREFIX):
        return JsonResponse({"errors": [message]}, status=409)
    if getattr(request, "htmx", False):
        messages.error(request, message)
        return HttpResponse(status=409, headers={"HX-Refresh": "true"})
    return render(request, "409.html", {"message": message}, status=409)


def _unavailable(request: HttpRequest) -> HttpResponse:
    headers = {"Retry-After": str(RETRY_AFTER)}
    if request.path.startswith(API_PREFIX):
        detail = _("The database is unavailable. Try again in a few seconds.")
        return JsonResponse({"detail": detail}, status=503, headers=headers)
    # No request context: its processors would read the session and the user from the
    # database that is down.
    return HttpResponse(render_to_string("503.html"), status=503, headers=headers)


class DatabaseTroubleMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception):
        if isinstance(exception, Contention) or (
            isinstance(exception, OperationalError) and is_contention(exception)
        ):
            logger.warning("Write not serialised: %s", exception)
            return _contention(request)
        if isinstance(exception, OperationalError | InterfaceError):
            logger.error("Database unavailable: %s", exception, exc_info=exception)
            return _unavailable(request)
        return None
