#!/usr/bin/env python3
"""The GitHub Classroom sample (autograder/classroom/classroom.yml) must not drift from the rubric.

Checks that the workflow has one command-grader step per lab of the rubric, each running
`build/grade --lab NN --labs-dir labs` with a max-score equal to the lab's points in
autograder/labs/NN-name/rubric.json (the checks' points plus the runner's items': the memory and race check,
shared-memory use and, in Lab 04, bank conflicts), after a step
that configures and builds the grader, on a self-hosted GPU runner, and that the reporter step
collects every grader step. Then checks that the check itself can fail: a copy of the workflow with
one max-score changed must be rejected.

    classroom_points.py [--workflow autograder/classroom/classroom.yml] [--rubric autograder/labs]
                        [--service autograder/classroom/classroom-service.yml] [--write]

Both workflows' per-lab parts (classroom.yml's grader steps and reporter, classroom-service.yml's
reporter) are generated from the rubrics, so that a lab is added by its own folders: --write rewrites
them; without it, a workflow whose generated part differs is a mismatch.

Python 3 standard library only (the workflow is read with a small parser for the YAML it uses).
Exit status: 0 as expected, 1 a mismatch (each is printed), 2 usage or unreadable input.
"""
import argparse
import pathlib
import re
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "remote"))
import classroom_results  # noqa: E402  (the lab's points, counted once)

GRADER = "classroom-resources/autograding-command-grader@v1"
REPORTER = "classroom-resources/autograding-grading-reporter@v1"
COMMAND = re.compile(r"^build/grade --lab (\d\d) --labs-dir labs$")


def rubric_points(rubric_dir):
    """{lab id: (points, title)} from every NN-name/rubric.json, as the service workflow counts them."""
    return classroom_results.rubric_labs(rubric_dir)


def unquote(v):
    v = v.strip()
    if len(v) >= 2 and v[0] == v[-1] and v[0] in "'\"":
        return v[1:-1]
    return v


def parse_steps(text):
    """The job's steps (the list under 'steps:'), each a dict of its keys; 'with' and 'env' are dicts
    of their own, a block scalar (run: |) is its lines joined."""
    lines = text.splitlines()
    start = next((i for i, l in enumerate(lines) if l.strip() == "steps:"), None)
    if start is None:
        return []
    base = len(lines[start]) - len(lines[start].lstrip(" "))
    steps, step, item_indent, sub, block = [], None, None, None, None
    for raw in lines[start + 1:]:
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        indent = len(raw) - len(raw.lstrip(" "))
        line = raw.strip()
        if indent <= base:
            break  # past the steps
        if block and indent > block[1]:
            step[block[0]] += line + "\n"
            continue
        block = None
        if line.startswith("- ") and (item_indent is None or indent == item_indent):
            item_indent = indent
            step, sub = {}, None
            steps.append(step)
            line = line[2:].strip()
            indent += 2
        if step is None:
            continue
        m = re.match(r"^([A-Za-z0-9_.-]+):\s*(.*)$", line)
        if not m:
            continue
        key, value = m.group(1), m.group(2)
        if sub and indent > sub[1]:
            step[sub[0]][key] = unquote(value)
            continue
        sub = None
        if value == "" and key in ("with", "env"):
            step[key] = {}
            sub = (key, indent)
        elif value in ("|", ">", "|-", ">-"):
            step[key] = ""
            block = (key, indent)
        else:
            step[key] = unquote(value)
    return steps


def check(text, labs):
    """The list of mismatches between the workflow text and the rubric's labs."""
    bad = []
    if not re.search(r"runs-on:\s*\[\s*self-hosted\s*,\s*gpu\s*\]", text):
        bad.append("the job does not run on [self-hosted, gpu]")
    steps = parse_steps(text)
    if not steps:
        return bad + ["no steps found"]
    graders = [s for s in steps if s.get("uses") == GRADER]
    reporters = [s for s in steps if s.get("uses") == REPORTER]
    seen = {}
    for s in graders:
        w = s.get("with", {})
        sid = s.get("id")
        m = COMMAND.match(w.get("command", ""))
        if not sid:
            bad.append(f"grader step '{s.get('name')}' has no id")
        if not m:
            bad.append(f"grader step '{s.get('name')}': command '{w.get('command')}' is not "
                       "'build/grade --lab NN --labs-dir labs'")
            continue
        lab = m.group(1)
        if lab in seen:
            bad.append(f"lab {lab} is graded by two steps")
        seen[lab] = sid
        if lab not in labs:
            bad.append(f"step '{sid}' grades lab {lab}, which the rubric does not have")
            continue
        try:
            score = float(w.get("max-score", ""))
        except ValueError:
            bad.append(f"step '{sid}' (lab {lab}) has no numeric max-score: '{w.get('max-score')}'")
            continue
        if score != labs[lab][0]:
            bad.append(f"step '{sid}' (lab {lab}): max-score {w.get('max-score')}, but the rubric gives "
                       f"lab {lab} {labs[lab][0]} points")
    for lab in sorted(set(labs) - set(seen)):
        bad.append(f"lab {lab} ({labs[lab][1]}, {labs[lab][0]} points) has no grader step")
    # The grader must exist before the first lab's step runs.
    first = next((i for i, s in enumerate(steps) if s.get("uses") == GRADER), len(steps))
    if not any("cmake -S" in s.get("run", "") and "--build" in s.get("run", "") for s in steps[:first]):
        bad.append("no step configures and builds the grader (cmake -S ... and cmake --build) before the labs")
    if len(reporters) != 1:
        bad.append(f"{len(reporters)} reporter steps ({REPORTER}), expected 1")
    else:
        rep = reporters[0]
        runners = [r.strip() for r in rep.get("with", {}).get("runners", "").split(",") if r.strip()]
        ids = [s.get("id") for s in graders if s.get("id")]
        if sorted(runners) != sorted(ids):
            bad.append(f"the reporter's runners {runners} are not the grader steps {ids}")
        env = rep.get("env", {})
        for sid in ids:
            want = "${{steps.%s.outputs.result}}" % sid
            got = env.get(f"{sid.upper()}_RESULTS", "").replace(" ", "")
            if got != want:
                bad.append(f"the reporter's env {sid.upper()}_RESULTS is '{got}', expected '{want}'")
    return bad


