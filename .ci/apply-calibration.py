#!/usr/bin/env python3
"""Writes measured reference figures into the rubric: for each "lab/check" of a calibration.json
(.ci/gpu-calibrate.sh, or the stability logs of .ci/gpu-validate.sh), the check's "reference" entry for
the GPU named on the command line becomes [lowest, highest]. Then run rubric_tables --write, which
regenerates the tables and refuses a margin under 25%.

    python3 .ci/apply-calibration.py "NVIDIA H100 80GB HBM3" calibration.json
    python3 .ci/apply-calibration.py "NVIDIA H200" build-gpu/validation/stable-*.log
"""
import glob, json, re, sys

gpu, sources = sys.argv[1], sys.argv[2:]
seen = {}
for src in sources:
    if src.endswith(".json"):
        for key, (lo, hi, _n) in json.load(open(src)).items():
            seen.setdefault(key, []).extend([lo, hi])
        continue
    lab = None
    for line in open(src):  # a grade log: "Lab NN (...): p/q ..." then "  - check: 1.23x ... (threshold ...)"
        m = re.match(r"Lab (\d\d) \(.*\): \d+/\d+", line)
        if m:
            lab = m.group(1)
        m = re.match(r"  - (.+): ([0-9]+(?:\.[0-9]+)?)\S* .*\(threshold", line)
        if m and lab:
            seen.setdefault(f"{lab}/{m.group(1)}", []).append(float(m.group(2)))
changed = 0
for path in sorted(glob.glob("autograder/labs/[0-9][0-9]-*/rubric.json")):
    rubric = json.load(open(path))
    for check in rubric["checks"]:
        values = seen.get(f"{rubric['id']}/{check['name']}")
        if values is None or "threshold" not in check:
            continue
        check.setdefault("reference", {})[gpu] = [min(values), max(values)]
        changed += 1
    open(path, "w").write(json.dumps(rubric, indent=2, ensure_ascii=False) + "\n")
print(f"{changed} reference figure(s) for {gpu} written")
