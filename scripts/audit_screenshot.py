"""Render the README's picture of ``spawnkit audit --format html`` in headless Chromium.

    python scripts/audit_screenshot.py    # writes docs/audit-report.png and docs/audit-workflow.png

The report is made from the real-client fixtures (tests/fixtures/audit): the same six
sub-agents of a Claude Code 2.1.330 session without spawnkit and with ``--mode enforce``, a
background fan-out over the parallel cap, and a workflow run whose script returned its agents'
answers whole. Needs Playwright and Chromium, as the browser tests.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO / "src"), str(REPO)]

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.browser import INSTALL_HINT, find_chromium, launch  # noqa: E402

SCENARIOS = (
    "claude/fanout-off",
    "claude/fanout-enforce",
    "claude/mixed-off",
    "claude/workflow-fanout",
)
OUT = REPO / "docs" / "audit-report.png"
WORKFLOW_OUT = REPO / "docs" / "audit-workflow.png"


def main() -> None:
    executable = find_chromium()
    if executable is None:
        raise SystemExit(f"no Chromium found; {INSTALL_HINT}")
    with tempfile.TemporaryDirectory(prefix="spawnkit-shot-") as tmp:
        root = Path(tmp) / "transcripts"
        for name in SCENARIOS:
            shutil.copytree(
                REPO / "tests/fixtures/audit" / name,
                root / name.replace("/", "-"),
                ignore=shutil.ignore_patterns("facts.json"),
            )
        page_path = Path(tmp) / "report.html"
        subprocess.run(
            [
                sys.executable,
                "-m",
                "spawnkit",
                "audit",
                str(root),
                "--format",
                "html",
                "-o",
                str(page_path),
            ],
            check=False,
            cwd=REPO,
        )
        with sync_playwright() as playwright:
            browser = launch(playwright, executable)
            page = browser.new_page(viewport={"width": 1240, "height": 900}, device_scale_factor=1)
            page.goto(page_path.as_uri())
            second = page.locator("article[data-session]").nth(1).bounding_box()
            height = int(second["y"] + second["height"] + 8) if second else 1600
            OUT.parent.mkdir(exist_ok=True)
            page.screenshot(
                path=str(OUT),
                full_page=True,
                clip={"x": 0, "y": 0, "width": 1240, "height": height},
            )
            run = page.locator("article[data-session]").filter(has=page.locator("table.workflows"))
            run.first.screenshot(path=str(WORKFLOW_OUT))
            browser.close()
    print(f"wrote {OUT.relative_to(REPO)} and {WORKFLOW_OUT.relative_to(REPO)}")


if __name__ == "__main__":
    main()
