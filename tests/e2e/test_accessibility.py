"""Every public and organiser page passes axe-core with no "serious" or "critical" violation, in English and
in French, on demo-like data (``seed_demo``'s league and tournament plus a game in progress); and the
hand-entry form works with the keyboard alone.

axe-core is the npm package pinned by tests/e2e/node/package-lock.json (installed by scripts/test.sh);
its ``axe.min.js`` is injected into each page. The site's Content-Security-Policy allows no inline script,
so the browser context bypasses CSP for the injection only (the pages' own scripts are unchanged).

**A new page?** Add it to ``PAGES`` in tests/pages.py (the list tests/test_i18n.py walks too).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from tests.e2e.conftest import ARTIFACTS, login
from tests.pages import DEMO_PASSWORD, DEMO_USER, PAGES, build_demo

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).parent / "node" / "node_modules" / "axe-core" / "axe.min.js"
FAILING_IMPACTS = ("serious", "critical")
LANGUAGES = ("en", "fr")
# The tables' scroll shadows (static/css/tenbou.css, .table-wrap) are background gradients that start in
# the page's own colour, so the text over them has the page's contrast; axe cannot compute a contrast
# over a gradient and would skip every table cell ("needs review"). Without them it checks each one.
NO_SCROLL_SHADOWS = ".table-wrap { background-image: none !important; }"


def axe_violations(page) -> list[dict[str, Any]]:
    """axe-core's violations on the page as it is now."""
    page.add_style_tag(content=NO_SCROLL_SHADOWS)
    page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return result["violations"]


def describe(url: str, violations: list[dict[str, Any]]) -> list[str]:
    lines = []
    for v in violations:
        targets = [" ".join(map(str, node["target"])) for node in v["nodes"][:5]]
        lines.append(f"{url}: [{v['impact']}] {v['id']}: {v['help']} — {targets}")
    return lines


@pytest.fixture
def axe_context(browser, live_server):
    """A phone-sized context that lets the test inject axe (CSP bypassed for that), per language."""
    assert AXE.is_file(), f"{AXE} is missing: run scripts/test.sh (npm ci --prefix tests/e2e/node)"
    contexts = []

    def make(language: str):
        context = browser.new_context(
            viewport={"width": 390, "height": 844}, base_url=live_server.url, bypass_csp=True
        )
        host = re.sub(r"^https?://", "", live_server.url).split(":")[0]
        context.add_cookies([{"name": "django_language", "value": language, "domain": host, "path": "/"}])
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15_000)
        return page

    yield make
    for context in contexts:
        context.close()


@pytest.mark.parametrize("language", LANGUAGES)
def test_pages_have_no_serious_accessibility_violations(axe_context, live_server, language):
    demo = build_demo()
    page = axe_context(language)
    login(page, DEMO_USER, DEMO_PASSWORD)  # organiser pages; public pages look the same logged in
    anonymous = axe_context(language)
    failures: list[str] = []
    report: dict[str, list[str]] = {}
    for entry in PAGES:
        url = reverse(entry.name, args=entry.args(demo))
        visitor = page if entry.organiser else anonymous
        response = visitor.goto(url)
        assert response is not None and response.status == 200, f"{url}: {response and response.status}"
        assert visitor.url == f"{live_server.url}{url}", f"{url} led to {visitor.url}"
        assert visitor.get_attribute("html", "lang") == language, f"{url}: lang is not {language}"
        violations = axe_violations(visitor)
        failures += describe(url, [v for v in violations if v["impact"] in FAILING_IMPACTS])
        report[url] = describe(url, violations)
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"axe-{language}.json").write_text(json.dumps(report, indent=1, ensure_ascii=False))
    assert not failures, "\n".join(failures)


