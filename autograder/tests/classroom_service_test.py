#!/usr/bin/env python3
"""The GitHub Classroom workflow through the grading service (autograder/classroom/classroom-service.yml),
and the points it gives (autograder/remote/classroom_results.py), checked without GitHub:

- the workflow parses (with Debian's python3-yaml where it is installed, and with classroom_points.py's
  own reader in any case), runs on ubuntu-latest, builds nothing, passes the token only as a file from the
  secret COURSE_SERVER_TOKEN, runs the remote client with --results and then classroom_results.py into
  $GITHUB_OUTPUT; every script it names exists and is in the student release; the reporter collects one
  runner a lab of the rubric;
- a graded results.json gives each lab the service's points out of the lab's rubric points; a NOT GRADED
  one (the remote client's) gives every lab an error worth 0 of 0, and so does a missing results.json;
- the checks can fail: a copy of the workflow without Lab 06's runner, or on a self-hosted runner, is
  rejected.

    classroom_service_test.py [--repo COURSE]
Exit status: 0 as expected; 1 a mismatch (each is printed).
"""
import argparse
import base64
import json
import pathlib
import re
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "remote"))
import classroom_points  # noqa: E402
import grade_remote  # noqa: E402

REPORTER = "classroom-resources/autograding-grading-reporter@v1"


def check_workflow(text, labs, repo):
    """The list of what is wrong with the service workflow's text."""
    bad = []
    try:
        import yaml  # Debian: python3-yaml
    except ImportError:
        yaml = None
        print("classroom_service_test: python3-yaml is not installed: the workflow is read by classroom_points.py alone")
    if yaml:
        try:
            doc = yaml.safe_load(text)
            job = doc["jobs"]["run-autograding-tests"]
            if job.get("runs-on") != "ubuntu-latest":
                bad.append("the job runs on %r, not ubuntu-latest" % job.get("runs-on"))
        except (yaml.YAMLError, KeyError, TypeError) as e:
            bad.append("the workflow is not the YAML expected: %s" % e)
    runs_on = re.findall(r"^\s*runs-on:\s*(.+?)\s*$", text, re.M)
    if runs_on != ["ubuntu-latest"]:
        bad.append("the job runs on %s, not ubuntu-latest alone" % runs_on)
    steps = classroom_points.parse_steps(text)
    grade = [s for s in steps if s.get("id") == "grade"]
    if len(grade) != 1:
        return bad + ["no single step with id 'grade'"]
    step = grade[0]
    run = step.get("run", "")
    if step.get("env", {}).get("COURSE_SERVER_TOKEN", "").replace(" ", "") != "${{secrets.COURSE_SERVER_TOKEN}}":
        bad.append("the grade step does not take its token from the secret COURSE_SERVER_TOKEN")
    if "secrets." in run or "--token-file" not in run:
        bad.append("the token must reach the client as a file (--token-file), never on its command line")
    if not re.search(r"autograder/remote/grade_remote\.py .*--results", run.replace("\\\n", " ")):
        bad.append("the grade step does not run autograder/remote/grade_remote.py --results")
    if not re.search(r"autograder/remote/classroom_results\.py .*>> \"\$GITHUB_OUTPUT\"", run.replace("\\\n", " ")):
        bad.append("the grade step does not write classroom_results.py's lines to $GITHUB_OUTPUT")
    if re.search(r"\bcmake\b|build/grade", run):
        bad.append("the grade step builds or runs the grader: the service grades")
    export = (repo / "cmake/export_student.cmake").read_text()
    for script in sorted(set(re.findall(r"autograder/[\w/.-]+\.py", run))):
        if not (repo / script).is_file():
            bad.append("the workflow runs %s, which does not exist" % script)
        if script not in export and str(pathlib.Path(script).parent) + " " not in export and \
                str(pathlib.Path(script).parent) + "\n" not in export:
            bad.append("the workflow runs %s, which the student release (cmake/export_student.cmake) leaves out" % script)
    reporters = [s for s in steps if s.get("uses") == REPORTER]
    if len(reporters) != 1:
        return bad + ["%d reporter steps, expected 1" % len(reporters)]
    runners = [r.strip() for r in reporters[0].get("with", {}).get("runners", "").split(",") if r.strip()]
    want = ["lab-" + lab for lab in sorted(labs)]
    if sorted(runners) != want:
        bad.append("the reporter's runners %s are not one a lab of the rubric %s" % (runners, want))
    env = reporters[0].get("env", {})
    for r in want:
        got = env.get(r.upper() + "_RESULTS", "").replace(" ", "")
        if got != "${{steps.grade.outputs.%s}}" % r:
            bad.append("the reporter's %s_RESULTS is %r, not the grade step's output %s" % (r.upper(), got, r))
    return bad


