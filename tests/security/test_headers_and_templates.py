"""Security headers on every kind of response, and templates that a strict CSP can serve:
no inline script, no inline event handler, no inline style, no javascript: URL."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

TEMPLATES = Path(settings.BASE_DIR) / "templates"


def _pages(world, militia):
    return [
        reverse("login"),
        reverse("kingdoms:campaign-detail", args=[world.pk]),
        reverse("pf2e:army-detail", args=[world.pk, militia.pk]),
        reverse("profile"),
        reverse("api:campaign-list"),
        reverse("api:docs"),
        reverse("api:schema"),
        "/no-such-page/",
        "/api/v1/no-such-endpoint/",
    ]


def _directives(header: str) -> dict[str, list[str]]:
    return {part.split()[0]: part.split()[1:] for part in header.split(";") if part.strip()}


@pytest.mark.django_db
def test_every_response_carries_the_security_headers(client, world, gm, militia):
    client.force_login(gm)
    for url in _pages(world, militia):
        response = client.get(url)
        assert response.status_code in (200, 404), url
        csp = _directives(response["Content-Security-Policy"])
        assert csp["script-src"] == ["'self'"], url
        assert csp["style-src"] == ["'self'"], url
        assert csp["default-src"] == ["'self'"], url
        assert csp["object-src"] == ["'none'"], url
        assert csp["frame-ancestors"] == ["'none'"], url
        assert "'unsafe-inline'" not in response["Content-Security-Policy"], url
        assert "'unsafe-eval'" not in response["Content-Security-Policy"], url
        assert response["X-Frame-Options"] == "DENY", url
        assert response["X-Content-Type-Options"] == "nosniff", url
        assert response["Referrer-Policy"] == "same-origin", url


@pytest.mark.django_db
def test_unknown_api_urls_answer_in_json(client, gm):
    client.force_login(gm)
    response = client.get("/api/v1/campaigns/abc/")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"detail": "Not found."}
    html = client.get("/campaigns/abc/")
    assert html.status_code == 404
    assert html["Content-Type"].startswith("text/html")


SCRIPT = re.compile(r"<script\b([^>]*)>(.*?)</script\s*>", re.I | re.S)
TAG = re.compile(r"<[a-z][^>]*>", re.I | re.S)
HANDLER = re.compile(r"\s(on[a-z]+|hx-on[:\w-]*)\s*=", re.I)
STYLE_ATTRIBUTE = re.compile(r"\sstyle\s*=", re.I)


def _templates():
    files = sorted(TEMPLATES.rglob("*.html"))
    assert len(files) > 20
    return files


@pytest.mark.parametrize("path", _templates(), ids=lambda p: str(p.relative_to(TEMPLATES)))
def test_template_has_no_inline_script_handler_or_style(path):
    text = path.read_text(encoding="utf-8")
    for attributes, body in SCRIPT.findall(text):
        assert body.strip() == "", f"inline <script> in {path.name}"
        assert "src=" in attributes, f"<script> without src in {path.name}"
    for tag in TAG.findall(text):
        assert not HANDLER.search(tag), f"inline event handler in {path.name}: {tag}"
        assert not STYLE_ATTRIBUTE.search(tag), f"style attribute in {path.name}: {tag}"
    assert "<style" not in text.lower(), f"<style> in {path.name}"
    assert "javascript:" not in text.lower(), f"javascript: URL in {path.name}"
