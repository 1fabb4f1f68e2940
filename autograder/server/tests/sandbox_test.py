"""The workers' sandbox, run for real (course-server sandbox-run: the sandbox, cgroup, rlimits and folder a
worker gives one grading, with a fresh copy of the build folder's writable parts, as a GPU worker's),
without a GPU.

1. A grading of a submission that carries a marker: its staged source and assembled file are written in
   the grading's own copies of the build folder's slots.
2. A probe in the next grading's sandbox tries what a submission's code must not do: write the build
   folder's shared programs (and the grader), find the earlier grading's sources or other slots' files,
   reach the network, read the database, the tokens or another worker's folder, replace its results
   file, start more processes than the limit, take more memory than the limit. Each must fail, and the
   host's build folder must be as it was.
3. A build-only grading of the starters in the sandbox says, lab by lab, what grade --labs-dir
   --allow-no-gpu says outside it.
"""
import argparse
import glob
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

MARKER = "MARKER-OF-ANOTHER-" + "STUDENT-7f3a"  # in two pieces: this file, in the course, does not hold it
MAX_PROCS = 64
MEMORY_MB = 512

# Runs inside the sandbox with the paths it must not reach; prints one JSON object: attempt -> outcome.
PROBE = r'''
import json, os, socket, sys, time
a = json.loads(sys.argv[1])
out = {}
def attempt(name, fn):
    try:
        got = fn()
        out[name] = "ALLOWED" + ("" if got is None else ": " + str(got)[:200])
    except Exception as e:
        out[name] = "refused: " + type(e).__name__ + ": " + str(e)[:200]

def append(p):
    with open(p, "ab") as f:
        f.write(b"corrupted")
for n, p in enumerate(a["shared"]):
    attempt("write shared program %d (%s)" % (n, os.path.basename(p)), lambda p=p: append(p))
attempt("make a file in the build folder", lambda: open(os.path.join(a["build"], "planted.txt"), "w").close())

def find_marker():
    found = []
    for root in [a["build"], "/submission", "/tmp", a["course"]]:
        for d, dirs, files in os.walk(root):
            for f in files:
                p = os.path.join(d, f)
                try:
                    if os.path.getsize(p) < 2 << 20 and a["marker"].encode() in open(p, "rb").read():
                        found.append(p)
                except OSError:
                    pass
    if found:
        return found
    raise LookupError("no file holds the marker")
attempt("read another grading's sources", find_marker)
for n, p in enumerate(a["secrets"]):
    attempt("read %s" % os.path.basename(p), lambda p=p: open(p, "rb").read(64))
for p in a["withheld"]:
    attempt("read the course's %s" % os.path.relpath(p, a["course"] if p.startswith(a["course"]) else a["build"]),
            lambda p=p: open(p, "rb").read(64))

def connect(host, port):
    s = socket.create_connection((host, port), timeout=3)
    s.close()
attempt("reach the host's loopback", lambda: connect("127.0.0.1", a["port"]))
attempt("reach the internet", lambda: connect("1.1.1.1", 53))

def replace_results():
    p = "/submission/out/results.json"
    os.rename(p, p + ".old")
    os.symlink(a["secrets"][0], p)
attempt("replace results.json by a link", replace_results)

def fork_many():
    pids = []
    try:
        for _ in range(4 * a["max_procs"]):
            pid = os.fork()
            if pid == 0:
                time.sleep(30)
                os._exit(0)
            pids.append(pid)
        return "%d processes started" % len(pids)
    finally:
        for pid in pids:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
attempt("start %d processes" % (4 * a["max_procs"]), fork_many)

def big_memory():
    pid = os.fork()
    if pid == 0:
        try:
            block = b"x" * (2 * a["memory_mb"] << 20)
            os._exit(0 if len(block) else 1)
        except MemoryError:
            os._exit(3)
    _, status = os.waitpid(pid, 0)
    if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0:
        return "%d MiB held" % (2 * a["memory_mb"])
    raise MemoryError("the child ended with status %d" % status)
attempt("hold %d MiB" % (2 * a["memory_mb"]), big_memory)
print(json.dumps(out))
'''