def points(repo, results_path):
    """{lab: the reporter's result} that classroom_results.py prints for results_path."""
    out = subprocess.run([sys.executable, str(repo / "autograder/remote/classroom_results.py"), "--results",
                          str(results_path), "--rubric", str(repo / "autograder/labs")],
                         capture_output=True, text=True, timeout=60)
    if out.returncode != 0:
        raise AssertionError("classroom_results.py exited %d: %s" % (out.returncode, out.stderr))
    got = {}
    for line in out.stdout.splitlines():
        m = re.fullmatch(r"lab-(\d\d)=([A-Za-z0-9+/=]+)", line)
        if not m:
            raise AssertionError("not a step output line lab-NN=BASE64: %r" % line)
        got[m.group(1)] = json.loads(base64.b64decode(m.group(2)))
    return got


def check_points(repo, labs, tmp):
    bad = []
    # A graded results.json as the runner writes it: each lab's checks, every other one passed.
    tests, earned = [], {}
    for path in sorted((repo / "autograder/labs").glob("[0-9][0-9]-*/rubric.json")):
        r = json.loads(path.read_text())
        for i, c in enumerate(r["checks"]):
            passed = i % 2 == 0
            tests.append({"name": "Lab %s: %s" % (r["id"], c["name"]), "number": r["id"], "score": c["points"] if passed else 0,
                          "max_score": c["points"], "status": "passed" if passed else "failed",
                          "tags": ["lab" + r["id"], "pass" if passed else "wrong_result"], "output": "x" * 9000})
            earned[r["id"]] = earned.get(r["id"], 0) + (c["points"] if passed else 0)
    graded = tmp / "graded.json"
    graded.write_text(json.dumps({"score": sum(earned.values()), "execution_time": 1, "output": "", "tests": tests}))
    got = points(repo, graded)
    for lab, (total, _) in labs.items():
        r = got.get(lab)
        if not r:
            bad.append("graded: no result for lab %s" % lab)
            continue
        score = sum(t["score"] for t in r["tests"])
        if score != earned[lab] or r["max_score"] != total or r["status"] != "fail":
            bad.append("graded: lab %s gives %g of %g (%s), expected %g of %g (fail)" % (lab, score, r["max_score"],
                                                                                       r["status"], earned[lab], total))
        if any(len(t.get("message", "")) > 4200 for t in r["tests"]):
            bad.append("graded: lab %s's messages are not cut to fit a step's output" % lab)
    print("classroom_service_test: a graded results.json gives " + ", ".join(
        "%s %g/%g" % (lab, sum(t["score"] for t in r["tests"]), r["max_score"]) for lab, r in sorted(got.items())))

    not_graded = tmp / "not-graded.json"
    grade_remote.write_json(str(not_graded), grade_remote.not_graded_results("the service could not be reached"))
    for what, path in (("NOT GRADED", not_graded), ("no results.json", tmp / "missing.json")):
        got = points(repo, path)
        if sorted(got) != sorted(labs):
            bad.append("%s: results for %s, expected every lab" % (what, sorted(got)))
        for lab, r in got.items():
            if r["status"] != "error" or r["max_score"] != 0 or any(t["score"] for t in r["tests"]) or \
                    not r["tests"][0]["name"].startswith("NOT GRADED"):
                bad.append("%s: lab %s is %s, %s of %s; expected an error worth 0 of 0, named NOT GRADED" % (
                    what, lab, r["status"], sum(t["score"] for t in r["tests"]), r["max_score"]))
    if not bad:
        print("classroom_service_test: NOT GRADED and a missing results.json give every lab an error worth 0 of 0")
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repo", default=HERE.parents[1])
    a = ap.parse_args()
    repo = pathlib.Path(a.repo)
    workflow = repo / "autograder/classroom/classroom-service.yml"
    text = workflow.read_text()
    labs = classroom_points.rubric_points(repo / "autograder/labs")
    bad = check_workflow(text, labs, repo)
    with tempfile.TemporaryDirectory() as tmp:
        bad += check_points(repo, labs, pathlib.Path(tmp))
    for b in bad:
        print("classroom_service_test: MISMATCH: " + b)
    if bad:
        return 1
    print("classroom_service_test: %s runs on ubuntu-latest and reports %d labs from the service's results"
          % (workflow.name, len(labs)))

    # The checks can fail.
    for what, broken in (("without Lab 06's runner", text.replace(",lab-06", "")),
                         ("on a self-hosted runner", text.replace("runs-on: ubuntu-latest", "runs-on: [self-hosted, gpu]"))):
        if broken == text or not check_workflow(broken, labs, repo):
            print("classroom_service_test: FAILED: a copy %s was not rejected" % what)
            return 1
        print("classroom_service_test: a copy %s is rejected, as it must be" % what)
    return 0


if __name__ == "__main__":
    sys.exit(main())
