"""The HTML report in a real headless Chromium: it renders, one mark per return, no errors,
nothing fetched, and transcript text cannot inject markup; the return dots sit on the curve,
the axes have round ticks and real labels, every token figure says where it comes from, and
what has nothing to say (spawnkit's enforcement for a user who never installed it) is left out."""

from __future__ import annotations

import json
import math
import re
import shutil
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


def _numbers(texts: list[str]) -> list[float]:
    """Axis labels (``0``, ``500``, ``2.5k``) as numbers."""
    return [float(t[:-1]) * 1000 if t.endswith("k") else float(t) for t in texts]


def _round_step(values: list[float]) -> bool:
    """Evenly spaced from 0 by 1, 2 or 5 times a power of ten."""
    if values[0] != 0 or len(values) < 2:
        return False
    step = values[1] - values[0]
    even = all(abs(b - a - step) < 1e-9 for a, b in zip(values, values[1:], strict=False))
    mantissa = step / 10 ** math.floor(math.log10(step))
    return even and any(abs(mantissa - m) < 1e-9 for m in (1, 2, 5))


def _mixed_sources(tmp_path: Path) -> Path:
    """Sessions whose returns come from all three sources: a Claude Code session alone in
    its gaps (usage), a fan-out (usage-shared), a Codex rollout without token counts
    (estimate), and a workflow run."""
    root = tmp_path / "sources"
    for name in ("claude/fanout-off", "claude/workflow-fanout", "codex/off"):
        copy_scenario(name, root)
    for rollout in root.rglob("rollout-*.jsonl"):
        lines = [
            line for line in rollout.read_text().splitlines() if '"type":"token_count"' not in line
        ]
        rollout.write_text("\n".join(lines) + "\n")
    return root


def test_return_dots_sit_on_the_curve_and_the_axes_are_round(browser, tmp_path):
    page_path, doc = _report(tmp_path, FIXTURES)
    page, seen = _open(browser, page_path)
    try:
        for session in (s for s in doc["sessions"] if s["returns"]):
            article = page.locator(f'article[data-session="{session["id"]}"]')
            chart = article.locator("svg.context-chart")
            coords = chart.locator("polyline.curve").get_attribute("points").split()
            curve = [tuple(map(float, c.split(","))) for c in coords]
            for mark in chart.locator(".return-mark").all():
                cx, cy = float(mark.get_attribute("cx")), float(mark.get_attribute("cy"))
                segments = zip(curve, curve[1:], strict=False)
                on = any(_on_segment((cx, cy), a, b) for a, b in segments) or (cx, cy) in curve
                assert on, (session["id"], cx, cy)
                box = mark.bounding_box()  # drawn where the attributes say, inside the chart
                outer = chart.bounding_box()
                assert outer["y"] < box["y"] + box["height"] / 2 < outer["y"] + outer["height"]
            for cls in ("context-chart", "returns-chart"):
                labels = article.locator(f"svg.{cls} text.tick").all_text_contents()
                assert _round_step(_numbers(labels)), (cls, labels)
            xticks = [int(t) for t in chart.locator("text.xtick").all_text_contents()]
            assert xticks[0] == 1 and xticks == sorted(xticks) and xticks[-1] <= len(curve)
            assert chart.locator("text.xlabel").text_content() == "model response"
            assert len(chart.locator("text.xtime").all()) == 2
    finally:
        page.close()
    assert seen["errors"] == [] and seen["requests"] == [page_path.as_uri()]


def _on_segment(p, a, b, tolerance: float = 0.2) -> bool:
    (px, py), (ax, ay), (bx, by) = p, a, b
    if not min(ax, bx) - tolerance <= px <= max(ax, bx) + tolerance:
        return False
    if bx == ax:
        return abs(px - ax) <= tolerance
    return abs(ay + (by - ay) * (px - ax) / (bx - ax) - py) <= tolerance


def test_every_token_figure_says_where_it_comes_from(browser, tmp_path):
    page_path, doc = _report(tmp_path, _mixed_sources(tmp_path))
    sources = {r["tokens_source"] for s in doc["sessions"] for r in s["returns"]}
    assert sources == {"usage-shared", "estimate"}
    page, seen = _open(browser, page_path)
    try:
        for session in (s for s in doc["sessions"] if s["returns"]):
            article = page.locator(f'article[data-session="{session["id"]}"]')
            expected = [r["tokens_source"] for r in session["returns"]]
            for selector in (".return-mark", ".return-bar", "table.returns td[data-source]"):
                got = [e.get_attribute("data-source") for e in article.locator(selector).all()]
                assert sorted(got) == sorted(expected), selector
            cells = article.locator("table.returns td[data-source]").all()
            for cell in cells:
                mark = {"usage": "", "usage-shared": "*", "estimate": "~"}
                text = cell.inner_text()
                assert text.rstrip("×0123456789 ").endswith(
                    mark[cell.get_attribute("data-source")] or text.rstrip("×0123456789 ")[-1]
                )
                assert cell.get_attribute("title")  # and why, on hover
            legend = article.locator("p.legend").all_inner_texts()
            used = set(expected) - {"usage"}
            assert bool(legend) == bool(used)
            assert ("~" in " ".join(legend)) == ("estimate" in used)
            bars = article.locator(".return-bar.estimated").count()
            assert bars == expected.count("estimate")
        (run,) = [w for s in doc["sessions"] for w in s["workflows"]]
        row = page.locator(f'table.workflows tr[data-run="{run["run_id"]}"]')
        assert row.locator("ul.agents li").count() == run["agent_count"] == 3
        footer = page.locator("footer").inner_text()
        assert "recorded" in footer and "estimate" in footer
        assert "unless the client recorded them" not in footer
    finally:
        page.close()
    assert seen["errors"] == [] and [c for c in seen["console"] if c[0] == "error"] == []


