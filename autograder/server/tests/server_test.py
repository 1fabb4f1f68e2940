#!/usr/bin/env python3
"""course-server started for real on loopback, with build-only workers (--allow-no-gpu), and driven over
HTTP and through the remote client. One case a run:

    server_test.py CASE --server course-server --grade grade --client grade_remote.py --labs LABS

life_of_a_submission  the starters and a lab that does not compile, through the client: the same table and
                      exit status as grade --labs-dir --allow-no-gpu gives here; the gradebook
refusals              every bad request a 4xx with a message and nothing stored; tokens in no log
restart_and_kill      a restart with submissions queued and running (SIGTERM, then kill -9 of the server),
                      kill -9 of a grading process, twice: each submission graded exactly once, or not graded
load                  50 clients, 4 submissions each, at once, graded by a stand-in for grade (the service is
                      what is loaded): every one stored, graded once and answered with its own result; p50/p95
"""
import argparse
import json
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

ARGS = None
LAB01 = "01-sum-reduction"
LAB01_FILE = "sum_reduction.cu"


class Failed(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Failed(what)


class Server:
    """One course-server process in a folder of its own (database, tokens, logs)."""

    def __init__(self, root, students, extra=(), grade=None):
        self.root = root
        self.extra = list(extra)
        self.grade = grade or ARGS.grade
        self.tokens = {}
        self.proc = None
        self.url = None
        self.starts = 0
        with open(os.path.join(root, "roster.csv"), "w") as f:
            f.write("student\n" + "".join(s + "\n" for s in students))
        out = subprocess.run([ARGS.server, "tokens", "--roster", os.path.join(root, "roster.csv"), "--out",
                              os.path.join(root, "tokens.csv")], capture_output=True, text=True, check=True)
        for line in out.stdout.splitlines()[1:]:
            ident, _, token = line.split(",")
            self.tokens[ident] = token
        check(len(self.tokens) == len(students) + 1, "one token a student and one for the instructor")

    def start(self, port=0):
        self.starts += 1
        log = open(os.path.join(self.root, "server-%d.log" % self.starts), "w")
        cmd = [ARGS.server, "--db", os.path.join(self.root, "class.sqlite"), "--tokens",
               os.path.join(self.root, "tokens.csv"), "--listen", "127.0.0.1:%d" % port, "--allow-no-gpu",
               "--grade", self.grade, "--no-prepare"] + self.extra
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=log, text=True)
        line = self.proc.stdout.readline()
        m = re.match(r"listening on (http://127\.0\.0\.1:\d+)", line)
        check(m, "the server says where it listens (got %r; see %s)" % (line, log.name))
        self.url = m.group(1)
        threading.Thread(target=self.proc.stdout.read, daemon=True).start()

    def stop(self, sig=signal.SIGTERM):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(sig)
            self.proc.wait(timeout=60)

    def logs(self):
        text = ""
        for name in sorted(os.listdir(self.root)):
            if name.startswith("server-") and name.endswith(".log"):
                with open(os.path.join(self.root, name)) as f:
                    text += f.read()
        return text

    def call(self, method, path, who=None, body=None, raw=None, headers=None):
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        req = urllib.request.Request(self.url + path, data=data, method=method)
        if who:
            req.add_header("Authorization", "Bearer " + self.tokens.get(who, who))
        if data is not None:
            req.add_header("Content-Type", "application/json")
        for k, v in (headers or {}).items():
            req.add_header(k, v)
        try:
            with urllib.request.urlopen(req, timeout=60) as res:
                text = res.read().decode()
                return res.status, (json.loads(text) if "json" in res.headers.get("Content-Type", "") else text)
        except urllib.error.HTTPError as e:
            text = e.read().decode()
            try:
                return e.code, json.loads(text)
            except ValueError:
                return e.code, text

    def submit(self, who, files):
        return self.call("POST", "/api/submissions", who, {"files": [{"name": n, "content": c} for n, c in files]})

    def view(self, sub_id):
        status, v = self.call("GET", "/api/submissions/%d" % sub_id, "instructor")
        check(status == 200, "the instructor sees submission %d" % sub_id)
        return v

    def wait_state(self, sub_id, states, timeout=300):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            v = self.view(sub_id)
            if v["state"] in states:
                return v
            time.sleep(0.2)
        raise Failed("submission %d did not reach %s in %d s (it is %s)" % (sub_id, states, timeout, v["state"]))

    def db_counts(self):
        db = sqlite3.connect(os.path.join(self.root, "class.sqlite"))
        try:
            return tuple(db.execute("SELECT COUNT(*) FROM " + t).fetchone()[0] for t in ("submissions", "files"))
        finally:
            db.close()


