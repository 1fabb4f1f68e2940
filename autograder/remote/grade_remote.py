#!/usr/bin/env python3
"""grade --remote: grade your labs on the course's GPUs, from a machine with no GPU and no CUDA Toolkit.

Uploads the .cu file of each of your labs (labs/NN-name/*.cu) to the course's grading service, shows
where it stands (its place in the queue, then building, then grading), and prints the table, failures
and hints the grader gave, as `grade` does on a machine with a GPU. Needs only Python 3's standard
library; this file runs on its own, copied anywhere.

    python3 grade_remote.py --remote https://gpu.example.edu --token-file ~/.course-token [--lab 01] [--labs-dir labs]
                            [--results results.json]

With --results FILE it also writes the grading's results.json (Gradescope's format) to FILE, and when
nothing was graded a "NOT GRADED" results.json that carries no score (not_graded_results), so that no
reader of the file takes it for a grade. Gradescope's and GitHub Classroom's bundles use it that way;
Gradescope's imports this file (autograder/gradescope/forward.py).

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
# The one name a result that is not a grade carries (autograder/schemas/gradescope-results.schema.json).
NOT_GRADED = "NOT GRADED"


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


def read_sources(paths):
    """The upload's files ({"name", "content"}) of paths; ValueError names one that is not UTF-8 text."""
    files = []
    for path in paths:
        with open(path, "rb") as f:
            raw = f.read()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise ValueError(path + " is not UTF-8 text (" + str(e) + ")")
        files.append({"name": os.path.basename(path), "content": text})
    return files


def is_loopback(host):
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def insecure_url(url, allow_http=False):
    """Why url must not carry a token (None when it may): not http(s), or plain http to another machine."""
    u = urllib.parse.urlparse(url)
    if u.scheme not in ("http", "https") or not u.hostname:
        return "--remote needs an http:// or https:// address, not " + url
    if u.scheme == "http" and not is_loopback(u.hostname) and not allow_http:
        return "plain http:// to " + u.hostname + " would send your token in clear; use the https:// address"
    return None


class Service:
    """The grading service at url, as the holder of token; with student, a forwarder's token acting for
    that student (the service refuses it from any other token)."""

    def __init__(self, url, token, timeout, student=None):
        self.url = url.rstrip("/")
        self.token = token
        self.timeout = timeout
        self.student = student

    def call(self, method, path, body=None):
        """(status, parsed JSON answer); the token goes in a header, never in the URL."""
        data = None if body is None else json.dumps(body).encode("utf-8")
        req = urllib.request.Request(self.url + path, data=data, method=method)
        req.add_header("Authorization", "Bearer " + self.token)
        if self.student:
            req.add_header("X-Course-Student", self.student)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as res:
                text = res.read().decode("utf-8", "replace")
            try:
                return res.status, json.loads(text)
            except ValueError:  # not the service answering (a proxy's page, say): as if it were not there
                raise OSError("the answer is not the service's (not JSON): " + text[:200])
        except urllib.error.HTTPError as e:
            text = e.read().decode("utf-8", "replace")
            try:
                return e.code, json.loads(text)
            except ValueError:
                return e.code, {"error": text.strip() or e.reason}


class Outcome:
    """How a submission ended: kind is "done" (view is the service's answer), "refused" (the service said
    no: message), "unreachable", "waited" (still not graded at the deadline) or "not_graded"."""

    def __init__(self, kind, message="", view=None, submission=None):
        self.kind, self.message, self.view, self.submission = kind, message, view, submission


def submit_and_wait(service, files, wait, poll, say=lambda text: None, what="lab(s)"):
    """Uploads files (what names them), then polls until the submission is graded or wait seconds have
    passed. say(text) is told each step (the submission's id, each new stage)."""
    try:
        status, answer = service.call("POST", "/api/submissions", {"files": files})
    except (OSError, urllib.error.URLError) as e:
        return Outcome("unreachable", "cannot reach " + service.url + ": " + str(e))
    if status not in (200, 202):
        return Outcome("refused", "the service refused the upload (HTTP " + str(status) + "): " + str(answer.get("error", "")))
    sub = answer["id"]
    say("submitted " + what + " as submission " + str(sub) + (" (already submitted: the same files)" if answer.get("duplicate") else ""))
    said, deadline = None, time.monotonic() + wait
    while True:
        try:
            status, view = service.call("GET", "/api/submissions/" + str(sub))
        except (OSError, urllib.error.URLError) as e:
            status, view = 0, {"error": str(e)}
        if status == 200:
            state = view["state"]
            if state == "done":
                return Outcome("done", view=view, submission=sub)
            if state in ("not_graded", "replaced"):
                return Outcome("not_graded", view.get("reason") or state, view=view, submission=sub)
            progress = "queued, position " + str(view.get("position")) if state == "queued" else state
            if progress != said:
                say(progress + "...")
                said = progress
        elif 400 <= status < 500:
            return Outcome("refused", "the service refused (HTTP " + str(status) + "): " + str(view.get("error", "")),
                           submission=sub)
        if time.monotonic() > deadline:
            return Outcome("waited", "still not graded after " + str(int(wait)) + " s; submission " + str(sub) +
                           " stays queued on the service", submission=sub)
        time.sleep(poll)


