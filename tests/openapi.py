"""Our OpenAPI schema loaded into schemathesis, for the tests that check the API's answers
against it (tests/api/test_battle_contract.py, tests/security/test_api_fuzz.py)."""

import copy
import json
from contextlib import contextmanager
from functools import cache

import schemathesis
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

#: Whatever the API answers: no 5xx, and a status code, content type, headers and body that
#: the schema documents for the operation.
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]


@cache
def raw_schema() -> dict:
    """Our OpenAPI schema as the app serves it, as JSON (built in-process: no request)."""
    from drf_spectacular.generators import SchemaGenerator
    from drf_spectacular.renderers import OpenApiJsonRenderer

    return json.loads(OpenApiJsonRenderer().render(SchemaGenerator().get_schema(public=True)))


def load_schema(*, coverage: bool = False):
    """Our OpenAPI schema in schemathesis, with the WSGI application to send the cases to."""
    from warfare.wsgi import application

    config = schemathesis.Config.from_dict({"phases": {"coverage": {"enabled": coverage}}})
    loaded = schemathesis.openapi.from_dict(copy.deepcopy(raw_schema()), config=config)
    loaded.app = application
    return loaded


@contextmanager
def the_test_connection_kept():
    """As Django's test client does: keep the test's database connection (and its transaction)
    open across the requests that go through the WSGI handler. (A Django test client used
    meanwhile would undo it.)"""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)
