#!/usr/bin/env python3
"""Gradescope and GitHub Classroom through the grading service, run as they run them: course-server started
for real on loopback (no GPU); the Gradescope bundle made with make-bundle.sh --server, unpacked into a tree
like Gradescope's (AUTOGRADER_ROOT with source/, submission/, submission_metadata.json, results/), and its
setup.sh and run_autograder run with no GPU and nothing but /usr/bin:/bin on the PATH. One case a run:

    forwarding_test.py CASE --server course-server --grade grade --repo COURSE [--jsonschema CLI]

graded      a stand-in grader (below) gives the service a results.json: run_autograder writes it unchanged,
            graded for the student Gradescope names, whatever the submission's layout; a regrade is
            answered from the stored grading; Classroom's points (grade_remote.py --results, then
            classroom_results.py) are the service's; what a forwarder's token and a student's may do
not_graded  the service unreachable; refusing (a student's token acting for another student, a student not
            on the roster); busy past the bundle's --wait (then a regrade gets the grading); no lab file;
            no student ID: each a NOT GRADED result, with no score, that says why. And make-bundle.sh
            refusing a token it would send in clear, or a bundle that could not work
build_only  the real grader on a service without a GPU: it only builds, so the result is NOT GRADED and
            shows the build's lines

Every results.json written is validated against autograder/schemas/gradescope-results.schema.json with
--jsonschema (the CLI of Debian's python3-jsonschema), and checked here in any case.
"""
import argparse
import base64
import hashlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # nothing written into the course's tree
import server_test  # noqa: E402  (the Server of the service's own tests)
sys.path.insert(0, os.path.join(HERE, "..", "..", "remote"))
import grade_remote  # noqa: E402  (its NOT GRADED result, to check that the schema rejects a changed one)
from server_test import Failed, check  # noqa: E402

ARGS = None
LAB01, LAB01_FILE = "01-sum-reduction", "sum_reduction.cu"
LAB02, LAB02_FILE = "02-max-reduce", "max_reduce.cu"
SLOW = "// stand-in: take 6 s"


# --- The stand-in grader ----------------------------------------------------------------------------------

def stand_in_grade(argv):
    """What a grader on a GPU gives (a table, results.json in Gradescope's format, exit 1: a check failed),
    without a GPU: each lab's "correct" check passes, its "fast" check fails. Its output names the hash
    of each file it was given, so a test knows which files were graded."""
    p = argparse.ArgumentParser()
    p.add_argument("--labs-dir", required=True)
    p.add_argument("--results", required=True)
    p.add_argument("--lab", action="append", default=[])
    a, _ = p.parse_known_args(argv)
    tests, lines = [], []
    for lab in sorted(a.lab):
        folder = next(d for d in os.listdir(a.labs_dir) if d.startswith(lab + "-"))
        name = next(f for f in os.listdir(os.path.join(a.labs_dir, folder)) if f.endswith(".cu"))
        with open(os.path.join(a.labs_dir, folder, name), "rb") as f:
            content = f.read()
        if SLOW.encode() in content:
            time.sleep(6)
        digest = hashlib.sha256(content).hexdigest()
        lines.append("Lab %s: 3 / 5 points (%s sha256 %s)" % (lab, name, digest))
        tests.append({"name": "Lab %s: correct" % lab, "number": lab, "score": 3.0, "max_score": 3.0, "status": "passed",
                      "tags": ["lab" + lab, "pass"], "output": "sha256 " + digest, "visibility": "visible"})
        tests.append({"name": "Lab %s: fast" % lab, "number": lab, "score": 0.0, "max_score": 2.0, "status": "failed",
                      "tags": ["lab" + lab, "too_slow"], "output": "**too slow**", "visibility": "visible"})
    print("checking...", flush=True)
    results = {"score": sum(t["score"] for t in tests), "execution_time": 1.0, "output": "\n".join(lines),
               "output_format": "md", "stdout_visibility": "visible", "tests": tests}
    with open(a.results, "w") as f:
        json.dump(results, f)
    print("\n".join(lines))
    return 1


def stand_in_server(tmp, students):
    """A service whose workers run the stand-in grader (no sandbox: the stand-in lives outside the course)."""
    wrapper = os.path.join(tmp, "stand-in-grade")
    with open(wrapper, "w") as f:
        f.write('#!/bin/sh\nexec "%s" "%s" stand-in-grade "$@"\n' % (sys.executable, os.path.abspath(__file__)))
    os.chmod(wrapper, 0o755)
    server_test.ARGS.grade = wrapper
    srv = server_test.Server(tmp, students, ["--workers", "1", "--sandbox", "none", "--per-hour", "100"])
    srv.tokens["gradescope"] = make_forwarder(tmp)
    return srv


