#!/usr/bin/env python3
"""GitHub Classroom's points from a grading's results.json (Gradescope's format, as the grading service
gives it to `grade_remote.py --results`): one runner result a lab, for Classroom's reporter
(classroom-resources/autograding-grading-reporter), which posts the sum of the tests' scores out of the
sum of the runners' max_score.

    classroom_results.py --results results.json [--rubric autograder/labs] >> "$GITHUB_OUTPUT"

Prints `lab-NN=BASE64` for every lab of the rubric: the lab's checks as tests, each with the points the
service gave it, out of the lab's points in its rubric.json. A NOT GRADED results.json (no score: nothing
was graded) gives every lab the status "error" and a max_score of 0, so that the reporter posts no points
and fails the job, and the log says why: never a 0 that looks like a grade. A summary goes to stderr.

Python 3 standard library only. Exit status: 0 written; 2 unreadable input.
"""
import argparse
import base64
import json
import pathlib
import sys


# The runner's own items of a rubric.json, each worth its "points" beside the checks (results.cpp's
# RubricLab::max_points).
RUNNER_ITEMS = ("sanitizer", "shared_memory_use", "bank_conflicts")


def rubric_labs(rubric_dir):
    """{lab id: (points, title)} of every NN-name/rubric.json: its checks' points and the runner's items'."""
    labs = {}
    for path in sorted(pathlib.Path(rubric_dir).glob("[0-9][0-9]-*/rubric.json")):
        r = json.loads(path.read_text())
        points = sum(c["points"] for c in r["checks"]) + sum((r.get(i) or {}).get("points", 0) for i in RUNNER_ITEMS)
        labs[r["id"]] = (points, r.get("title", ""))
    return labs


def clip(text, most=4000):
    """A message short enough for a step's output (GitHub keeps 1 MB of them a job)."""
    return text if len(text) <= most else text[:most] + "\n[cut: the whole table is in the grading step's log]"


def lab_of(test):
    """The lab id of a results.json test: its labNN tag, else its number."""
    for tag in test.get("tags", []):
        if len(tag) == 5 and tag.startswith("lab") and tag[3:].isdigit():
            return tag[3:]
    return test.get("number")


def runner_results(results, labs):
    """{lab id: the reporter's result for that lab}."""
    out = {}
    if "score" not in results:  # NOT GRADED: no points anywhere, and an error the job shows
        why = clip(results.get("output") or "nothing was graded")
        for lab in labs:
            out[lab] = {"version": 1, "status": "error", "max_score": 0,
                        "tests": [{"name": "NOT GRADED: try again", "status": "error", "score": 0, "message": why}]}
        return out
    for lab, (points, title) in labs.items():
        tests = [t for t in results.get("tests", []) if lab_of(t) == lab]
        if not tests:
            tests_out = [{"name": "Lab %s (%s): not in the grading" % (lab, title), "status": "fail", "score": 0,
                          "message": "the grading has no result for this lab (was its .cu file submitted?)"}]
        else:
            tests_out = [{"name": t["name"], "status": "pass" if t["status"] == "passed" else "fail",
                          "score": t["score"], "message": clip(t.get("output", "")),
                          "execution_time": "%gs" % t.get("execution_time", 0)} for t in tests]
        status = "pass" if all(t["status"] == "pass" for t in tests_out) else "fail"
        out[lab] = {"version": 1, "status": status, "max_score": points, "tests": tests_out}
    return out


def main():
    root = pathlib.Path(__file__).resolve().parents[2]
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--results", required=True, help="the grading's results.json")
    ap.add_argument("--rubric", default=root / "autograder/labs", help="the labs' rubrics (autograder/labs)")
    a = ap.parse_args()
    try:
        labs = rubric_labs(a.rubric)
    except (OSError, ValueError, KeyError) as e:
        print("classroom_results: cannot read the rubric: %s" % e, file=sys.stderr)
        return 2
    try:
        results = json.loads(pathlib.Path(a.results).read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        # No results.json at all is not graded either.
        results = {"output": "NOT GRADED: no results.json (%s)" % e, "tests": []}
    if not labs:
        print("classroom_results: no NN-name/rubric.json under %s" % a.rubric, file=sys.stderr)
        return 2
    for lab, r in sorted(runner_results(results, labs).items()):
        encoded = base64.b64encode(json.dumps(r).encode("utf-8")).decode("ascii")
        print("lab-%s=%s" % (lab, encoded))
        print("Lab %s: %s, %g of %g points" % (lab, r["status"], sum(t["score"] for t in r["tests"]), r["max_score"]),
              file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
