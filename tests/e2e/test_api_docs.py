"""The API docs page in a real browser: Swagger UI renders our schema under the site's
Content-Security-Policy, with no violation (a violation is a console error)."""

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_swagger_ui_renders_the_schema_without_csp_violations(live_server, new_page):
    page = new_page()
    violations = []
    page.on(
        "console",
        lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None,
    )
    page.goto(f"{live_server.url}/api/v1/docs/")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Warfare API")
    expect(page.locator("#operations-tag-armies")).to_be_visible()
    expect(
        page.get_by_text("/api/v1/campaigns/{campaign_id}/armies/{army_id}/").first
    ).to_be_visible()
    assert violations == []
    assert page.console_errors == []
