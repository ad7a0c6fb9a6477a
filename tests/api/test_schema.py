"""The OpenAPI schema (drf-spectacular) builds without warnings and validates, and its docs page
works under our Content-Security-Policy: no CDN, no inline script."""

import json
import re

import pytest
from django.core.management import call_command
from django.urls import reverse


def test_schema_builds_validates_and_has_no_warnings(tmp_path):
    target = tmp_path / "schema.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(target))
    text = target.read_text()
    for path in ("/api/v1/campaigns/", "/api/v1/campaigns/{campaign_id}/armies/{army_id}/"):
        assert f"{path}:" in text


@pytest.mark.django_db
def test_schema_is_served_as_json_and_yaml(client):
    response = client.get(reverse("api:schema"), {"format": "json"})
    assert response.status_code == 200
    schema = json.loads(response.content)
    assert schema["openapi"].startswith("3.")
    operations = {(method, path) for path, item in schema["paths"].items() for method in item}
    assert ("post", "/api/v1/campaigns/{campaign_id}/armies/{army_id}/activities/") in operations
    assert ("get", "/api/v1/campaigns/{campaign_id}/armies/{army_id}/log/") in operations
    # Session for the browser, token for scripts.
    assert set(schema["components"]["securitySchemes"]) == {"cookieAuth", "tokenAuth"}
    # Lists are paginated and filtered.
    armies = schema["paths"]["/api/v1/campaigns/{campaign_id}/factions/{faction_id}/armies/"]
    names = {p["name"] for p in armies["get"]["parameters"]}
    assert {"page", "page_size", "status", "type"} <= names
    page = armies["get"]["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    page_schema = schema["components"]["schemas"][page.rsplit("/", 1)[1]]
    assert {"count", "next", "previous", "results"} <= set(page_schema["properties"])
    assert "429" in armies["post"]["responses"]

    yaml = client.get(reverse("api:schema"))
    assert yaml.status_code == 200
    assert yaml.content.startswith(b"openapi:")


@pytest.mark.django_db
def test_docs_page_loads_everything_from_our_own_static_files(client):
    response = client.get(reverse("api:docs"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "'unsafe-inline'" not in response["Content-Security-Policy"]
    assert "<style" not in html
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", html, re.S)
    assert len(scripts) == 3
    for attributes, body in scripts:
        assert body.strip() == ""
        src = re.search(r'src="([^"]+)"', attributes).group(1)
        assert src.startswith(("/static/", reverse("api:docs"))), src
        assert "//" not in src
    for href in re.findall(r'href="([^"]+)"', html):
        assert href.startswith("/static/"), href
    # The UI and its start-up script are served.
    bundle = re.search(r'src="(/static/[^"]+swagger-ui-bundle\.js)"', html).group(1)
    assert client.get(bundle).status_code == 200
    init = client.get(reverse("api:docs"), {"script": ""})
    assert init.status_code == 200
    assert init["Content-Type"].startswith("application/javascript")
    assert b"SwaggerUIBundle" in init.content