def starter(lab_dir, name, variant=None, in_region=False):
    """A starter's text; a variant differs by a comment, inside the first student region (the graded
    program changes, so it is compiled again) or after the file's end (it does not)."""
    with open(os.path.join(ARGS.labs, lab_dir, name), encoding="utf-8") as f:
        text = f.read()
    if variant is None:
        return text
    if in_region:
        return re.sub(r"(// BEGIN STUDENT REGION[^\n]*\n)", r"\1    // variant %s\n" % variant, text, count=1)
    return text + "\n// variant %s\n" % variant


def run_client(server, who, labs_dir, *extra):
    token_file = os.path.join(server.root, who + ".token")
    with open(token_file, "w") as f:
        f.write(server.tokens[who] + "\n")
    env = {"PATH": "/usr/bin:/bin"}  # no CUDA Toolkit on the client's side
    return subprocess.run([sys.executable, ARGS.client, "--remote", server.url, "--token-file", token_file,
                           "--labs-dir", labs_dir, "--poll", "0.3"] + list(extra),
                          capture_output=True, text=True, env=env, timeout=600)


def local_dry_run(labs_dir, *labs):
    cmd = [ARGS.grade, "--labs-dir", labs_dir, "--allow-no-gpu"]
    for lab in labs:
        cmd += ["--lab", lab]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=900, env=dict(os.environ, CUDA_VISIBLE_DEVICES=""))


def lab_lines(output, labs_dir):
    """What a grading said of each lab, with the submission's folder named alike wherever it was graded."""
    lines = []
    for line in output.splitlines():
        line = re.sub(r"\S*/labs/(\d\d-)", r"<labs>/\1", line.replace(labs_dir, "<labs>"))
        if re.match(r"(Lab \d\d \(|  (passed|kernels|    |not run|note|compiler warning|warning))", line):
            lines.append(line)
    return lines


def graded_once(v):
    outcomes = [a["outcome"] for a in v["attempt_log"]]
    return outcomes.count("graded") == 1 and v["state"] == "done"


# --- The cases ---------------------------------------------------------------------------------------

def life_of_a_submission(tmp):
    srv = Server(tmp, ["ada", "bob"], ["--workers", "2"])
    srv.start()
    try:
        # Ada's starters, every lab, as the student has them.
        labs = len([d for d in os.listdir(ARGS.labs) if len(d) > 3 and d[:2].isdigit() and d[2] == "-"])
        ada = run_client(srv, "ada", ARGS.labs)
        check("submission" in ada.stdout and "building..." in ada.stdout, "the client shows its progress:\n" + ada.stdout)
        local = local_dry_run(ARGS.labs)
        print("remote exit %d, local exit %d" % (ada.returncode, local.returncode))
        check(ada.returncode == local.returncode == 0, "every starter compiles, remotely and here")
        remote_lines, local_lines = lab_lines(ada.stdout, ARGS.labs), lab_lines(local.stdout, ARGS.labs)
        check(len(remote_lines) >= labs > 0 and remote_lines == local_lines,
              "the remote table is the local one:\n%s\n--- local ---\n%s" % ("\n".join(remote_lines), "\n".join(local_lines)))

        # Bob's Lab 01 does not compile.
        broken = os.path.join(tmp, "bob-labs")
        os.makedirs(os.path.join(broken, LAB01))
        with open(os.path.join(broken, LAB01, LAB01_FILE), "w") as f:
            f.write(starter(LAB01, LAB01_FILE).replace("// BEGIN STUDENT REGION block_sum_kernel\n",
                                                       "// BEGIN STUDENT REGION block_sum_kernel\n    this does not compile;\n", 1))
        bob = run_client(srv, "bob", broken, "--lab", "01")
        local = local_dry_run(broken, "01")
        check(bob.returncode == local.returncode == 1, "a lab that does not compile fails remotely and here (%d, %d)"
              % (bob.returncode, local.returncode))
        check("DOES NOT COMPILE" in bob.stdout, "the client prints the class:\n" + bob.stdout)
        check(lab_lines(bob.stdout, broken) == lab_lines(local.stdout, broken),
              "the same lines as here:\n%s\n--- local ---\n%s" % (bob.stdout, local.stdout))

        # What is stored is what the client printed; the gradebook has both students.
        status, mine = srv.call("GET", "/api/submissions", "bob")
        check(status == 200 and len(mine) == 1 and mine[0]["student"] == "bob", "bob sees his one submission only")
        v = srv.view(mine[0]["id"])
        check(v["output"] in bob.stdout and graded_once(v), "the stored table is the printed one, graded once")
        status, csv = srv.call("GET", "/api/gradebook?format=csv", "instructor")
        print(csv)
        rows = {line.split(",")[0]: line for line in csv.splitlines()[1:]}
        check(status == 200 and rows["ada"].count("compiles") == labs, "ada's %d labs compile in the gradebook" % labs)
        check("does_not_compile" in rows["bob"], "bob's Lab 01 does not compile in the gradebook")
    finally:
        srv.stop()


