#!/usr/bin/env python3
"""Runs the shared-speed test program (shared_speed_checks.cpp) the way the runner runs a lab program, with
a report channel, and asserts each check's record: a measurement that throws, or whose gate fails, is
recorded as the same failure in both checks that share it; a measurement that succeeds passes both.

    shared_speed_test.py PROGRAM
"""
import json, os, subprocess, sys

program = sys.argv[1]
read_fd, write_fd = os.pipe()
key = "shared-speed-test-key"
proc = subprocess.Popen([program, "--cpu-only", "--seed", "1", "--report-fd", str(write_fd)], stdin=subprocess.PIPE,
                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, pass_fds=(write_fd,))
os.close(write_fd)
out, _ = proc.communicate(key.encode() + b"\n")
records = os.fdopen(read_fd).read()
ends = {}
for line in records.splitlines():
    r = json.loads(line)
    assert r.get("key") == key, f"a record without the run's key: {line}"
    if r.get("event") == "end":
        ends[r["check"]] = r

expected = {
    "throw while timed, first check": ("crash", "not timing this"),
    "throw while timed, second check": ("crash", "not timing this"),
    "int thrown, first check": ("crash", "not a std::exception"),
    "int thrown, second check": ("crash", "not a std::exception"),
    "gate fails, first check": ("wrong_result", "the gate's result is wrong"),
    "gate fails, second check": ("wrong_result", "the gate's result is wrong"),
    "measured, first check": ("pass", ""),
    "measured, second check": ("pass", ""),
}
problems = []
for check, (cls, words) in expected.items():
    r = ends.get(check)
    if r is None:
        problems.append(f"{check}: no end record")
        continue
    passed = cls == "pass"
    if r["passed"] != passed or r["class"] != cls or words not in r["message"]:
        problems.append(f"{check}: got passed={r['passed']} class={r['class']} message={r['message']!r}; "
                        f"expected passed={passed} class={cls} with {words!r}")
if problems:
    print(out.decode(errors="replace"))
    print("\n".join(problems))
    sys.exit(1)
print(f"all {len(expected)} checks reported as expected")