def lab_steps(labs):
    """classroom.yml's part from the first lab's step on: a command-grader step a lab, then the reporter."""
    out = []
    for lab, (points, title) in sorted(labs.items()):
        out += [f"      - name: Lab {lab} ({title})",
                f"        id: lab-{lab}",
                f"        uses: {GRADER}",
                "        with:",
                f"          test-name: Lab {lab} ({title})",
                "          setup-command: ''",
                f"          command: build/grade --lab {lab} --labs-dir labs",
                "          timeout: 20",
                f"          max-score: {points:g}"]
    return "\n".join(out) + "\n" + reporter(labs, "steps.lab-%s.outputs.result")


def reporter(labs, output):
    """The reporter step, collecting each lab's result from @p output ("steps.lab-%s.outputs.result")."""
    out = ["      - name: Autograding Reporter", f"        uses: {REPORTER}", "        env:"]
    out += [f'          LAB-{lab}_RESULTS: "${{{{{output % lab}}}}}"' for lab in sorted(labs)]
    out += ["        with:", "          runners: " + ",".join(f"lab-{lab}" for lab in sorted(labs))]
    return "\n".join(out) + "\n"


def generated(text, marker, part):
    """@p text with everything from the line that starts with @p marker replaced by @p part; None when absent."""
    lines = text.splitlines(keepends=True)
    at = next((i for i, l in enumerate(lines) if l.startswith(marker)), None)
    return None if at is None else "".join(lines[:at]) + part


def main():
    root = pathlib.Path(__file__).resolve().parents[2]
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workflow", default=root / "autograder/classroom/classroom.yml")
    ap.add_argument("--rubric", default=root / "autograder/labs")
    ap.add_argument("--service", help="the service's workflow (default: classroom-service.yml beside --workflow)")
    ap.add_argument("--write", action="store_true", help="rewrite both workflows' per-lab parts from the rubrics")
    args = ap.parse_args()
    service = pathlib.Path(args.service or pathlib.Path(args.workflow).with_name("classroom-service.yml"))
    try:
        text = pathlib.Path(args.workflow).read_text()
        service_text = service.read_text()
        labs = rubric_points(args.rubric)
    except (OSError, ValueError, KeyError) as e:
        print(f"classroom_points: cannot read the workflow or the rubric: {e}")
        return 2
    if not labs:
        print(f"classroom_points: no NN-name/rubric.json under {args.rubric}")
        return 2

    parts = {pathlib.Path(args.workflow): generated(text, "      - name: Lab ", lab_steps(labs)),
             service: generated(service_text, "      - name: Autograding Reporter",
                                reporter(labs, "steps.grade.outputs.lab-%s"))}
    bad = []
    for path, want in parts.items():
        if want is None:
            bad.append(f"{path}: no lab steps or reporter step to generate")
        elif want != path.read_text():
            if args.write:
                path.write_text(want)
                print(f"classroom_points: rewrote {path}")
            else:
                bad.append(f"{path}: its per-lab steps are out of date with the rubrics; run classroom_points.py --write")
    if args.write:
        text = pathlib.Path(args.workflow).read_text()
    bad += check(text, labs)
    for b in bad:
        print(f"classroom_points: MISMATCH: {b}")
    if bad:
        return 1
    print(f"classroom_points: {len(labs)} labs, each step's max-score equals its rubric's points: "
          + ", ".join(f"{k}={v[0]:g}" for k, v in sorted(labs.items())))

    # The check must be able to fail: one max-score off by one is found.
    lab, (points, _) = sorted(labs.items())[0]
    drifted = re.sub(r"(command: build/grade --lab %s --labs-dir labs\n(?:.*\n)*?\s*max-score:\s*)(\S+)" % lab,
                     lambda m: m.group(1) + f"{points + 1:g}", text, count=1)
    if drifted == text or not check(drifted, labs):
        print("classroom_points: FAILED: a copy with lab %s's max-score changed was not rejected" % lab)
        return 1
    print(f"classroom_points: a copy with lab {lab}'s max-score changed is rejected, as it must be")
    # ... and a lab added to the rubrics leaves both workflows out of date until they are rewritten.
    more = dict(labs)
    more["99"] = (1, "A lab added by its folders")
    if generated(text, "      - name: Lab ", lab_steps(more)) == text or \
            generated(service_text, "      - name: Autograding Reporter", reporter(more, "steps.grade.outputs.lab-%s")) == service_text:
        print("classroom_points: FAILED: a rubric with one more lab leaves a workflow as it is")
        return 1
    print("classroom_points: one more lab in the rubrics makes both workflows out of date, as it must")
    return 0


if __name__ == "__main__":
    sys.exit(main())