def test_hand_entry_with_the_keyboard_alone(axe_context):
    """Tab to each control, pick with the arrow keys and Space, submit with Enter: the hand is saved and
    the preview and the form with its errors pass axe too."""
    demo = build_demo()
    page = axe_context("en")
    login(page, DEMO_USER, DEMO_PASSWORD)
    page.goto(reverse("scoring_manage:game", args=[demo.live_game.pk]))
    hands_before = demo.live_game.hands.count()

    def tab_to(selector: str, limit: int = 300) -> None:
        """Press Tab until an element matching ``selector`` has the focus (never clicks)."""
        for _ in range(limit):
            if page.evaluate("s => !!document.activeElement && document.activeElement.matches(s)", selector):
                return
            page.keyboard.press("Tab")
        raise AssertionError(f"Tab never reached {selector}")

    # An empty form sent with Enter: the errors name the fields and the form is still usable.
    tab_to("#hand-form input[name=result]")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.locator("#hand-form .errorlist, #hand-form .form-errors").count() > 0
    failures = describe("hand form with errors", axe_violations(page))
    assert not [f for f in failures if any(f"[{i}]" in f for i in FAILING_IMPACTS)], "\n".join(failures)

    # Ron: winner South (seat 1), loser West (seat 2), 2 han 30 fu — chosen with arrows and Space.
    choose_radio(page, tab_to, "result", "ron")
    choose_radio(page, tab_to, "winner", "1")
    choose_radio(page, tab_to, "loser", "2")
    tab_to("#hand-form select[name=han]")
    select_with_keys(page, "#hand-form select[name=han]", "2")
    tab_to("#hand-form select[name=fu]")
    select_with_keys(page, "#hand-form select[name=fu]", "30")
    page.wait_for_selector("#preview table")
    failures = describe("hand form with its preview", axe_violations(page))
    assert not [f for f in failures if any(f"[{i}]" in f for i in FAILING_IMPACTS)], "\n".join(failures)

    tab_to("#hand-form button[type=submit]")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.locator("#hand-form .errorlist").count() == 0, page.locator(".errorlist").all_inner_texts()
    assert demo.live_game.hands.count() == hands_before + 1
    page.screenshot(path=str(ARTIFACTS / "keyboard-hand-entry.png"), full_page=True)


def choose_radio(page, tab_to, name: str, value: str) -> None:
    """Focus the radio group ``name`` with Tab, then move with the arrow keys until ``value`` is checked
    (arrows check the radio they move to, as in every browser)."""
    group = page.locator(f"#hand-form input[name={name}]")
    tab_to(f"#hand-form input[name={name}]")
    for _ in range(group.count() + 1):
        if page.locator(f"#hand-form input[name={name}][value='{value}']").is_checked():
            return
        focused_checked = page.evaluate("() => document.activeElement.checked")
        page.keyboard.press("ArrowRight" if focused_checked else "Space")
    assert page.locator(f"#hand-form input[name={name}][value='{value}']").is_checked(), name


def select_with_keys(page, selector: str, value: str) -> None:
    """Pick ``value`` in the focused select with the arrow keys (a closed select changes on each arrow)."""
    select = page.locator(selector)
    options = select.locator("option").evaluate_all("os => os.map(o => o.value)")
    target = options.index(value)
    for _ in range(len(options)):
        current = options.index(select.input_value())
        if current == target:
            return
        page.keyboard.press("ArrowDown" if current < target else "ArrowUp")
    assert select.input_value() == value


@pytest.mark.urls("tests.error_urls")
@pytest.mark.parametrize("language", LANGUAGES)
def test_error_pages_have_no_serious_accessibility_violations(axe_context, language):
    """The 404 page (the site's layout) and the 500 page (its own, request-free layout), as a visitor
    meets them: in their language, with no serious or critical violation."""
    page = axe_context(language)
    failures: list[str] = []
    for url, status in (("/no-such-page/", 404), ("/test-errors/fails/", 500)):
        response = page.goto(url)
        assert response is not None and response.status == status, f"{url}: {response and response.status}"
        assert page.get_attribute("html", "lang") == language
        assert page.locator("#error-home").is_visible()
        failures += describe(url, [v for v in axe_violations(page) if v["impact"] in FAILING_IMPACTS])
    assert not failures, "\n".join(failures)
