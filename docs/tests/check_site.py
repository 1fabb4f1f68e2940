#!/usr/bin/env python3
"""Opens the generated course site in headless Chromium and checks that it teaches what it should.

For the main page, every concept page (docs/pages/**/*.md) and every lab (each labs/NN-name/ folder
must have a page labNN.html, made from its README.md):
  - the page exists and renders: Chromium's DOM has the page title and the expected headings
    (a lab page: Goal, Background, What you write, Check your work, How it is graded,
    When a check fails, Further reading, in that order);
  - every internal link (href to a local .html file, with or without #anchor) resolves to an
    existing file, and the anchor exists in that file; every local image or diagram exists.
Any problem fails the check with a list of what is wrong. No Chromium is a failure too, never a pass.

  check_site.py --site build/docs/html --labs labs --pages docs/pages [--chromium /usr/bin/chromium]
"""
import argparse
import html.parser
import os
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.parse

LAB_SECTIONS = ["Goal", "Background", "What you write", "Check your work", "How it is graded",
                "When a check fails", "Further reading"]
MAIN_SECTIONS = ["Getting started", "How the labs are graded", "The labs", "The concepts",
                 "Building this site"]


class Dom(html.parser.HTMLParser):
    """What the checks need from one page: title, headings, links, images, and the ids it defines."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.headings, self.links, self.images, self.ids = [], [], [], set()
        self.title = ""
        self._heading = None   # text of the heading being read
        self._title_depth = 0  # > 0 inside <div class="title">
        self._div_depth = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for key in ("id", "name"):
            if a.get(key):
                self.ids.add(a[key])
        if tag == "div":
            self._div_depth += 1
            if "title" in (a.get("class") or "").split() and not self._title_depth:
                self._title_depth = self._div_depth
        if re.fullmatch(r"h[1-6]", tag):
            self._heading = ""
        if tag == "a" and a.get("href"):
            self.links.append(a["href"])
        if tag == "img" and a.get("src"):
            self.images.append(a["src"])
        if tag == "iframe" and a.get("src"):  # Doxygen's inline dot graphs (SVG)
            self.images.append(a["src"])
        if tag == "object" and a.get("data"):
            self.images.append(a["data"])

    def handle_endtag(self, tag):
        if tag == "div":
            if self._title_depth == self._div_depth:
                self._title_depth = 0
            self._div_depth -= 1
        if re.fullmatch(r"h[1-6]", tag) and self._heading is not None:
            self.headings.append(" ".join(self._heading.split()))
            self._heading = None

    def handle_data(self, data):
        if self._heading is not None:
            self._heading += data
        if self._title_depth:
            self.title = " ".join((self.title + " " + data).split())


def parse(text):
    dom = Dom()
    dom.feed(text)
    dom.close()
    return dom


class Browser:
    def __init__(self, exe):
        self.exe = exe
        self.profile = tempfile.mkdtemp(prefix="course-site-check-")

    def render(self, path):
        """The DOM after Chromium loaded the page and ran its scripts."""
        cmd = [self.exe, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
               "--user-data-dir=" + self.profile, "--virtual-time-budget=3000", "--dump-dom",
               "file://" + urllib.parse.quote(os.path.abspath(path))]
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
        if r.returncode != 0 or "<html" not in r.stdout.decode("utf-8", "replace"):
            raise RuntimeError(f"Chromium could not render {path} (exit {r.returncode}): "
                               + r.stderr.decode("utf-8", "replace")[-800:])
        return r.stdout.decode("utf-8", "replace")

    def close(self):
        shutil.rmtree(self.profile, ignore_errors=True)


def find_chromium(given):
    for name in ([given] if given else []) + ["chromium", "chromium-browser", "google-chrome-stable",
                                               "google-chrome"]:
        exe = shutil.which(name) if not os.path.isabs(name) else (name if os.access(name, os.X_OK) else None)
        if exe:
            return exe
    return None


def markdown_pages(pages_dir):
    """(page file name, title) for every Markdown page of the site: `# Title {#anchor}` on line 1."""
    out = []
    for root, _, files in os.walk(pages_dir):
        for f in sorted(files):
            if not f.endswith(".md"):
                continue
            with open(os.path.join(root, f), encoding="utf-8") as fh:
                first = fh.readline().strip()
            m = re.fullmatch(r"#\s+(.*?)\s*\{#([A-Za-z0-9_]+)\}", first)
            if not m:
                out.append((None, os.path.join(root, f)))
                continue
            name = "index.html" if m.group(2) in ("mainpage", "index") else m.group(2) + ".html"
            out.append((name, m.group(1)))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--site", required=True, help="the generated html folder")
    ap.add_argument("--labs", required=True, help="the repository's labs/ folder")
    ap.add_argument("--pages", required=True, help="the site's Markdown pages (docs/pages)")
    ap.add_argument("--chromium", help="the Chromium executable (default: found on PATH)")
    args = ap.parse_args()

    errors = []
    exe = find_chromium(args.chromium)
    if not exe:
        print("check_site: FAILED: Chromium was not found (looked for --chromium, chromium, chromium-browser, "
              "google-chrome). Install it (Debian: apt-get install chromium); this check never passes without it.",
              file=sys.stderr)
        return 1
    if not os.path.isfile(os.path.join(args.site, "index.html")):
        print(f"check_site: FAILED: no {args.site}/index.html; build the site first (make docs)", file=sys.stderr)
        return 1

    # What must be there: (file, expected title fragment, expected headings in order).
    expected = []
    for name, title in markdown_pages(args.pages):
        if name is None:
            errors.append(f"{title}: the first line must be `# Title {{#anchor}}`")
        elif name == "index.html":
            expected.append((name, None, MAIN_SECTIONS))
        else:
            expected.append((name, title, []))
    labs = sorted(d for d in os.listdir(args.labs)
                  if re.fullmatch(r"\d\d-.+", d) and os.path.isdir(os.path.join(args.labs, d)))
    if not labs:
        errors.append(f"no lab folders (NN-name) in {args.labs}")
    for d in labs:
        expected.append((f"lab{d[:2]}.html", f"Lab {d[:2]}", LAB_SECTIONS))

    browser = Browser(exe)
    target_ids = {}  # file -> ids it defines (static HTML: anchors are in the generated files)

    def ids_of(path):
        if path not in target_ids:
            with open(path, encoding="utf-8", errors="replace") as fh:
                target_ids[path] = parse(fh.read()).ids
        return target_ids[path]

    try:
        for name, title, sections in expected:
            path = os.path.join(args.site, name)
            if not os.path.isfile(path):
                errors.append(f"{name}: missing (is the page's anchor right, and is it in Doxygen's INPUT?)")
                continue
            dom = parse(browser.render(path))
            where = name
            if title and title not in dom.title:
                errors.append(f"{where}: page title is {dom.title!r}, expected it to contain {title!r}")
            if not dom.title:
                errors.append(f"{where}: rendered without a page title")
            pos = 0
            for s in sections:
                found = next((i for i in range(pos, len(dom.headings)) if dom.headings[i] == s), None)
                if found is None:
                    errors.append(f"{where}: no heading {s!r} (in this order: {sections}); "
                                  f"headings found: {dom.headings}")
                    break
                pos = found + 1
            links = 0
            for href in dom.links + dom.images:
                u = urllib.parse.urlsplit(href)
                if u.scheme in ("http", "https", "mailto", "javascript") or u.netloc:
                    continue
                if u.scheme == "file":
                    target = urllib.parse.unquote(u.path)
                elif not u.path:
                    target = path  # "#anchor" on the same page
                else:
                    target = os.path.normpath(os.path.join(os.path.dirname(path), urllib.parse.unquote(u.path)))
                if not os.path.isfile(target):
                    errors.append(f"{where}: link {href!r} points to a missing file")
                    continue
                links += 1
                if u.fragment and target.endswith(".html") and u.fragment not in ids_of(target):
                    errors.append(f"{where}: link {href!r}: no anchor {u.fragment!r} in {os.path.basename(target)}")
            print(f"checked {name}: title {dom.title!r}, {len(dom.headings)} headings, {links} local links/images")
    finally:
        browser.close()

    if errors:
        print(f"\ncheck_site: FAILED with {len(errors)} problem(s):", file=sys.stderr)
        for e in errors:
            print("  - " + e, file=sys.stderr)
        return 1
    print(f"check_site: OK: {len(expected)} pages render with their headings and every internal link resolves")
    return 0


if __name__ == "__main__":
    sys.exit(main())
