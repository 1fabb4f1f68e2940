#!/usr/bin/env python3
"""The service on several hosts: one PostgreSQL database as the queue of a server without workers and of two
`course-server worker` processes (two hosts' worth), all started for real on loopback.

    postgres_test.py --server course-server --stub queue_grade_stub.py [--units course_service_tests]
                     [--submissions 100] [--keep]

A PostgreSQL server is made for the test from Debian's packages (initdb, postgres; as nobody when run as
root, which PostgreSQL refuses). 100 students submit one lab each through the HTTP API; the workers grade
them with a stand-in for grade (queue_grade_stub.py), which logs each grading's start and end. One
submission takes 4 s: while it is graded, its worker is killed with SIGKILL. Checked: every submission
ends graded, each exactly once (one attempt 'graded', its result the one its grading wrote), the killed
worker's submission after its lease ran out (a second attempt, by the other worker), and both workers
took part. Prints the time the queue took to drain. With --units, the store's own tests
(course_service_tests) run first on PostgreSQL, each on an empty database.
"""
import argparse
import glob
import json
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

ARGS = None


class Failed(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Failed(what)
    print("ok:", what, flush=True)


def pg_bin(name):
    found = shutil.which(name)
    if found:
        return found
    for d in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if os.path.exists(os.path.join(d, name)):
            return os.path.join(d, name)
    raise Failed("PostgreSQL's %s was not found (Debian: postgresql; .ci/install-deps installs it)" % name)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Postgres:
    """A PostgreSQL server of the test's own, in @p root, on 127.0.0.1."""

    def __init__(self, root):
        self.root = root
        self.data = os.path.join(root, "pg")
        self.sock = os.path.join(root, "pg-socket")
        self.port = free_port()
        self.proc = None
        # PostgreSQL does not run as root: there it runs as nobody, in folders of nobody's.
        self.as_user = []
        if os.geteuid() == 0:
            nobody = pwd.getpwnam("nobody")
            os.chmod(root, 0o755)
            for d in (self.data, self.sock):
                os.makedirs(d)
                os.chown(d, nobody.pw_uid, nobody.pw_gid)
            self.as_user = ["setpriv", "--reuid=%d" % nobody.pw_uid, "--regid=%d" % nobody.pw_gid, "--clear-groups", "--"]
        else:
            os.makedirs(self.sock)

    def start(self):
        subprocess.run(self.as_user + [pg_bin("initdb"), "-D", self.data, "-U", "course", "--auth=trust", "-E", "UTF8",
                                       "--no-sync"], check=True, capture_output=True, cwd="/")
        log = open(os.path.join(self.root, "postgres.log"), "w")
        self.proc = subprocess.Popen(self.as_user + [pg_bin("postgres"), "-D", self.data, "-p", str(self.port), "-k", self.sock,
                                                     "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off",
                                                     "-c", "max_connections=50"],
                                     stdout=log, stderr=subprocess.STDOUT, cwd="/")
        end = time.monotonic() + 60
        while time.monotonic() < end:
            r = subprocess.run([pg_bin("psql"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "course", "-d", "postgres",
                                "-c", "SELECT 1"], capture_output=True, text=True)
            if r.returncode == 0:
                break
            time.sleep(0.2)
        else:
            raise Failed("PostgreSQL did not start (see %s)" % log.name)
        subprocess.run([pg_bin("psql"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "course", "-d", "postgres", "-c",
                        "CREATE DATABASE class"], check=True, capture_output=True)
        return "postgresql://course@127.0.0.1:%d/class" % self.port

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)  # fast shutdown
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()


def call(url, method, path, token, body=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url + path, data=data, method=method)
    req.add_header("Authorization", "Bearer " + token)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=60) as res:
            return res.status, json.loads(res.read().decode())
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def start_logged(cmd, log_path, ready):
    log = open(log_path, "w")
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=log, text=True)
    line = proc.stdout.readline()
    m = re.match(ready, line)
    if not m:
        proc.kill()
        raise Failed("%s did not start (got %r; see %s)" % (cmd[1] if len(cmd) > 1 else cmd[0], line, log_path))
    threading.Thread(target=proc.stdout.read, daemon=True).start()
    return proc, m