def refusals(tmp):
    srv = Server(tmp, ["ada", "bob"], ["--workers", "1", "--per-hour", "3", "--max-body", "200000"])
    srv.start()
    try:
        ok = [(LAB01_FILE, starter(LAB01, LAB01_FILE))]
        status, first = srv.submit("ada", ok)
        check(status == 202, "a good upload is stored (%d %s)" % (status, first))
        baseline = srv.db_counts()

        def refused(what, status, answer, expect):
            print("%-48s -> %d %s" % (what, status, answer.get("error") if isinstance(answer, dict) else answer))
            check(status == expect, "%s: expected %d, got %d" % (what, expect, status))
            check(isinstance(answer, dict) and answer.get("error"), what + ": a message says why")
            check(srv.db_counts() == baseline, what + ": nothing stored")

        refused("no token", *srv.call("POST", "/api/submissions", None, {"files": []}), 401)
        refused("a wrong token", *srv.submit("0" * 64, ok), 401)
        refused("a token in the URL, none in the header",
                *srv.call("POST", "/api/submissions?token=" + srv.tokens["ada"], None, {"files": []}), 401)
        refused("the instructor's token submitting", *srv.submit("instructor", ok), 403)
        refused("another student's submission", *srv.call("GET", "/api/submissions/%d" % first["id"], "bob"), 404)
        refused("a student asking for the gradebook", *srv.call("GET", "/api/gradebook", "ada"), 403)
        refused("a body over the limit", *srv.submit("ada", [(LAB01_FILE, "x" * 300000)]), 413)
        refused("a name with '/'", *srv.submit("ada", [("../" + LAB01_FILE, "x")]), 400)
        refused("a name with '..'", *srv.submit("ada", [("..sum_reduction.cu", "x")]), 400)
        refused("a name with NUL", *srv.submit("ada", [("sum_reduction.cu\0.txt", "x")]), 400)
        refused("a file that is no lab's source", *srv.submit("ada", [("evil.cu", "x")]), 400)
        refused("an unknown lab's file", *srv.submit("ada", [("lab42.cu", "x")]), 400)
        raw = b'{"files": [{"name": "sum_reduction.cu", "content": "\xff\xfe"}]}'
        refused("text that is not UTF-8", *srv.call("POST", "/api/submissions", "ada", raw=raw), 400)
        refused("malformed JSON", *srv.call("POST", "/api/submissions", "ada", raw=b'{"files": [{"name": '), 400)
        refused("malformed multipart", *srv.call("POST", "/api/submissions", "ada", raw=b"--boundary\r\n",
                                                 headers={"Content-Type": "multipart/form-data; boundary=boundary"}), 400)
        refused("a body that is not JSON", *srv.call("POST", "/api/submissions", "ada", raw=b"files",
                                                     headers={"Content-Type": "text/plain"}), 415)

        # A client that disconnects in the middle of its upload: nothing stored.
        host, port = srv.url[len("http://"):].split(":")
        with socket.create_connection((host, int(port))) as s:
            s.sendall(("POST /api/submissions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\n"
                       "Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n" % srv.tokens["ada"]).encode()
                      + b'{"files": [{"name": "sum_reduction.cu", "content": "' + b"x" * 1000)
        time.sleep(1)
        check(srv.db_counts() == baseline, "a client gone mid-upload: nothing stored")

        # The same upload again (a retry) is the same submission; the hourly limit counts stored ones.
        status, again = srv.submit("ada", ok)
        check(status == 200 and again["duplicate"] and again["id"] == first["id"], "a retry is stored once")
        check(srv.db_counts() == baseline, "a retry stores nothing new")
        for n in (1, 2):
            status, _ = srv.submit("ada", [(LAB01_FILE, starter(LAB01, LAB01_FILE, "rate %d" % n))])
            check(status == 202, "submission %d of the hour is stored" % (n + 1))
        baseline = srv.db_counts()
        refused("a fourth submission in an hour (limit 3)",
                *srv.submit("ada", [(LAB01_FILE, starter(LAB01, LAB01_FILE, "rate 3"))]), 429)

        # The client refuses plain HTTP to another machine, and the server refuses to serve it.
        token_file = os.path.join(tmp, "ada.token")
        with open(token_file, "w") as f:
            f.write(srv.tokens["ada"])
        c = subprocess.run([sys.executable, ARGS.client, "--remote", "http://192.0.2.1:8080", "--token-file", token_file],
                           capture_output=True, text=True, timeout=60)
        check(c.returncode == 2 and "in clear" in c.stderr, "the client will not send a token over plain HTTP")
        s = subprocess.run([ARGS.server, "--db", os.path.join(tmp, "other.sqlite"), "--tokens",
                            os.path.join(tmp, "tokens.csv"), "--listen", "0.0.0.0:0", "--allow-no-gpu"],
                           capture_output=True, text=True, timeout=60)
        check(s.returncode == 2 and "refusing plain HTTP" in s.stderr, "the server will not serve plain HTTP off loopback")
        # --gpus names GPUs by their device files; one that is not there is refused before anything starts.
        s = subprocess.run([ARGS.server, "--db", os.path.join(tmp, "other.sqlite"), "--tokens",
                            os.path.join(tmp, "tokens.csv"), "--listen", "127.0.0.1:0", "--grade", ARGS.grade,
                            "--no-prepare", "--gpus", "977"], capture_output=True, text=True, timeout=60)
        check(s.returncode == 2 and "--gpus 977: there is no /dev/nvidia977 here" in s.stderr,
              "the server refuses a GPU that is not there: " + s.stderr.strip()[-200:])
    finally:
        srv.stop()
    logs = srv.logs()
    check("POST /api/submissions" in logs, "the log records requests")
    for who, token in srv.tokens.items():
        check(token[:16] not in logs, "the token of %s is not in the server's log" % who)
        with open(os.path.join(tmp, "tokens.csv")) as f:
            check(token not in f.read(), "tokens.csv holds no token")
        with open(os.path.join(tmp, "class.sqlite"), "rb") as f:
            check(token.encode() not in f.read(), "the database holds no token")
    print("no token in the log, tokens.csv or the database")