def test_what_has_nothing_to_say_is_left_out(browser, tmp_path):
    never = tmp_path / "never"
    copy_scenario("claude/fanout-off", never)  # a user who never installed spawnkit
    page_path, _ = _report(tmp_path, never)
    page, _seen = _open(browser, page_path)
    try:
        heads = page.locator("table.returns th").all_inner_texts()
        assert "held back" not in heads and "saved at" not in heads
        cards = page.locator(".card span").all_inner_texts()
        assert not any(re.search(r"blocked|kept on disk|refused", c) for c in cards)
        assert page.locator("table.workflows").count() == 0
    finally:
        page.close()
    enforced = tmp_path / "enforced"
    shutil.copytree(FIXTURES / "claude/fanout-enforce", enforced)
    page_path, _ = _report(tmp_path, enforced)
    page, _seen = _open(browser, page_path)
    try:
        heads = page.locator("table.returns th").all_inner_texts()
        assert "held back" in heads and "saved at" in heads
        cards = page.locator(".card span").all_inner_texts()
        assert "blocked by spawnkit" in cards and "tokens kept on disk instead" in cards
    finally:
        page.close()


def test_the_per_skill_section_reads_at_a_glance(browser, tmp_path):
    """``--by skill``: one bar per skill and one for the returns outside any skill, the longest
    first, each as long as its tokens, labelled inside the chart; a table row each with the
    same counters as the JSON; transcript text escaped; nothing fetched."""
    from .skill_transcripts import Claude

    root = copy_scenario("claude/skill", tmp_path)
    evil = '<img src=x onerror="alert(1)">'
    t = Claude(session="s-second").prompt("go").skill("second-skill")
    t.launch(evil)
    t.write(root / "projects")
    page_path = tmp_path / "skills.html"
    run_cli("audit", str(root), "--by", "skill", "--format", "html", "-o", str(page_path))
    doc = json.loads(run_cli("audit", str(root), "--by", "skill", "--format", "json").stdout)
    page, seen = _open(browser, page_path)
    try:
        assert page.locator("article[data-session]").count() == 0  # the skills, not sessions
        section = page.locator("section#skills")
        rows = [*doc["skills"], doc["unattributed"]]
        bars = section.locator(".skill-bar").all()
        assert len(bars) == len(rows) == section.locator("table.skills tbody tr").count()
        widths = [bar.bounding_box()["width"] for bar in bars]
        tokens = [row["tokens"] for row in rows]
        assert widths[:-1] == sorted(widths[:-1], reverse=True)  # the costliest first
        for width, count in zip(widths, tokens, strict=True):  # in proportion to the tokens
            assert abs(width / widths[0] - count / tokens[0]) < 0.02
        assert "outside" in bars[-1].get_attribute("class")
        chart = section.locator("svg.skills-chart").bounding_box()
        for label in section.locator("svg.skills-chart text").all():
            box = label.bounding_box()
            assert chart["x"] <= box["x"] and box["x"] + box["width"] <= chart["x"] + chart["width"]
        for row, tr in zip(rows, section.locator("table.skills tbody tr").all(), strict=True):
            cells = tr.locator("td").all_inner_texts()
            assert cells[2:5] == [
                f"{row['returns']:,}",
                f"{row['tokens']:,}",
                f"{row['max_tokens']:,}",
            ]
            assert tr.locator("details").count() == len(row["findings"])
        skill_row = section.locator('tr[data-skill="fan-two"]')
        assert "its file was not found" in skill_row.inner_text()
        section.locator('tr[data-skill="second-skill"] details[data-code="CM001"] summary').click()
        assert evil in section.locator('tr[data-skill="second-skill"]').inner_text()
        assert page.locator("main img").count() == 0 and page.locator("script").count() == 0
    finally:
        page.close()
    assert seen["dialogs"] == [] and seen["errors"] == []
    assert [c for c in seen["console"] if c[0] in ("error", "warning")] == []
    assert seen["requests"] == [page_path.as_uri()]
