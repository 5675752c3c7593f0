"""The HTML report in a real headless Chromium: it renders, one mark per return, no errors,
nothing fetched, and transcript text cannot inject markup."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from tests.browser import INSTALL_HINT, find_chromium, launch
from tests.requires import unavailable

from .conftest import FIXTURES, copy_scenario, run_cli


@pytest.fixture(scope="module")
def browser():
    executable = find_chromium()
    if executable is None:
        unavailable(f"no Chromium found; {INSTALL_HINT}")
    with sync_playwright() as playwright:
        browser = launch(playwright, executable)
        yield browser
        browser.close()


def _open(browser, page_path: Path):
    """Load the page; collect console errors, page errors, requests and dialogs."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    seen = {"console": [], "errors": [], "requests": [], "dialogs": []}
    page.on("console", lambda m: seen["console"].append((m.type, m.text)))
    page.on("pageerror", lambda e: seen["errors"].append(str(e)))
    page.on("request", lambda r: seen["requests"].append(r.url))
    page.on("dialog", lambda d: (seen["dialogs"].append(d.message), d.dismiss()))
    page.goto(page_path.as_uri())
    page.wait_for_load_state("load")
    return page, seen


def _report(tmp_path: Path, root: Path) -> tuple[Path, dict]:
    page_path = tmp_path / "report.html"
    run_cli("audit", str(root), "--format", "html", "-o", str(page_path))
    doc = json.loads(run_cli("audit", str(root), "--format", "json").stdout)
    return page_path, doc


def test_the_report_renders_one_mark_and_one_bar_per_return(browser, tmp_path):
    page_path, doc = _report(tmp_path, FIXTURES)
    page, seen = _open(browser, page_path)
    try:
        sessions = [s for s in doc["sessions"] if s["returns"]]
        articles = page.locator("article[data-session]")
        assert articles.count() == len(sessions)
        for session in sessions:
            article = page.locator(f'article[data-session="{session["id"]}"]')
            n = len(session["returns"])
            assert article.locator(".context-chart .return-mark").count() == n
            assert article.locator(".returns-chart .return-bar").count() == n
            assert article.locator(".returns-chart .budget-line").count() == 1
            blocked = sum(r["blocked"] for r in session["returns"])
            assert article.locator(".held-back").count() == blocked
            assert article.locator("table.findings tbody tr").count() == len(session["findings"])
            assert article.locator(".context-chart .point").count() == len(session["context"])
            # drawn: every mark has a size and lies inside its chart
            chart = article.locator("svg.context-chart").bounding_box()
            assert chart and chart["width"] > 300 and chart["height"] > 150
            for mark in article.locator(".return-mark").all():
                box = mark.bounding_box()
                assert box and box["width"] > 0
                assert chart["x"] <= box["x"] <= chart["x"] + chart["width"]
                assert chart["y"] <= box["y"] <= chart["y"] + chart["height"]
            # an over-budget bar is taller than the budget line is high
            for bar, ret in zip(
                article.locator(".return-bar").all(), session["returns"], strict=True
            ):
                assert ("over" in bar.get_attribute("class")) == (
                    ret["over_budget"] and not ret["blocked"]
                )
        assert page.locator(".card").count() >= 5
    finally:
        page.close()
    assert [c for c in seen["console"] if c[0] in ("error", "warning")] == []
    assert seen["errors"] == []
    assert seen["requests"] == [page_path.as_uri()]  # the page itself, nothing else


def test_transcript_text_cannot_inject_markup(browser, tmp_path):
    root = copy_scenario("claude/fanout-off", tmp_path)
    evil = '<img src=x onerror="alert(1)"><script>alert(2)</script>'
    for path in root.rglob("*.jsonl"):
        path.write_text(path.read_text().replace("audit part 1", evil.replace('"', '\\"')))
    page_path, doc = _report(tmp_path, root)
    assert any(r["description"] == evil for s in doc["sessions"] for r in s["returns"])
    page, seen = _open(browser, page_path)
    try:
        assert page.locator("script").count() == 0
        assert page.locator("main img").count() == 0
        assert evil in page.locator("table.returns").first.inner_text()
    finally:
        page.close()
    assert seen["dialogs"] == [] and seen["errors"] == []
    assert seen["requests"] == [page_path.as_uri()]


def test_an_empty_audit_still_renders(browser, tmp_path):
    page_path, doc = _report(tmp_path, tmp_path)
    assert doc["sessions"] == []
    page, seen = _open(browser, page_path)
    try:
        assert page.locator("h1").inner_text().startswith("What sub-agent returns cost")
        assert page.locator(".return-mark").count() == 0
    finally:
        page.close()
    assert seen["errors"] == [] and [c for c in seen["console"] if c[0] == "error"] == []
