#!/usr/bin/env python3
"""Gradescope through the course's grading service: run_autograder runs this in a bundle made with
`make-bundle.sh --server URL --token-file FILE`, in Gradescope's container, which has no GPU and no CUDA
Toolkit. It needs only Python 3's standard library and the remote client (autograder/remote/grade_remote.py,
imported, not copied).

It sends the student's lab sources found in $AUTOGRADER_ROOT/submission to the service, for the student
that submission_metadata.json names, waits (at most the bundle's wait_s), and writes the service's
results.json to $AUTOGRADER_ROOT/results/results.json. When nothing was graded (the service unreachable,
refusing, or still busy at the deadline; the student not on its roster), it writes a NOT GRADED result
that carries no score instead.

The bundle's service.json: {"url", "wait_s", "poll_s", "student_key" ("sid" or "email-name"), "labs" (the
lab ids graded; empty: all), "lab_files" ({lab id: its source's name})}; service-token beside it holds
the forwarder's token (course-server tokens --forwarder), which submits only with a student's id.

    forward.py [--source DIR] [--root DIR]     (defaults: this bundle's folder, $AUTOGRADER_ROOT or /autograder)
Exit status: 0 a results.json was written (graded or NOT GRADED); 1 not even that.
"""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "remote"))
import grade_remote  # noqa: E402  (found beside this folder, in the repository and in the bundle alike)


def student_id(metadata_path, key):
    """The service's id of the submitting student, from Gradescope's submission_metadata.json: the first
    user's "sid" (the student ID of Gradescope's roster), or the part of their email before '@'."""
    with open(metadata_path, encoding="utf-8") as f:
        users = json.load(f).get("users") or []
    if not users:
        raise ValueError("submission_metadata.json names no student")
    user = users[0]
    value = user.get("email", "").split("@")[0] if key == "email-name" else user.get("sid")
    if not value:
        raise ValueError("Gradescope has no %s for %s" % ("email" if key == "email-name" else "student ID (sid)",
                                                          user.get("name") or "this student"))
    return str(value), len(users)


def submitted_sources(submission, lab_files, labs):
    """The paths of the lab sources in the submission: the student's whole repository (its labs/), a
    labs/ folder (NN-name/FILE.cu), or the bare FILE.cu files, also inside one wrapping folder. Only the
    labs' own file names are taken, of the labs this bundle grades."""
    wanted = {name for lab, name in lab_files.items() if not labs or lab in labs}
    top = submission
    entries = os.listdir(top)
    if not os.path.isdir(os.path.join(top, "labs")) and len(entries) == 1 and os.path.isdir(os.path.join(top, entries[0])):
        top = os.path.join(top, entries[0])
    if os.path.isdir(os.path.join(top, "labs")):
        top = os.path.join(top, "labs")
    found = {}
    for paths in grade_remote.lab_files(top, set()).values():
        for p in paths:
            found.setdefault(os.path.basename(p), p)
    for name in sorted(os.listdir(top)):
        if os.path.isfile(os.path.join(top, name)):
            found.setdefault(name, os.path.join(top, name))
    return [found[n] for n in sorted(found) if n in wanted]


def forward(source, root):
    """Writes root/results/results.json; returns what it says, for the log."""
    results = os.path.join(root, "results", "results.json")

    def not_graded(why, output=""):
        grade_remote.write_json(results, grade_remote.not_graded_results(why, output))
        return "NOT GRADED: " + why

    try:
        with open(os.path.join(source, "service.json"), encoding="utf-8") as f:
            conf = json.load(f)
        with open(os.path.join(source, "service-token"), encoding="utf-8") as f:
            token = f.read().strip()
    except (OSError, ValueError) as e:
        return not_graded("the autograder is not set up (%s); your instructor has to fix it and regrade" % e)
    try:
        student, group = student_id(os.path.join(root, "submission_metadata.json"), conf.get("student_key", "sid"))
    except (OSError, ValueError) as e:
        return not_graded("the autograder could not tell who submitted (%s); tell your instructor" % e)
    submission = os.path.join(root, "submission")
    try:
        paths = submitted_sources(submission, conf["lab_files"], conf.get("labs") or [])
        files = grade_remote.read_sources(paths)
    except (OSError, ValueError) as e:
        return not_graded("your submission could not be read: %s" % e)
    if not files:
        names = [n for lab, n in sorted(conf["lab_files"].items()) if not conf.get("labs") or lab in conf["labs"]]
        return not_graded("no lab source in your submission (expected %s, alone or in labs/NN-name/)" % ", ".join(names))

    print("forwarding %s for %s%s to %s" % (", ".join(f["name"] for f in files), student,
                                           " (a group: graded as its first member)" if group > 1 else "", conf["url"]),
          flush=True)
    service = grade_remote.Service(conf["url"], token, timeout=60, student=student)
    out = grade_remote.submit_and_wait(service, files, float(conf.get("wait_s", 600)), float(conf.get("poll_s", 2)),
                                       lambda t: print(t, flush=True), "your lab(s)")
    if out.kind == "done":
        sys.stdout.write(out.view.get("output") or "")
    grade_remote.write_json(results, grade_remote.outcome_results(out))
    return "graded" if out.kind == "done" and out.view.get("results") else "NOT GRADED: " + (out.message or "built only")


def main():
    p = argparse.ArgumentParser(description="Gradescope's run_autograder, through the course's grading service.")
    p.add_argument("--source", default=os.path.abspath(os.path.join(HERE, "..", "..")),
                   help="the bundle's folder (service.json, service-token)")
    p.add_argument("--root", default=os.environ.get("AUTOGRADER_ROOT", "/autograder"),
                   help="Gradescope's folder (submission/, submission_metadata.json, results/)")
    a = p.parse_args()
    results = os.path.join(a.root, "results", "results.json")
    try:
        try:
            said = forward(a.source, a.root)
        except (KeyError, TypeError, ValueError) as e:  # a malformed service.json or answer: still a result
            said = "NOT GRADED: the autograder failed (%r)" % e
            grade_remote.write_json(results, grade_remote.not_graded_results(
                "the autograder failed (%r); your instructor has to fix it and regrade" % e))
    except OSError as e:
        print("forward: cannot write %s: %s" % (results, e), file=sys.stderr)
        return 1
    print("forward: " + said, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
