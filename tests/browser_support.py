"""Debian's chromium under Playwright, for every test that opens the phone page: the browser
(one per module) and a touch phone's page on which no script error may happen."""

from __future__ import annotations

from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"
WAIT_MS = 10_000


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield browser
        browser.close()


def phone_page(browser, viewport: dict, *, init_script: str | None = None, **options):
    """A touch phone's page (yield it); no script error may happen on it."""
    context = browser.new_context(viewport=viewport, device_scale_factor=2, has_touch=True,
                                  **options)
    context.set_default_timeout(WAIT_MS)
    if init_script:
        context.add_init_script(init_script)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    yield page
    context.close()
    assert errors == [], errors