def not_graded_results(why, output=""):
    """A results.json (Gradescope's format) that says nothing was graded, and can never be read as a
    grade: no score of its own (Gradescope would add up its tests) and one test worth nothing, named
    NOT GRADED, that says why; everything visible to the student."""
    text = NOT_GRADED + ": " + why + "\n\nThis is not a grade: nothing of your submission was graded. Once " \
        "the reason above is fixed (or later, when the service was busy or could not be reached), submit again, " \
        "or ask your instructor to regrade it."
    if output:
        text += "\n\nWhat the grading service said:\n\n" + output
    return {
        "execution_time": 0,
        "output": text,
        "stdout_visibility": "visible",
        "visibility": "visible",
        "tests": [{"name": NOT_GRADED + ": try again later", "score": 0, "max_score": 0, "status": "failed",
                   "output": text, "visibility": "visible"}],
    }


def outcome_results(outcome):
    """The results.json an outcome gives: the service's own when it graded something, else NOT GRADED."""
    if outcome.kind == "done":
        results = outcome.view.get("results")
        if isinstance(results, dict) and results.get("tests"):
            return results
        # A service without a GPU (course-server --allow-no-gpu) builds and audits, and grades nothing.
        return not_graded_results("the grading service only built your labs (it has no GPU to run them on)",
                                  outcome.view.get("output") or "")
    return not_graded_results(outcome.message)


def write_json(path, data):
    """Writes data to path whole or not at all (a reader never sees half a file)."""
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    tmp = os.path.join(folder, "." + os.path.basename(path) + ".part")
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=2)
        f.write("\n")
    os.replace(tmp, path)


def main(argv=None):
    p = argparse.ArgumentParser(
        prog="grade --remote",
        description="Grade your labs on the course's grading service (no GPU or CUDA Toolkit needed here).")
    p.add_argument("--remote", metavar="URL", required=True, help="the service's address, e.g. https://gpu.example.edu")
    p.add_argument("--token-file", metavar="FILE", required=True, help="the file holding your token (from your instructor)")
    p.add_argument("--lab", action="append", default=[], metavar="NN", help="grade only this lab (repeat for more)")
    p.add_argument("--labs-dir", metavar="DIR", default=None, help="your labs folder (default: ./labs, else .)")
    p.add_argument("--results", metavar="FILE", help="also write the results.json here (NOT GRADED when nothing was graded)")
    p.add_argument("--poll", type=float, default=2.0, metavar="S", help="seconds between progress checks (default 2)")
    p.add_argument("--wait", type=float, default=3600.0, metavar="S", help="give up waiting after this long (default 3600)")
    p.add_argument("--allow-http", action="store_true", help="send the token over plain HTTP to a host other than this one")
    a = p.parse_args(argv)

    def finish(code, message, outcome=None):
        if message:
            print(message, file=sys.stderr)
        if a.results:
            write_json(a.results, outcome_results(outcome) if outcome else not_graded_results(message))
        return code

    def usage(message):
        return finish(EXIT_USAGE, "grade --remote: " + message)

    why = insecure_url(a.remote, a.allow_http)
    if why:
        return usage(why)
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
    try:
        files = read_sources(path for lab in sorted(labs) for path in labs[lab])
    except ValueError as e:
        return usage(str(e))

    out = submit_and_wait(Service(a.remote, token, timeout=60), files, a.wait, a.poll, lambda t: print(t, flush=True),
                          "lab(s) " + ", ".join(sorted(labs)))
    if out.kind == "done":
        sys.stdout.write(out.view.get("output") or "")
        sys.stdout.flush()
        return finish(EXIT_PASS if out.view.get("exit_code") == 0 else EXIT_FAIL, "", out)
    if out.kind == "refused":
        return finish(EXIT_USAGE, "grade --remote: " + out.message, out)
    prefix = "NOT GRADED: " if out.kind == "not_graded" else "grade --remote: "
    return finish(EXIT_NOT_GRADED, prefix + out.message, out)


if __name__ == "__main__":
    sys.exit(main())