def children():
    """{pid: parent pid} of every process."""
    tree = {}
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                with open("/proc/%s/stat" % pid) as f:
                    tree[int(pid)] = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                pass
    return tree


def running(pid):
    """True while pid is a live process (not gone, not a zombie waiting to be reaped)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except (OSError, IndexError):
        return False


def descendants(pid):
    tree, found, todo = children(), [], [pid]
    while todo:
        parent = todo.pop()
        kids = [p for p, pp in tree.items() if pp == parent]
        found += kids
        todo += kids
    return found


def wait_for_grading_process(server, sub_id, timeout=120, exclude=()):
    """The pid of the worker's live child (the sandbox, or the grader where there is none) once submission
    sub_id is being graded, other than those in exclude (an attempt already killed, not yet reaped); the
    test's servers have one worker."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if server.view(sub_id)["state"] in ("building", "grading"):
            kids = [p for p, pp in children().items() if pp == server.proc.pid and p not in exclude and running(p)]
            if kids:
                return kids[0]
        time.sleep(0.1)
    raise Failed("no grading process of submission %d appeared" % sub_id)


def restart_and_kill(tmp):
    srv = Server(tmp, ["ada", "bob", "cy", "dan"], ["--workers", "1"])
    # Each upload changes a student region, so each grading compiles (several seconds): long enough to be
    # caught in the middle.
    def lab01(tag):
        return [(LAB01_FILE, starter(LAB01, LAB01_FILE, tag, in_region=True))]

    srv.start()
    ids = [srv.submit(s, lab01("restart " + s))[1]["id"] for s in ("ada", "bob", "cy")]
    srv.wait_state(ids[0], ("building", "grading"))
    print("SIGTERM with submission %d running and %d, %d queued" % tuple(ids))
    srv.stop(signal.SIGTERM)
    srv.start()
    v = srv.view(ids[0])
    check(v["state"] != "done" and all(a["outcome"] is None for a in v["attempt_log"]),
          "a grading stopped by SIGTERM goes back to the queue, not counted as an attempt")
    srv.wait_state(ids[0], ("building", "grading"))
    grader = wait_for_grading_process(srv, ids[0])
    time.sleep(1)  # into the grading, which has started its own processes
    grading = [grader] + descendants(grader)
    print("kill -9 of the server (pid %d) while submission %d is graded by %d processes" % (srv.proc.pid, ids[0], len(grading)))
    srv.stop(signal.SIGKILL)
    end = time.monotonic() + 20
    alive = lambda: [p for p in grading if running(p)]
    while alive() and time.monotonic() < end:
        time.sleep(0.2)
    check(not alive(), "no grading process outlives a killed server (left: %s)" % alive())
    srv.start()
    for i in ids:
        v = srv.wait_state(i, ("done", "not_graded"))
        print("submission %d: %s, attempts %s" % (i, v["state"], [a["outcome"] for a in v["attempt_log"]]))
        check(graded_once(v), "submission %d graded exactly once" % i)
    check(any(a["outcome"].startswith("interrupted: the server stopped") for a in srv.view(ids[0])["attempt_log"]),
          "the killed server's attempt is recorded as interrupted")

    # kill -9 of the grading process: queued again, graded on the next attempt.
    sub = srv.submit("dan", lab01("kill once"))[1]["id"]
    pid = wait_for_grading_process(srv, sub)
    os.kill(pid, signal.SIGKILL)
    v = srv.wait_state(sub, ("done", "not_graded"))
    print("submission %d after one kill: %s, attempts %s" % (sub, v["state"], [a["outcome"] for a in v["attempt_log"]]))
    check(graded_once(v) and v["attempt_log"][0]["outcome"].startswith("interrupted: "), "killed once, graded once")

    # Killed twice: not graded, with the reason.
    sub = srv.submit("dan", lab01("kill twice"))[1]["id"]
    killed = []
    for _ in range(2):
        killed.append(wait_for_grading_process(srv, sub, exclude=killed))
        os.kill(killed[-1], signal.SIGKILL)
    v = srv.wait_state(sub, ("not_graded", "done"))
    print("submission %d after two kills: %s: %s" % (sub, v["state"], v["reason"]))
    check(v["state"] == "not_graded" and "2 attempts were interrupted" in v["reason"], "two kills: not graded, and why")
    check(v["output"] is None and [a["outcome"] for a in v["attempt_log"]].count("graded") == 0, "and no result")
    srv.stop()


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def load(tmp):
    """The service under load, its workers sandboxed as by default: each grading is queue_grade_stub.py's
    (0.2 s, a results.json naming the submission's marker), so that what is measured and checked is the service's storing, queueing and
    answering, not the compiler; the real grade runs in the other cases."""
    clients, each = 50, 4
    students = ["s%02d" % i for i in range(clients)]
    stub = os.path.join(os.path.dirname(os.path.abspath(__file__)), "queue_grade_stub.py")
    srv = Server(tmp, students, ["--workers", "2", "--per-hour", "100"],
                 grade=stub)
    srv.start()
    upload_s, total_s, errors, ids, markers = [], [], [], [], {}
    lock = threading.Lock()

    def client(student):
        try:
            for n in range(each):
                marker = "%s-%d" % (student, n)
                files = [(LAB01_FILE, starter(LAB01, LAB01_FILE) + "\n// submission: %s\n" % marker)]
                t0 = time.monotonic()
                status, answer = srv.submit(student, files)
                t1 = time.monotonic()
                if status != 202:
                    raise Failed("%s: upload answered %d %s" % (student, status, answer))
                while True:
                    status, v = srv.call("GET", "/api/submissions/%d" % answer["id"], student)
                    if status == 200 and v["state"] in ("done", "not_graded"):
                        break
                    time.sleep(0.1)
                with lock:
                    upload_s.append(t1 - t0)
                    total_s.append(time.monotonic() - t0)
                    ids.append(answer["id"])
                    markers[answer["id"]] = marker
        except Exception as e:  # reported below, by the main thread
            with lock:
                errors.append("%s: %s" % (student, e))

    start = time.monotonic()
    threads = [threading.Thread(target=client, args=(s,)) for s in students]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=600)
    wall = time.monotonic() - start
    try:
        check(not errors, "every client was answered: " + "; ".join(errors[:5]))
        check(len(ids) == clients * each and len(set(ids)) == len(ids), "all %d stored, none twice" % (clients * each))
        grading_s, waiting_s, overhead_s = [], [], []
        for i, t in zip(ids, total_s):
            v = srv.view(i)
            check(graded_once(v), "submission %d graded exactly once" % i)
            check(markers[i] in json.dumps(v.get("results")),
                  "submission %d (%s) answered with its own result" % (i, markers[i]))
            a = v["attempt_log"][0]
            grading_s.append(a["ended"] - a["started"])
            waiting_s.append(a["started"] - v["created"])
            overhead_s.append(t - (a["ended"] - a["started"]) - (a["started"] - v["created"]))
        check(srv.db_counts()[0] == clients * each, "the database holds each submission once")
    finally:
        srv.stop()
    print("load: %d clients x %d submissions (Lab 01, 2 workers, grade stood in for: 0.2 s) in %.1f s"
          % (clients, each, wall))
    for name, values in (("upload (POST answered)", upload_s), ("upload to result", total_s),
                         ("waiting in the queue", waiting_s), ("grading (the stand-in)", grading_s),
                         ("service overhead (the rest)", overhead_s)):
        print("  %-32s p50 %7.3f s   p95 %7.3f s" % (name, percentile(values, 50), percentile(values, 95)))


