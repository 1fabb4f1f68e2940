#!/usr/bin/env python3
"""Stands in for `grade` in the shared-queue test (postgres_test.py): a worker runs it as it runs grade
(--labs-dir DIR --results FILE ... --grade-arg=--log=FILE). It reads the submission's marker (a line
`// submission: NAME` in its file), logs "start NAME WORKER_PID" and, once done, "end NAME WORKER_PID" to
the shared log (one line each, appended whole), and writes a results.json that names the marker, so that
the test can tell which grading each stored result came from (without --log, as in a sandbox that cannot
write the test's folder, it only writes the results). A file with `// slow` takes 4 s, the others
0.2 s. Exit status 0, as grade's when every check passed.
"""
import json
import os
import re
import sys
import time


def log(path, line):
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, (line + "\n").encode())
    finally:
        os.close(fd)


def main():
    args = sys.argv[1:]
    labs_dir = args[args.index("--labs-dir") + 1]
    results = args[args.index("--results") + 1]
    log_path = next((a.split("=", 1)[1] for a in args if a.startswith("--log=")), None)
    text = ""
    for root, _, files in os.walk(labs_dir):
        for f in sorted(files):
            with open(os.path.join(root, f), encoding="utf-8") as fh:
                text += fh.read()
    m = re.search(r"// submission: (\S+)", text)
    name = m.group(1) if m else "?"
    worker = os.getppid()
    if log_path:
        log(log_path, "start %s %d" % (name, worker))
    print("building...\nchecking...", flush=True)
    time.sleep(4.0 if "// slow" in text else 0.2)
    os.makedirs(os.path.dirname(results), exist_ok=True)
    with open(results, "w", encoding="utf-8") as fh:
        json.dump({"score": 1, "marker": name, "tests": [{"name": "queue", "score": 1, "max_score": 1,
                                                          "status": "passed", "output": ""}]}, fh)
    print("Total: 1/1")
    if log_path:
        log(log_path, "end %s %d" % (name, worker))
    return 0


if __name__ == "__main__":
    sys.exit(main())
