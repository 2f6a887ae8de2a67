"""Debian's chromium under Playwright, for every test that opens the phone page: the browser
(one per module) and a touch phone's page on which no script error may happen."""

from __future__ import annotations

import json
import urllib.request
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


AXE = Path(__file__).resolve().parents[1] / ".venv" / "npm" / "node_modules" / "axe-core" / \
    "axe.min.js"

# Tap targets smaller than 44 px: every control, a checkbox through its label; a link inside
# a sentence is exempt (WCAG's inline exception).
SMALL_TARGETS = """() => Array.from(document.querySelectorAll(
    'a[href], button, input:not([type=hidden]), select, summary, [role=button][tabindex="0"]'))
  .filter(e => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
  .map(e => (e.type === 'checkbox' || e.type === 'radio') && e.closest('label') ? e.closest('label') : e)
  .filter(e => !(e.tagName === 'A' && getComputedStyle(e).display === 'inline' && e.closest('p')))
  .map(e => { const b = e.getBoundingClientRect();
              return [e.tagName + ' ' + (e.textContent || e.value || '').trim().slice(0, 30),
                      Math.round(b.width), Math.round(b.height)]; })
  .filter(x => x[1] < 44 || x[2] < 44)"""

SERIOUS = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => v.id + ': ' + v.nodes.map(n => n.target.join(' ')).slice(0, 3).join(', '));
}"""


def check(page, url: str) -> None:
    page.goto(url)
    page.wait_for_load_state("networkidle")
    assert page.evaluate(SMALL_TARGETS) == [], (url, page.evaluate(SMALL_TARGETS))
    page.add_script_tag(path=str(AXE))
    assert page.evaluate(SERIOUS) == [], url


def state(url: str) -> dict:
    """The table's state JSON, as /api/state gives it."""
    with urllib.request.urlopen(url + "/api/state", timeout=5) as answer:
        return json.loads(answer.read())


def sign_in(phone, url: str, live: str | None = None) -> None:
    """The phone page signed in with the table's PIN (and its live line saying `live`)."""
    from playwright.sync_api import expect
    from simulated_table import PIN
    phone.goto(url + "/")
    phone.fill("#login input[name=pin]", PIN)
    phone.click("#login button")
    expect(phone.locator("#logout")).to_be_visible()
    if live is not None:
        expect(phone.locator("#live")).to_have_text(live)