def slow_clients(tmp):
    """More connections than the server has request threads, each sending its headers a byte a second (a
    slow-loris client): with --request-deadline each is shut down at its deadline, so a client that asks
    plainly is answered; the read timeout alone (30 s a byte) would let them hold every thread."""
    deadline_s, slow_count = 3, 80  # the server has 64 request threads
    srv = Server(tmp, ["ada"], ["--request-deadline", str(deadline_s)])
    srv.start()
    host, port = srv.url[len("http://"):].split(":")
    ended = {}
    stop = threading.Event()
    lock = threading.Lock()

    def slow(k):
        sock = socket.create_connection((host, int(port)), timeout=10)
        opened = time.monotonic()
        try:
            sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Slow: ")
            while not stop.is_set():
                time.sleep(1)
                sock.sendall(b"a")
        except OSError:  # shut down by the server: a send fails once it has
            pass
        finally:
            with lock:
                ended[k] = time.monotonic() - opened
            sock.close()

    threads = [threading.Thread(target=slow, args=(k,), daemon=True) for k in range(slow_count)]
    try:
        for t in threads:
            t.start()
        time.sleep(1.5)  # every thread of the server now holds a slow connection
        t0 = time.monotonic()
        status, answer = srv.call("GET", "/api/health")
        waited = time.monotonic() - t0
        check(status == 200 and answer == {"ok": True}, "a plain request is answered (got %d %r)" % (status, answer))
        check(waited < deadline_s + 8, "a plain request is answered within the deadline and a few seconds "
                                       "(it waited %.1f s)" % waited)
        for t in threads:
            t.join(timeout=deadline_s + 10)
        with lock:
            lasted = sorted(ended.values())
        check(len(lasted) == slow_count, "every slow connection was ended by the server (%d of %d)" % (len(lasted), slow_count))
        check(lasted[-1] < deadline_s + 6, "none outlived its deadline by more than a few seconds (longest %.1f s)" % lasted[-1])
    finally:
        stop.set()
        srv.stop()
    print("slow_clients: %d slow connections; a plain request answered after %.1f s; the slow ones lasted %.1f to "
          "%.1f s (deadline %d s)" % (slow_count, waited, lasted[0], lasted[-1], deadline_s))


CASES = {f.__name__: f for f in (life_of_a_submission, refusals, restart_and_kill, load, slow_clients)}


def main():
    global ARGS
    p = argparse.ArgumentParser()
    p.add_argument("case", choices=sorted(CASES))
    p.add_argument("--server", required=True)
    p.add_argument("--grade", required=True)
    p.add_argument("--client", required=True)
    p.add_argument("--labs", required=True)
    p.add_argument("--keep", action="store_true", help="keep the test's folder")
    ARGS = p.parse_args()
    tmp = tempfile.mkdtemp(prefix="course-server-" + ARGS.case + "-")
    try:
        CASES[ARGS.case](tmp)
    except Failed as e:
        print("FAILED: %s (folder %s)" % (e, tmp))
        ARGS.keep = True
        return 1
    finally:
        if not ARGS.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    print("passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