def check(cond, what):
    print(("ok:   " if cond else "FAIL: ") + what, flush=True)
    if not cond:
        check.failed = True


check.failed = False


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def lab_lines(output, labs_dir):
    lines = []
    for line in output.splitlines():
        line = re.sub(r"\S*/labs/(\d\d-)", r"<labs>/\1", line.replace(labs_dir, "<labs>"))
        if re.match(r"(Lab \d\d \(|  (passed|kernels|    |not run|note|compiler warning|warning))", line):
            lines.append(line)
    return lines


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--server", required=True)
    p.add_argument("--grade", required=True)
    p.add_argument("--build-dir", required=True)
    p.add_argument("--course", required=True)
    p.add_argument("--labs", required=True, help="the course's starters")
    args = p.parse_args()
    build = os.path.abspath(args.build_dir)
    started = time.monotonic()
    tmp = tempfile.mkdtemp(prefix="sandbox_test_")
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    try:
        # The class's data, and another worker's folder, beside the scratch folder as a server keeps them.
        secrets = [os.path.join(tmp, "class.sqlite"), os.path.join(tmp, "tokens.csv"),
                   os.path.join(tmp, "scratch", "gpu1", "labs", "01-sum-reduction", "sum_reduction.cu")]
        for s in secrets:
            os.makedirs(os.path.dirname(s), exist_ok=True)
            with open(s, "w") as f:
                f.write(MARKER + "\n")
        scratch = os.path.join(tmp, "scratch", "probe")
        base = [args.server, "--scratch", scratch, "--allow-no-gpu", "--build-dir", build, "--course", args.course,
                "--grade", args.grade, "--timeout", "600"]

        # 1. A grading whose submission carries the marker.
        marked = os.path.join(tmp, "marked")
        lab01 = next(d for d in sorted(os.listdir(args.labs)) if d.startswith("01-"))
        shutil.copytree(os.path.join(args.labs, lab01), os.path.join(marked, lab01))
        src = next(f for f in os.listdir(os.path.join(marked, lab01)) if f.endswith(".cu"))
        with open(os.path.join(marked, lab01, src)) as f:
            text = f.read()
        with open(os.path.join(marked, lab01, src), "w") as f:
            f.write(re.sub(r"(// BEGIN STUDENT REGION[^\n]*\n)", r"\1    // %s\n" % MARKER, text, count=1))
        r = subprocess.run(base + ["sandbox-run", "--labs", marked], capture_output=True, text=True, timeout=600)
        print(r.stderr.strip())
        check(r.returncode == 0 and "Lab 01" in r.stdout, "a grading of a marked submission ran (exit %d)" % r.returncode)
        staged = [os.path.join(d, f) for d, _, fs in os.walk(os.path.join(scratch, "sandbox-run.build")) for f in fs
                  if MARKER.encode() in open(os.path.join(d, f), "rb").read()]
        check(any("/grading/slots/" in s for s in staged) and any("/graded/" in s for s in staged),
              "its staged and assembled sources were in its own copies of the slots (%d files)" % len(staged))

        # 2. The probe, in the next grading's sandbox.
        graders = os.path.join(build, "graders")
        shared = [os.path.join(build, os.path.basename(args.grade)), os.path.join(build, "Makefile")]
        shared += [os.path.join(graders, f) for f in sorted(os.listdir(graders)) if f.endswith("_peer_host")]
        before = {s: digest(s) for s in shared if os.path.isfile(s)}
        # What a student release withholds, where the host has it: a correct and a known-wrong variant, a
        # reference solution, and the objects of the solution's code in the build folder.
        course = os.path.abspath(args.course)
        withheld = []
        for pattern in ("autograder/labs/*/correct/*.cu", "autograder/labs/*/wrong/*.cu", "solutions/*/*.cu"):
            withheld += sorted(glob.glob(os.path.join(course, pattern)))[:1]
        withheld += sorted(glob.glob(os.path.join(build, "autograder/labs/*/CMakeFiles/lab*_solution_code.dir/**/*.o"),
                                     recursive=True))[:1]
        check(len(withheld) >= 3, "the host has reference code to withhold (%d files)" % len(withheld))
        probe_args = {"build": build, "course": course, "shared": shared, "marker": MARKER, "secrets": secrets,
                      "withheld": withheld,
                      "port": listener.getsockname()[1], "max_procs": MAX_PROCS, "memory_mb": MEMORY_MB}
        limits = ["--max-procs", str(MAX_PROCS), "--memory-mb", str(MEMORY_MB)]  # small, for the probe alone
        r = subprocess.run(base + limits + ["--no-prepare", "sandbox-run", "--", "/usr/bin/python3", "-c", PROBE, json.dumps(probe_args)],
                           capture_output=True, text=True, timeout=300)
        print(r.stderr.strip())
        check(r.returncode == 0, "the probe ran in the sandbox (exit %d)" % r.returncode)
        try:
            outcomes = json.loads(r.stdout.strip().splitlines()[-1])
        except (ValueError, IndexError):
            outcomes = {}
            print(r.stdout)
        check(len(outcomes) == len(shared) + len(withheld) + 10, "the probe tried everything (%d attempts)" % len(outcomes))
        for what, how in outcomes.items():
            check(how.startswith("refused"), "%s: %s" % (what, how))
        check(all(digest(s) == d for s, d in before.items()), "the host's build programs are unchanged")
        check(not os.path.exists(os.path.join(build, "planted.txt")), "nothing was planted in the host's build folder")
        with open(os.path.join(scratch, "sandbox-run", "out", "results.json"), "rb") as f:
            check(MARKER.encode() not in f.read(), "the worker's results.json holds nothing of the probe's")

        # 3. A build-only grading of two starters, in the sandbox and outside it.
        starters = os.path.join(tmp, "starters")
        for d in sorted(os.listdir(args.labs)):
            if d[:3] in ("01-", "02-"):
                shutil.copytree(os.path.join(args.labs, d), os.path.join(starters, d))
        # What gradings share brought up to date first (as at a server's start), so that both time the same work.
        subprocess.run(base + ["sandbox-run", "--", "/bin/true"], capture_output=True, timeout=600)
        t = time.monotonic()
        inside = subprocess.run(base + ["--no-prepare", "sandbox-run", "--labs", starters], capture_output=True, text=True,
                                timeout=600)
        inside_s = time.monotonic() - t
        t = time.monotonic()
        outside = subprocess.run([args.grade, "--build-dir", build, "--labs-dir", starters, "--allow-no-gpu",
                                  "--lab", "01", "--lab", "02"], capture_output=True, text=True, timeout=600,
                                 env=dict(os.environ, CUDA_VISIBLE_DEVICES=""))
        outside_s = time.monotonic() - t
        a, b = lab_lines(inside.stdout, "/submission/labs"), lab_lines(outside.stdout, starters)
        check(inside.returncode == outside.returncode == 0 and a == b and len(a) >= 4,
              "the starters graded in the sandbox as outside it (exit %d and %d, %d lines)"
              % (inside.returncode, outside.returncode, len(a)))
        if a != b:
            print("in the sandbox:\n  " + "\n  ".join(a) + "\noutside:\n  " + "\n  ".join(b))
        print("figures: labs 01 and 02 built in the sandbox in %.1f s, outside it in %.1f s; the whole test %.0f s"
              % (inside_s, outside_s, time.monotonic() - started))
    finally:
        listener.close()
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if check.failed else 0


if __name__ == "__main__":
    sys.exit(main())