def make_forwarder(root):
    out = subprocess.run([ARGS.server, "tokens", "--forwarder", "gradescope", "--out", os.path.join(root, "tokens.csv")],
                         capture_output=True, text=True, timeout=60)
    check(out.returncode == 0, "course-server tokens --forwarder: " + out.stderr)
    ident, role, token = out.stdout.splitlines()[1].split(",")
    check(ident == "gradescope" and role == "forwarder" and len(token) == 64, "the forwarder's token is printed once")
    return token


# --- Gradescope, as it runs a bundle ----------------------------------------------------------------------

def make_bundle(tmp, name, url, token, *extra):
    token_file = os.path.join(tmp, name + ".token")
    with open(token_file, "w") as f:
        f.write(token + "\n")
    zip_path = os.path.join(tmp, name + ".zip")
    out = subprocess.run(["bash", os.path.join(ARGS.repo, "autograder/gradescope/make-bundle.sh"), "--server", url,
                          "--token-file", token_file, "--out", zip_path] + list(extra),
                         capture_output=True, text=True, timeout=120)
    check(out.returncode == 0, "make-bundle.sh --server: " + out.stdout + out.stderr)
    return zip_path


def gradescope_tree(tmp, name, zip_path, sid, files):
    """AUTOGRADER_ROOT as Gradescope makes it: the bundle in source/, the student's files in submission/
    ({relative path: text}), their metadata, an empty results/."""
    root = os.path.join(tmp, name)
    os.makedirs(os.path.join(root, "results"))
    with zipfile.ZipFile(zip_path) as z:
        z.extractall(os.path.join(root, "source"))
    for rel in ("setup.sh", "run_autograder"):
        os.chmod(os.path.join(root, "source", rel), 0o755)
    for rel, text in files.items():
        path = os.path.join(root, "submission", rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    os.makedirs(os.path.join(root, "submission"), exist_ok=True)
    with open(os.path.join(root, "submission_metadata.json"), "w") as f:
        json.dump({"id": 424242, "created_at": "2026-11-26T10:00:00Z", "assignment": {"title": "Lab 01"},
                   "users": [{"email": str(sid) + "@example.edu", "id": 7, "name": "A Student", "sid": sid}]}, f)
    return root


def run_gradescope(root, setup=False):
    """Gradescope's steps, with no GPU and no CUDA Toolkit on the PATH; the results.json written."""
    env = {"PATH": "/usr/bin:/bin", "HOME": root, "AUTOGRADER_ROOT": root, "CUDA_VISIBLE_DEVICES": ""}
    if setup:
        s = subprocess.run(["bash", os.path.join(root, "source", "setup.sh")], capture_output=True, text=True, env=env,
                           timeout=60)
        check(s.returncode == 0 and "grading through the course's service" in s.stdout,
              "setup.sh of a --server bundle installs nothing and says where it grades:\n" + s.stdout + s.stderr)
    start = time.monotonic()
    r = subprocess.run(["bash", os.path.join(root, "source", "run_autograder")], capture_output=True, text=True, env=env,
                       timeout=300)
    took = time.monotonic() - start
    print("run_autograder (%s): exit %d in %.1f s; %s" % (os.path.basename(root), r.returncode, took,
                                                         r.stdout.strip().splitlines()[-1] if r.stdout.strip() else ""))
    check(r.returncode == 0, "run_autograder exits 0 once it wrote a result:\n" + r.stdout + r.stderr)
    path = os.path.join(root, "results", "results.json")
    check(os.path.isfile(path), "run_autograder wrote results/results.json:\n" + r.stdout + r.stderr)
    with open(path) as f:
        results = json.load(f)
    validate(path, results)
    return results, r.stdout, took


def validate(path, results):
    """Gradescope's schema, and what a result must say whether or not the schema's tool is here."""
    if ARGS.jsonschema:
        v = subprocess.run([ARGS.jsonschema, "-i", path, os.path.join(ARGS.repo, "autograder/schemas/gradescope-results.schema.json")],
                           capture_output=True, text=True, timeout=60)
        check(v.returncode == 0, "%s matches Gradescope's schema:\n%s%s" % (path, v.stdout, v.stderr))
    check(isinstance(results.get("tests"), list) and results["tests"], "a result has tests")
    if "score" not in results:
        check(all(t["max_score"] == 0 and t["score"] == 0 for t in results["tests"]), "a scoreless result is worth nothing")
        check(any(t["name"].startswith("NOT GRADED") for t in results["tests"]), "and says NOT GRADED")


def is_not_graded(results, why):
    check("score" not in results, "a NOT GRADED result carries no score (it has %r)" % results.get("score"))
    check(results["tests"][0]["name"].startswith("NOT GRADED") and results["tests"][0]["visibility"] == "visible",
          "its one test is named NOT GRADED and the student sees it")
    check(re.search(why, results["output"]), "it says why (%r):\n%s" % (why, results["output"]))


def starter(lab_dir, name, extra=""):
    with open(os.path.join(ARGS.repo, "labs", lab_dir, name), encoding="utf-8") as f:
        return f.read() + extra


def sha(text):
    return hashlib.sha256(text.encode()).hexdigest()


# --- The cases ----------------------------------------------------------------------------------------------

def graded(tmp):
    srv = stand_in_server(tmp, ["ada", "bob"])
    srv.start()
    try:
        zip_path = make_bundle(tmp, "bundle", srv.url, srv.tokens["gradescope"])
        with zipfile.ZipFile(zip_path) as z:
            names = set(z.namelist())
        for needed in ("setup.sh", "run_autograder", "service.json", "service-token", "autograder/gradescope/forward.py",
                       "autograder/remote/grade_remote.py"):
            check(needed in names, "the --server bundle holds " + needed)
        check(not any(n.startswith(("labs/", "common/", "autograder/runner/", "CMakeLists.txt", "solutions/")) for n in names),
              "the --server bundle holds none of the course's sources: %s" % sorted(names))
        print("the --server bundle: %d files: %s" % (len(names), ", ".join(sorted(n for n in names if "/" not in n))))

        # Ada uploads her lab file alone.
        ada_text = starter(LAB01, LAB01_FILE, "// ada's\n")
        root = gradescope_tree(tmp, "ada", zip_path, "ada", {LAB01_FILE: ada_text})
        results, out, _ = run_gradescope(root, setup=True)
        status, mine = srv.call("GET", "/api/submissions", "ada")
        check(status == 200 and len(mine) == 1 and mine[0]["student"] == "ada", "the grading is ada's: %s" % mine)
        stored = srv.view(mine[0]["id"])
        check(results == stored["results"], "results.json is the service's, unchanged")
        check(results["score"] == 3.0 and sha(ada_text) in results["output"], "graded: ada's own file, 3 points")
        check("Lab 01: 3 / 5 points" in out, "the grader's table is in run_autograder's output")

        # Bob uploads his repository, zipped in one folder: only the labs' own files are sent.
        bob = {"bob-repo/README.md": "notes", "bob-repo/labs/%s/%s" % (LAB01, LAB01_FILE): starter(LAB01, LAB01_FILE, "// bob 1\n"),
               "bob-repo/labs/%s/%s" % (LAB02, LAB02_FILE): starter(LAB02, LAB02_FILE, "// bob 2\n"),
               "bob-repo/labs/%s/scratch.cu" % LAB01: "not a lab's file"}
        root = gradescope_tree(tmp, "bob", zip_path, "bob", bob)
        results, out, _ = run_gradescope(root)
        status, mine = srv.call("GET", "/api/submissions", "bob")
        check(status == 200 and len(mine) == 1 and srv.view(mine[0]["id"])["labs"] == ["01", "02"],
              "bob's two labs are graded as his, and nothing else was sent: %s" % mine)
        check(results["score"] == 6.0 and sha(bob["bob-repo/labs/%s/%s" % (LAB02, LAB02_FILE)]) in results["output"],
              "bob's results: both labs")

        # A regrade (the same files) is answered from the stored grading, not graded again.
        again, _, took = run_gradescope(root)
        status, mine = srv.call("GET", "/api/submissions", "bob")
        check(again == results and len(mine) == 1, "a regrade gives the stored result, stored once")
        print("a regrade answered from the stored grading in %.1f s" % took)

        # A bundle for Lab 02 alone sends Lab 02 alone.
        lab02 = make_bundle(tmp, "lab02", srv.url, srv.tokens["gradescope"], "--lab", "2")
        root = gradescope_tree(tmp, "ada-lab02", lab02, "ada", {LAB01_FILE: ada_text + "// again\n",
                                                                LAB02_FILE: starter(LAB02, LAB02_FILE, "// ada 2\n")})
        results, _, _ = run_gradescope(root)
        check([t["number"] for t in results["tests"]] == ["02", "02"], "a --lab 02 bundle grades Lab 02 only")

        classroom(tmp, srv, ada_text)
        powers(srv)
    finally:
        srv.stop()
    logs = srv.logs()
    check("gradescope for ada submission" in logs, "the log says which forwarder submitted for whom")
    check(srv.tokens["gradescope"][:16] not in logs, "the forwarder's token is not in the log")
    with open(os.path.join(tmp, "class.sqlite"), "rb") as f:
        check(srv.tokens["gradescope"].encode() not in f.read(), "nor in the database")


def classroom(tmp, srv, ada_text):
    """The Classroom workflow's step: the student's own token, grade_remote.py --results, classroom_results.py."""
    labs = os.path.join(tmp, "ada-classroom", "labs")
    os.makedirs(os.path.join(labs, LAB01))
    with open(os.path.join(labs, LAB01, LAB01_FILE), "w") as f:
        f.write(ada_text)
    token_file = os.path.join(tmp, "ada.token")
    with open(token_file, "w") as f:
        f.write(srv.tokens["ada"])
    results_path = os.path.join(tmp, "ada-classroom", "results.json")
    env = {"PATH": "/usr/bin:/bin"}
    c = subprocess.run([sys.executable, os.path.join(ARGS.repo, "autograder/remote/grade_remote.py"), "--remote", srv.url,
                        "--token-file", token_file, "--labs-dir", labs, "--poll", "0.3", "--results", results_path],
                       capture_output=True, text=True, env=env, timeout=120)
    check(c.returncode == 1, "the client exits as the grader did (1: a check failed): %d\n%s" % (c.returncode, c.stderr))
    with open(results_path) as f:
        results = json.load(f)
    validate(results_path, results)
    sub = re.search(r"as submission (\d+) \(already submitted", c.stdout)
    check(sub, "the same files as on Gradescope are the same submission:\n" + c.stdout)
    check(results == srv.view(int(sub.group(1)))["results"], "and its stored results")
    points = classroom_points(results_path)
    check(points["01"]["status"] == "fail" and sum(t["score"] for t in points["01"]["tests"]) == 3.0,
          "Classroom's Lab 01: the service's 3 points")
    check(all(sum(t["score"] for t in p["tests"]) == 0 for lab, p in points.items() if lab != "01"),
          "labs not submitted earn nothing")
    print("Classroom points from the service: %s" % ", ".join(
        "%s %g/%g" % (lab, sum(t["score"] for t in p["tests"]), p["max_score"]) for lab, p in sorted(points.items())))


def classroom_points(results_path):
    out = subprocess.run([sys.executable, os.path.join(ARGS.repo, "autograder/remote/classroom_results.py"), "--results",
                          results_path, "--rubric", os.path.join(ARGS.repo, "autograder/labs")],
                         capture_output=True, text=True, timeout=60)
    check(out.returncode == 0, "classroom_results.py: " + out.stderr)
    points = {}
    for line in out.stdout.splitlines():
        m = re.fullmatch(r"lab-(\d\d)=([A-Za-z0-9+/=]+)", line)
        check(m, "a step output line lab-NN=BASE64: %r" % line)
        points[m.group(1)] = json.loads(base64.b64decode(m.group(2)))
    return points


def powers(srv):
    """A forwarder submits and reads only for a student of the course it names; a student's token never
    acts for another; the forwarder is no instructor."""
    ok = {"files": [{"name": LAB01_FILE, "content": starter(LAB01, LAB01_FILE, "// powers\n")}]}
    before = srv.db_counts()

    def refused(what, expect, who, headers, method="POST", path="/api/submissions"):
        status, answer = srv.call(method, path, who, ok if method == "POST" else None, headers=headers)
        print("%-58s -> %d %s" % (what, status, answer.get("error") if isinstance(answer, dict) else answer))
        check(status == expect, "%s: expected %d, got %d" % (what, expect, status))
        check(srv.db_counts() == before, what + ": nothing stored")

    refused("a student's token submitting for another student", 403, "ada", {"X-Course-Student": "bob"})
    refused("a forwarder naming no student", 400, "gradescope", {})
    refused("a forwarder naming one not on the roster", 403, "gradescope", {"X-Course-Student": "mallory"})
    refused("a forwarder naming the instructor", 403, "gradescope", {"X-Course-Student": "instructor"})
    refused("a forwarder naming itself", 403, "gradescope", {"X-Course-Student": "gradescope"})
    refused("the instructor acting for a student", 403, "instructor", {"X-Course-Student": "ada"})
    refused("a forwarder asking for the gradebook", 403, "gradescope", {"X-Course-Student": "ada"}, "GET", "/api/gradebook")
    status, ada = srv.call("GET", "/api/submissions", "gradescope", headers={"X-Course-Student": "ada"})
    check(status == 200 and ada and all(s["student"] == "ada" for s in ada), "the forwarder lists ada's submissions only")
    refused("a forwarder reading ada's submission as bob's", 404, "gradescope", {"X-Course-Student": "bob"},
            "GET", "/api/submissions/%d" % ada[0]["id"])
    refused("a student reading another's through the header", 403, "bob", {"X-Course-Student": "ada"},
            "GET", "/api/submissions/%d" % ada[0]["id"])


def closed_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def bundle_refusals(tmp):
    """make-bundle.sh --server refuses what would leak the token or could not work."""
    token_file = os.path.join(tmp, "any.token")
    with open(token_file, "w") as f:
        f.write("0" * 64)
    script = os.path.join(ARGS.repo, "autograder/gradescope/make-bundle.sh")
    for what, args, says in (
            ("plain http to another machine", ["--server", "http://192.0.2.1:8080", "--token-file", token_file], "in clear"),
            ("no token file", ["--server", "https://gpu.example.edu"], "go together"),
            ("an empty token file", ["--server", "https://gpu.example.edu", "--token-file", os.devnull], "cannot read a token"),
            ("the secret beside --server", ["--server", "https://gpu.example.edu", "--token-file", token_file,
                                            "--secret-file", token_file], "no use with --server"),
            ("an unknown student key", ["--server", "https://gpu.example.edu", "--token-file", token_file,
                                        "--student-key", "name"], "sid or email-name")):
        r = subprocess.run(["bash", script, "--out", os.path.join(tmp, "refused.zip")] + args, capture_output=True,
                           text=True, timeout=60)
        print("make-bundle.sh with %-28s -> %d" % (what, r.returncode))
        check(r.returncode == 2 and says in r.stderr, "make-bundle.sh refuses %s: %d %s" % (what, r.returncode, r.stderr))
        check(not os.path.exists(os.path.join(tmp, "refused.zip")), "and writes no bundle")


def schema_rejects_a_scoreless_grade(tmp):
    """The schema check can fail: a result without a score that is worth points, or not named NOT GRADED."""
    if not ARGS.jsonschema:
        return
    for what, change in (("worth points", {"max_score": 3}), ("not named NOT GRADED", {"name": "Lab 01: correct"})):
        r = grade_remote.not_graded_results("a test of the schema")
        r["tests"][0].update(change)
        path = os.path.join(tmp, "scoreless.json")
        with open(path, "w") as f:
            json.dump(r, f)
        v = subprocess.run([ARGS.jsonschema, "-i", path, os.path.join(ARGS.repo, "autograder/schemas/gradescope-results.schema.json")],
                           capture_output=True, text=True, timeout=60)
        check(v.returncode != 0, "Gradescope's schema rejects a scoreless result " + what)
    print("the schema rejects a scoreless result worth points, or one not named NOT GRADED")


def not_graded(tmp):
    bundle_refusals(tmp)
    schema_rejects_a_scoreless_grade(tmp)
    lab01 = {LAB01_FILE: starter(LAB01, LAB01_FILE, "// not graded\n")}

    # Nothing listens: NOT GRADED at once.
    url = "http://127.0.0.1:%d" % closed_port()
    zip_path = make_bundle(tmp, "unreachable", url, "0" * 64)
    results, _, took = run_gradescope(gradescope_tree(tmp, "unreachable", zip_path, "ada", lab01))
    is_not_graded(results, r"cannot reach http://127\.0\.0\.1:\d+")
    check(took < 30, "an unreachable service is known at once (%.1f s)" % took)

    srv = stand_in_server(tmp, ["ada", "bob"])
    srv.start()
    try:
        # A student's token in the bundle: it may not act for someone else.
        zip_path = make_bundle(tmp, "student-token", srv.url, srv.tokens["ada"])
        results, _, _ = run_gradescope(gradescope_tree(tmp, "as-bob", zip_path, "bob", lab01))
        is_not_graded(results, r"refused .*HTTP 403.*only a forwarder's token acts for another student")
        check(srv.db_counts()[0] == 0, "nothing stored for a refused forwarding")

        fwd = make_bundle(tmp, "forwarder", srv.url, srv.tokens["gradescope"], "--wait", "1")
        # Gradescope's student ID is not on the service's roster.
        results, _, _ = run_gradescope(gradescope_tree(tmp, "zed", fwd, "zed", lab01))
        is_not_graded(results, r"'zed' is not a student of this course")
        # No lab file at all.
        results, _, _ = run_gradescope(gradescope_tree(tmp, "empty", fwd, "ada", {"notes.txt": "nothing"}))
        is_not_graded(results, r"no lab source in your submission \(expected .*sum_reduction\.cu")
        # No student ID on Gradescope.
        results, _, _ = run_gradescope(gradescope_tree(tmp, "no-sid", fwd, "", lab01))
        is_not_graded(results, r"could not tell who submitted")
        check(srv.db_counts()[0] == 0, "nothing stored for any of them")

        # The service busier than the bundle waits (1 s): NOT GRADED, and the submission stays queued.
        slow = {LAB01_FILE: starter(LAB01, LAB01_FILE, SLOW + "\n")}
        results, _, took = run_gradescope(gradescope_tree(tmp, "busy", fwd, "ada", slow))
        is_not_graded(results, r"still not graded after 1 s; submission \d+ stays queued")
        # A regrade once it is done (a bundle that waits longer) gets the grading, graded once.
        patient = make_bundle(tmp, "patient", srv.url, srv.tokens["gradescope"], "--wait", "120")
        results, _, _ = run_gradescope(gradescope_tree(tmp, "busy-regrade", patient, "ada", slow))
        check(results.get("score") == 3.0, "the regrade is graded: %s" % results.get("output"))
        status, mine = srv.call("GET", "/api/submissions", "ada")
        check(len(mine) == 1 and server_test.graded_once(srv.view(mine[0]["id"])), "one submission, graded once")
    finally:
        srv.stop()


def build_only(tmp):
    """The real grader on a service with no GPU: it builds and audits only, which is no grade."""
    server_test.ARGS.grade = ARGS.grade
    srv = server_test.Server(tmp, ["ada"], ["--workers", "1"])
    srv.tokens["gradescope"] = make_forwarder(tmp)
    srv.start()
    try:
        zip_path = make_bundle(tmp, "bundle", srv.url, srv.tokens["gradescope"], "--wait", "500")
        results, _, took = run_gradescope(gradescope_tree(tmp, "ada", zip_path, "ada", {LAB01_FILE: starter(LAB01, LAB01_FILE)}))
        is_not_graded(results, r"only built your labs")
        check("Lab 01 (Sum reduction): compiles" in results["output"], "the build's lines are shown:\n" + results["output"])
        print("a build-only grading forwarded in %.1f s" % took)
    finally:
        srv.stop()


CASES = {f.__name__: f for f in (graded, not_graded, build_only)}


def main():
    global ARGS
    if len(sys.argv) > 1 and sys.argv[1] == "stand-in-grade":
        return stand_in_grade(sys.argv[2:])
    p = argparse.ArgumentParser()
    p.add_argument("case", choices=sorted(CASES))
    p.add_argument("--server", required=True)
    p.add_argument("--grade", required=True)
    p.add_argument("--repo", required=True)
    p.add_argument("--jsonschema", default="", help="the jsonschema CLI; without it the schema is not checked")
    p.add_argument("--keep", action="store_true", help="keep the test's folder")
    ARGS = p.parse_args()
    server_test.ARGS = argparse.Namespace(server=ARGS.server, grade=ARGS.grade, labs=os.path.join(ARGS.repo, "labs"),
                                          client=os.path.join(ARGS.repo, "autograder/remote/grade_remote.py"))
    tmp = tempfile.mkdtemp(prefix="course-forwarding-" + ARGS.case + "-")
    start = time.monotonic()
    try:
        CASES[ARGS.case](tmp)
    except Failed as e:
        print("FAILED: %s (folder %s)" % (e, tmp))
        ARGS.keep = True
        return 1
    finally:
        if not ARGS.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    print("passed in %.1f s%s" % (time.monotonic() - start, "" if ARGS.jsonschema else " (schema not checked: no --jsonschema)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
