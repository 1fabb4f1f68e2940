#!/usr/bin/env python3
"""Opens grading reports (report.html) in headless Chromium and checks that what a student must see is
drawn: the table, each failure with its class, and the plots (a speed measurement's three bars and its thresholds,
Lab 06's measured curve over the model). Screenshots of each page are kept for a person to look at.

  report_browser_test.py --pass PAGE --fail PAGE --shots DIR [--chromium PATH]

No Chromium is a failure, never a pass.
"""
import argparse
import html.parser
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "tests"))
from check_site import find_chromium  # noqa: E402  (the course site's browser check finds Chromium the same way)


class Dom(html.parser.HTMLParser):
    """Counts of what the checks look for in the DOM Chromium gives back."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags = {}       # (tag, first class) -> count
        self.text = []
        self._in_class = None

    def handle_starttag(self, tag, attrs):
        cls = (dict(attrs).get("class") or "").split()
        key = (tag, cls[0] if cls else "")
        self.tags[key] = self.tags.get(key, 0) + 1
        if tag == "p" and "class" in cls:
            self._in_class = ""

    def handle_endtag(self, tag):
        if tag == "p" and self._in_class is not None:
            self.text.append(self._in_class)
            self._in_class = None

    def handle_data(self, data):
        if self._in_class is not None:
            self._in_class += data

    def count(self, tag, cls=""):
        return self.tags.get((tag, cls), 0)


def chromium(exe, profile, *args):
    cmd = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
           "--user-data-dir=" + profile, *args]
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)


def check_page(exe, profile, page, shots, expect_failures):
    problems = []
    url = "file://" + urllib.parse.quote(os.path.abspath(page))
    r = chromium(exe, profile, "--dump-dom", url)
    text = r.stdout.decode("utf-8", "replace")
    if r.returncode != 0 or "<html" not in text:
        return [f"{page}: Chromium could not render it (exit {r.returncode}): "
                + r.stderr.decode("utf-8", "replace")[-500:]]
    dom = Dom()
    dom.feed(text)
    if dom.count("script"):
        problems.append(f"{page}: has a script; the report must read without JavaScript")
    if not dom.count("table", "checks"):
        problems.append(f"{page}: no table of checks")
    charts, bars, thresholds = dom.count("svg", "speed"), dom.count("rect", "bar"), dom.count("line", "threshold")
    if charts == 0 or bars != 3 * charts or thresholds < charts:
        problems.append(f"{page}: {charts} speed chart(s) with {bars} bars and {thresholds} threshold line(s); "
                        "each chart needs three bars (naive, peer, yours) and a threshold at least")
    if expect_failures:
        if not dom.count("div", "failure"):
            problems.append(f"{page}: a failing grading shows no failure")
        if not any(t.strip() for t in dom.text):
            problems.append(f"{page}: its failures name no class")
    else:
        if dom.count("div", "failure"):
            problems.append(f"{page}: a passing grading shows a failure")
        curves, points = dom.count("svg", "curve"), dom.count("circle", "point")
        if curves != 2 or points < 2 * 32 or dom.count("path", "model") != 2 or dom.count("path", "measured") != 2:
            problems.append(f"{page}: Lab 06's curve: {curves} plot(s), {points} measured point(s); "
                            "expected both word sizes, each with its measured line over the model's")
    shot = os.path.join(shots, os.path.splitext(os.path.basename(page))[0] + ".png")
    r = chromium(exe, profile, "--window-size=1100,2400", "--screenshot=" + shot, url)
    if r.returncode != 0 or not os.path.exists(shot) or os.path.getsize(shot) < 20000:
        problems.append(f"{page}: no screenshot, or an empty one ({shot})")
    else:
        print(f"{page}: screenshot {shot}")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pass", dest="passing", required=True, help="a report of a passing grading")
    ap.add_argument("--fail", dest="failing", required=True, help="a report of a failing grading")
    ap.add_argument("--shots", required=True, help="folder for the screenshots")
    ap.add_argument("--chromium")
    a = ap.parse_args()
    exe = find_chromium(a.chromium)
    if not exe:
        print("report_browser_test: Chromium not found (install it: .ci/install-deps)", file=sys.stderr)
        return 1
    os.makedirs(a.shots, exist_ok=True)
    profile = tempfile.mkdtemp(prefix="course-report-check-")
    try:
        problems = check_page(exe, profile, a.passing, a.shots, False) + check_page(exe, profile, a.failing, a.shots, True)
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    for p in problems:
        print("FAIL:", p)
    print("report pages: " + ("all drawn" if not problems else f"{len(problems)} problem(s)"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
