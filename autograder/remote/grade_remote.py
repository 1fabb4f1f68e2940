#!/usr/bin/env python3
"""grade --remote: grade your labs on the course's GPUs, from a machine with no GPU and no CUDA Toolkit.

Uploads the .cu file of each of your labs (labs/NN-name/*.cu) to the course's grading service, shows
where it stands (its place in the queue, then building, then grading), and prints the table, failures
and hints the grader gave, as `grade` does on a machine with a GPU. Needs only Python 3's standard
library; this file runs on its own, copied anywhere.

    python3 grade_remote.py --remote https://gpu.example.edu --token-file ~/.course-token [--lab 01] [--labs-dir labs]

Exit status, as grade's: 0 every check passed (without a GPU on the service's side: every lab compiled);
1 some check failed; 2 a bad command line, or the service refused the upload (the message says why);
77 nothing was graded (the service could not be reached, or could not grade it).
"""
import argparse
import ipaddress
import json
import os
import re
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

EXIT_PASS, EXIT_FAIL, EXIT_USAGE, EXIT_NOT_GRADED = 0, 1, 2, 77
LAB_DIR = re.compile(r"^(\d\d)-[A-Za-z0-9-]+$")


def lab_files(labs_dir, wanted):
    """The .cu file of each lab folder NN-name/ of labs_dir (only the labs in wanted, when given)."""
    found = {}
    for entry in sorted(os.listdir(labs_dir)):
        m = LAB_DIR.match(entry)
        folder = os.path.join(labs_dir, entry)
        if not m or not os.path.isdir(folder) or (wanted and m.group(1) not in wanted):
            continue
        sources = sorted(f for f in os.listdir(folder) if f.endswith(".cu") and os.path.isfile(os.path.join(folder, f)))
        if sources:
            found[m.group(1)] = [os.path.join(folder, f) for f in sources]
    return found


def is_loopback(host):
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class Service:
    """The grading service at url, as the holder of token."""

    def __init__(self, url, token, timeout):
        self.url = url.rstrip("/")
        self.token = token
        self.timeout = timeout

    def call(self, method, path, body=None):
        """(status, parsed JSON answer); the token goes in a header, never in the URL."""
        data = None if body is None else json.dumps(body).encode("utf-8")
        req = urllib.request.Request(self.url + path, data=data, method=method)
        req.add_header("Authorization", "Bearer " + self.token)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as res:
                return res.status, json.loads(res.read().decode("utf-8"))
        except urllib.error.HTTPError as e:
            text = e.read().decode("utf-8", "replace")
            try:
                return e.code, json.loads(text)
            except ValueError:
                return e.code, {"error": text.strip() or e.reason}


def main():
    p = argparse.ArgumentParser(
        prog="grade --remote",
        description="Grade your labs on the course's grading service (no GPU or CUDA Toolkit needed here).")
    p.add_argument("--remote", metavar="URL", required=True, help="the service's address, e.g. https://gpu.example.edu")
    p.add_argument("--token-file", metavar="FILE", required=True, help="the file holding your token (from your instructor)")
    p.add_argument("--lab", action="append", default=[], metavar="NN", help="grade only this lab (repeat for more)")
    p.add_argument("--labs-dir", metavar="DIR", default=None, help="your labs folder (default: ./labs, else .)")
    p.add_argument("--poll", type=float, default=2.0, metavar="S", help="seconds between progress checks (default 2)")
    p.add_argument("--wait", type=float, default=3600.0, metavar="S", help="give up waiting after this long (default 3600)")
    p.add_argument("--allow-http", action="store_true", help="send the token over plain HTTP to a host other than this one")
    a = p.parse_args()

    def usage(message):
        print("grade --remote: " + message, file=sys.stderr)
        return EXIT_USAGE

    url = urllib.parse.urlparse(a.remote)
    if url.scheme not in ("http", "https") or not url.hostname:
        return usage("--remote needs an http:// or https:// address, not " + a.remote)
    if url.scheme == "http" and not is_loopback(url.hostname) and not a.allow_http:
        return usage("plain http:// to " + url.hostname + " would send your token in clear; use the https:// address")
    try:
        with open(a.token_file, encoding="utf-8") as f:
            token = f.read().strip()
    except OSError as e:
        return usage("cannot read --token-file: " + str(e))
    if not token:
        return usage("the token file " + a.token_file + " is empty")
    wanted = set()
    for lab in a.lab:
        if not re.fullmatch(r"\d{1,2}", lab):
            return usage("--lab takes a lab number such as 01, not " + lab)
        wanted.add(lab.zfill(2))
    labs_dir = a.labs_dir or ("labs" if os.path.isdir("labs") else ".")
    if not os.path.isdir(labs_dir):
        return usage("--labs-dir " + labs_dir + " is not a folder")
    labs = lab_files(labs_dir, wanted)
    if wanted - set(labs):
        return usage("no lab folder for " + ", ".join(sorted(wanted - set(labs))) + " in " + labs_dir)
    if not labs:
        return usage("no lab folders (NN-name/ with a .cu file) in " + labs_dir)
    files = []
    for lab in sorted(labs):
        for path in labs[lab]:
            with open(path, "rb") as f:
                raw = f.read()
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as e:
                return usage(path + " is not UTF-8 text (" + str(e) + ")")
            files.append({"name": os.path.basename(path), "content": text})

    service = Service(a.remote, token, timeout=60)
    try:
        status, answer = service.call("POST", "/api/submissions", {"files": files})
    except (OSError, urllib.error.URLError) as e:
        print("grade --remote: cannot reach " + a.remote + ": " + str(e), file=sys.stderr)
        return EXIT_NOT_GRADED
    if status not in (200, 202):
        return usage("the service refused the upload (HTTP " + str(status) + "): " + answer.get("error", ""))
    sub = answer["id"]
    print("submitted lab(s) " + ", ".join(sorted(labs)) + " as submission " + str(sub) +
          (" (already submitted: the same files)" if answer.get("duplicate") else ""), flush=True)

    said, deadline = None, time.monotonic() + a.wait
    while True:
        try:
            status, view = service.call("GET", "/api/submissions/" + str(sub))
        except (OSError, urllib.error.URLError) as e:
            status, view = 0, {"error": str(e)}
        if status == 200:
            state = view["state"]
            progress = "queued, position " + str(view.get("position")) if state == "queued" else state
            if progress != said and state not in ("done", "not_graded", "replaced"):
                print(progress + "...", flush=True)
                said = progress
            if state == "done":
                sys.stdout.write(view.get("output") or "")
                sys.stdout.flush()
                return EXIT_PASS if view.get("exit_code") == 0 else EXIT_FAIL
            if state in ("not_graded", "replaced"):
                print("NOT GRADED: " + (view.get("reason") or state), file=sys.stderr)
                return EXIT_NOT_GRADED
        elif 400 <= status < 500:
            return usage("the service refused (HTTP " + str(status) + "): " + view.get("error", ""))
        if time.monotonic() > deadline:
            print("grade --remote: still not graded after " + str(int(a.wait)) + " s; submission " + str(sub) +
                  " stays queued on the service", file=sys.stderr)
            return EXIT_NOT_GRADED
        time.sleep(a.poll)


if __name__ == "__main__":
    sys.exit(main())