def log_lines(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [line.split() for line in f if line.strip()]


# The store's own tests (course_service_tests) whose store can be PostgreSQL: each against an empty database.
STORE_TESTS = [
    "the store keeps a retry once, one queued submission a lab, and the hourly limit",
    "the same files after a submission was not graded are a new try, not the old failure",
    "a session is found by its id's hash until it expires or ends",
    "a result keeps its report.html, which only its student (or the instructor) gets",
    "the ranking takes each student's best correct figure against the library, under a pseudonym",
    "workers take a fair share between students before the order of arrival",
]


def store_tests(pg, url):
    for k, name in enumerate(STORE_TESTS):
        db = "units%d" % k
        subprocess.run([pg_bin("psql"), "-h", "127.0.0.1", "-p", str(pg.port), "-U", "course", "-d", "postgres", "-c",
                        "CREATE DATABASE " + db], check=True, capture_output=True)
        env = dict(os.environ, COURSE_TEST_POSTGRES=url.rsplit("/", 1)[0] + "/" + db)
        r = subprocess.run([ARGS.units, "--test-case=" + name.replace(",", "?")], env=env, capture_output=True, text=True)
        if r.returncode != 0 or "1 passed" not in r.stdout:
            raise Failed("the store test %r on PostgreSQL:\n%s%s" % (name, r.stdout[-3000:], r.stderr[-1000:]))
    check(True, "the store's tests on PostgreSQL: %d of %d pass" % (len(STORE_TESTS), len(STORE_TESTS)))


def run(tmp):
    pg = Postgres(tmp)
    procs = []
    try:
        url = pg.start()
        if ARGS.units:
            store_tests(pg, url)
        n = ARGS.submissions
        students = ["s%03d" % i for i in range(n)]
        with open(os.path.join(tmp, "roster.csv"), "w") as f:
            f.write("student\n" + "".join(s + "\n" for s in students))
        out = subprocess.run([ARGS.server, "tokens", "--roster", os.path.join(tmp, "roster.csv"), "--out",
                              os.path.join(tmp, "tokens.csv")], capture_output=True, text=True, check=True)
        tokens = dict((line.split(",")[0], line.split(",")[2]) for line in out.stdout.splitlines()[1:])
        grading_log = os.path.join(tmp, "gradings.log")
        common = ["--db", url, "--no-prepare", "--sandbox", "none", "--grade", ARGS.stub, "--lease", "3",
                  "--grade-arg=--log=" + grading_log]
        server, m = start_logged([ARGS.server] + common + ["--tokens", os.path.join(tmp, "tokens.csv"), "--listen",
                                                           "127.0.0.1:0", "--workers", "0", "--per-hour", "1000",
                                                           "--scratch", os.path.join(tmp, "server-work")],
                                 os.path.join(tmp, "server.log"), r"listening on (http://127\.0\.0\.1:\d+)")
        procs.append(server)
        base = m.group(1)
        workers = []
        for k in range(2):
            w, _ = start_logged([ARGS.server, "worker"] + common + ["--allow-no-gpu", "--workers", "1", "--scratch",
                                                                   os.path.join(tmp, "worker-%d" % k)],
                                os.path.join(tmp, "worker-%d.log" % k), r"worker ready")
            workers.append(w)
            procs.append(w)

        # Every student submits Lab 01 once, from 8 clients at a time; submission 40 is the slow one.
        slow = students[40 % n]
        ids = {}
        lock = threading.Lock()
        start = time.monotonic()

        def submit(chunk):
            for s in chunk:
                content = "// submission: %s\n%s" % (s, "// slow\n" if s == slow else "")
                status, body = call(base, "POST", "/api/submissions", tokens[s],
                                    {"files": [{"name": "sum_reduction.cu", "content": content}]})
                if status not in (200, 201, 202):
                    raise Failed("submission of %s refused: %s %s" % (s, status, body))
                with lock:
                    ids[s] = body["id"]

        threads = [threading.Thread(target=submit, args=(students[i::8],)) for i in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        check(len(ids) == n and len(set(ids.values())) == n, "%d submissions stored, each with its own id" % n)

        # Kill the worker that grades the slow one, mid-grading.
        end = time.monotonic() + 120
        victim = None
        while time.monotonic() < end and victim is None:
            for parts in log_lines(grading_log):
                if parts[0] == "start" and parts[1] == slow:
                    victim = int(parts[2])
            time.sleep(0.1)
        check(victim in [w.pid for w in workers], "a worker process took the slow submission (pid %s)" % victim)
        os.kill(victim, signal.SIGKILL)
        killed_at = time.time()
        survivor = [w for w in workers if w.pid != victim][0]

        # Every submission graded.
        end = time.monotonic() + 300
        states = {}
        while time.monotonic() < end:
            status, listed = call(base, "GET", "/api/submissions", tokens["instructor"])
            states = {v["id"]: v["state"] for v in listed}
            if all(states.get(i) in ("done", "not_graded") for i in ids.values()):
                break
            time.sleep(0.5)
        drained = time.monotonic() - start
        check(all(states.get(i) == "done" for i in ids.values()),
              "every submission ends graded (%s)" % sorted(set(states.values())))

        worker_names = set()
        for s, i in ids.items():
            status, v = call(base, "GET", "/api/submissions/%d" % i, tokens["instructor"])
            graded = [a for a in v["attempt_log"] if a["outcome"] == "graded"]
            if len(graded) != 1 or v["results"].get("marker") != s:
                raise Failed("submission %d of %s: %d graded attempts, result of %r" % (i, s, len(graded), v["results"].get("marker")))
            worker_names.add(graded[0]["worker"])
            if s == slow:
                slow_view = v
        print("ok: each submission graded exactly once, with its own grading's result")
        log = slow_view["attempt_log"]
        check(len(log) == 2 and log[0]["outcome"].startswith("interrupted: its worker stopped renewing its claim")
              and log[1]["outcome"] == "graded" and log[0]["worker"] != log[1]["worker"],
              "the killed worker's submission: its lease ran out, the other worker graded it (%s)" %
              [(a["worker"], a["outcome"]) for a in log])
        check(len(worker_names) == 2, "both worker processes graded submissions (%s)" % sorted(worker_names))
        starts = {}
        for parts in log_lines(grading_log):
            if parts[0] == "start":
                starts[parts[1]] = starts.get(parts[1], 0) + 1
        check(all(starts.get(s, 0) == (2 if s == slow else 1) for s in students),
              "each grading started once (the killed one twice)")
        check(survivor.poll() is None and server.poll() is None, "the server and the other worker still run")

        # What the server answers from the shared database besides the queue.
        first = students[0]
        status, again = call(base, "POST", "/api/submissions", tokens[first],
                             {"files": [{"name": "sum_reduction.cu", "content": "// submission: %s\n" % first}]})
        check(status == 200 and again["duplicate"] and again["id"] == ids[first], "the same upload again is stored once")
        status, _ = call(base, "GET", "/api/submissions/%d" % ids[first], tokens[students[1]])
        check(status == 404, "another student's submission is not shown")
        status, book = call(base, "GET", "/api/gradebook", tokens["instructor"])
        check(status == 200 and len(book["students"]) == n, "the gradebook has a row a student")
        print("figures: %d submissions through 2 workers on PostgreSQL drained in %.1f s; the killed worker's "
              "submission claimed again %.1f s after the kill (lease 3 s)" % (n, drained, log[1]["started"] - killed_at), flush=True)
    finally:
        for p in procs:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
                try:
                    p.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    p.kill()
        pg.stop()


def main():
    global ARGS
    p = argparse.ArgumentParser()
    p.add_argument("--server", required=True)
    p.add_argument("--stub", required=True)
    p.add_argument("--submissions", type=int, default=100)
    p.add_argument("--units", help="course_service_tests, to run the store's tests on PostgreSQL too")
    p.add_argument("--keep", action="store_true", help="keep the test's folder")
    ARGS = p.parse_args()
    tmp = tempfile.mkdtemp(prefix="course-pg-")
    try:
        run(tmp)
    except Failed as e:
        print("FAILED:", e, "(logs in %s)" % tmp, file=sys.stderr)
        for name in ("server.log", "worker-0.log", "worker-1.log", "postgres.log"):
            path = os.path.join(tmp, name)
            if os.path.exists(path):
                with open(path) as f:
                    print("--- %s (end)\n%s" % (name, f.read()[-3000:]), file=sys.stderr)
        ARGS.keep = True
        return 1
    finally:
        if not ARGS.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
