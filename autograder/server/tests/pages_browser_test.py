#!/usr/bin/env python3
"""The service's web pages driven in a real headless Chromium, over the DevTools protocol on a pipe
(--remote-debugging-pipe; Python's standard library only). Screenshots of each page go to --shots.

    pages_browser_test.py --server course-server --grade grade --stub gpu_grade_stub.py --fixtures DIR
                          --labs LABS --shots DIR [--chromium PATH]

1. With build-only workers (--allow-no-gpu, grade itself): a wrong token is refused; a student signs in
   (the token typed into the form; a session cookie, HttpOnly and SameSite=Strict), uploads a starter,
   and watches it through the queue to its result, the page refreshing itself; another student cannot
   open it, by link or by guessing ids; a form posted without its CSRF token, or from another site, is
   refused; the instructor sees the results, the gradebook, the queue and the workers; signing out ends
   the session; no token or session id is in the server's log.
2. With a stand-in for grade on a GPU (gpu_grade_stub.py, handing back gradings written by the runner's
   renderers): the report page is the grading's report.html, and the opt-in ranking ranks the students'
   correct kernels under pseudonyms.

No Chromium is a failure, never a pass.
"""
import argparse
import base64
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "docs", "tests"))
from check_site import find_chromium  # noqa: E402  (Chromium is found as the course site's check finds it)

ARGS = None
LAB01, LAB01_FILE = "01-sum-reduction", "sum_reduction.cu"


class Failed(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Failed(what)
    print("ok   " + what)


class Browser:
    """Chromium, driven over --remote-debugging-pipe: JSON messages, each ended by a NUL, on fds 3 and 4."""

    def __init__(self, exe, profile):
        to_chrome_r, self._w = os.pipe()
        self._r, from_chrome_w = os.pipe()

        def pipes_on_3_and_4():
            os.dup2(to_chrome_r, 100)
            os.dup2(from_chrome_w, 101)
            os.dup2(100, 3)
            os.dup2(101, 4)

        self.proc = subprocess.Popen(
            [exe, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
             # Each person's tab is one of several: none may be put to sleep as a background tab.
             "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
             "--disable-backgrounding-occluded-windows", "--remote-debugging-pipe", "--user-data-dir=" + profile, "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=pipes_on_3_and_4, close_fds=False)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._next = 0
        self._answers = {}
        self._cv = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        buf = b""
        while True:
            chunk = os.read(self._r, 1 << 16)
            if not chunk:
                return
            buf += chunk
            while b"\0" in buf:
                raw, buf = buf.split(b"\0", 1)
                msg = json.loads(raw)
                if "id" in msg:
                    with self._cv:
                        self._answers[msg["id"]] = msg
                        self._cv.notify_all()

    def send(self, method, params=None, session=None, timeout=60):
        with self._cv:
            self._next += 1
            n = self._next
        msg = {"id": n, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        if os.environ.get("CDP_TRACE"):  # CDP_TRACE=1: each command, to see where a page got stuck
            print("  cdp", n, method, str(params)[:80], flush=True)
        os.write(self._w, json.dumps(msg).encode() + b"\0")
        with self._cv:
            if not self._cv.wait_for(lambda: n in self._answers, timeout):
                raise Failed("Chromium did not answer %s in %d s" % (method, timeout))
            answer = self._answers.pop(n)
        if "error" in answer:
            raise RuntimeError("%s: %s" % (method, answer["error"]))
        return answer.get("result", {})

    def tab(self):
        """A page in a browser context of its own: its own cookies, as another person's browser."""
        ctx = self.send("Target.createBrowserContext")["browserContextId"]
        target = self.send("Target.createTarget", {"url": "about:blank", "browserContextId": ctx})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        return Tab(self, session)

    def close(self):
        try:
            self.send("Browser.close", timeout=10)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


class Tab:
    def __init__(self, browser, session):
        self.b, self.s = browser, session
        self.send("Page.enable")
        self.send("Network.enable")
        self.send("Emulation.setDeviceMetricsOverride", {"width": 1100, "height": 800, "deviceScaleFactor": 1, "mobile": False})

    def send(self, method, params=None):
        return self.b.send(method, params, self.s)

    def js(self, expr):
        """The value of expr in the page, or None while the page is between documents."""
        try:
            r = self.send("Runtime.evaluate", {"expression": expr, "returnByValue": True})
        except RuntimeError:
            return None
        if "exceptionDetails" in r:
            return None
        return r["result"].get("value")

    def wait(self, expr, what, timeout=30):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            v = self.js(expr)
            if v:
                return v
            time.sleep(0.1)
        raise Failed("%s (waited %d s; the page is %s: %s)" % (what, timeout, self.js("location.href"),
                                                              (self.js("document.body && document.body.innerText") or "")[:600]))

    def go(self, url, ready=None):
        self.send("Page.navigate", {"url": url})
        self.wait("document.readyState === 'complete' && (%s)" % (ready or "location.href === %s" % json.dumps(url)),
                  "opening " + url)

    def path(self):
        return self.js("location.pathname")

    def text(self):
        return self.js("document.body.innerText") or ""

    def submit(self, form_selector, then_expr, what):
        self.js("document.querySelector(%s).requestSubmit()" % json.dumps(form_selector))
        return self.wait("document.readyState === 'complete' && (%s)" % then_expr, what)

    def cookies(self):
        return {c["name"]: c for c in self.send("Network.getCookies")["cookies"]}

    def shot(self, name):
        height = min(self.js("document.documentElement.scrollHeight") or 800, 4000)
        self.send("Emulation.setDeviceMetricsOverride", {"width": 1100, "height": height, "deviceScaleFactor": 1, "mobile": False})
        png = base64.b64decode(self.send("Page.captureScreenshot", {"format": "png"})["data"])
        self.send("Emulation.setDeviceMetricsOverride", {"width": 1100, "height": 800, "deviceScaleFactor": 1, "mobile": False})
        path = os.path.join(ARGS.shots, name + ".png")
        with open(path, "wb") as f:
            f.write(png)
        print("     screenshot " + path)

    def sign_in(self, url, token):
        self.go(url + "/signin")
        self.js("document.getElementById('token').value = %s" % json.dumps(token))
        return self.submit("form[action='/signin']", "location.pathname !== '/signin' || !!document.querySelector('.error')",
                           "the sign-in form is answered")

    def upload(self, path):
        """Chooses the file in the upload form, as a person would, and sends the form."""
        node = self.send("Runtime.evaluate", {"expression": "document.getElementById('files')"})["result"]["objectId"]
        self.send("DOM.setFileInputFiles", {"files": [os.path.abspath(path)], "objectId": node})
        self.submit("form[action='/student/upload']", "location.pathname.startsWith('/submissions/')", "the upload is stored")
        return int(self.path().rsplit("/", 1)[1])


class Server:
    def __init__(self, root, students, grade, extra=()):
        self.root = root
        os.makedirs(root)
        with open(os.path.join(root, "roster.csv"), "w") as f:
            f.write("student\n" + "".join(s + "\n" for s in students))
        out = subprocess.run([ARGS.server, "tokens", "--roster", os.path.join(root, "roster.csv"), "--out",
                              os.path.join(root, "tokens.csv")], capture_output=True, text=True, check=True)
        self.tokens = {line.split(",")[0]: line.split(",")[2] for line in out.stdout.splitlines()[1:]}
        self.log = os.path.join(root, "server.log")
        self.proc = subprocess.Popen(
            [ARGS.server, "--db", os.path.join(root, "class.sqlite"), "--tokens", os.path.join(root, "tokens.csv"),
             "--listen", "127.0.0.1:0", "--allow-no-gpu", "--grade", grade, "--no-prepare", "--workers", "1"] + list(extra),
            stdout=subprocess.PIPE, stderr=open(self.log, "w"), text=True)
        line = self.proc.stdout.readline()
        m = re.match(r"listening on (http://127\.0\.0\.1:\d+)", line)
        if not m:
            raise Failed("the server did not start (%r; see %s)" % (line, self.log))
        self.url = m.group(1)
        threading.Thread(target=self.proc.stdout.read, daemon=True).start()

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=60)

    def submissions(self):
        db = sqlite3.connect(os.path.join(self.root, "class.sqlite"))
        try:
            return db.execute("SELECT COUNT(*) FROM submissions").fetchone()[0]
        finally:
            db.close()

    def get(self, path, session=None, data=None, headers=None):
        """(status, body, Location) of a request without a browser, carrying a session cookie when given."""
        req = urllib.request.Request(self.url + path, data=data, method="POST" if data is not None else "GET")
        if session:
            req.add_header("Cookie", "course_session=" + session)
        for k, v in (headers or {}).items():
            req.add_header(k, v)

        class NoRedirect(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *a, **k):
                return None

        try:
            with urllib.request.build_opener(NoRedirect).open(req, timeout=30) as res:
                return res.status, res.read().decode(), res.headers.get("Location")
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode(), e.headers.get("Location")


def watch(tab, sub_id, shot_while_waiting=None, timeout=240):
    """Follows the submission's page, which refreshes itself, until it is graded; the states it showed."""
    seen = []
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        state = tab.js("document.getElementById('state') && document.getElementById('state').innerText")
        if state and (not seen or seen[-1] != state):
            seen.append(state)
            if shot_while_waiting and len(seen) == 1:
                tab.shot(shot_while_waiting)
        if state in ("graded", "not graded"):
            return seen
        time.sleep(0.2)
    raise Failed("submission %d was not graded in %d s (states seen: %s)" % (sub_id, timeout, seen))


def build_only(browser, tmp):
    srv = Server(os.path.join(tmp, "build-only"), ["ada", "bob"], ARGS.grade)
    try:
        ada, bob, teacher = browser.tab(), browser.tab(), browser.tab()

        ada.sign_in(srv.url, "0" * 64)
        check(ada.path() == "/signin" and "not known" in ada.text(), "a wrong token is refused, on the sign-in page")
        check("course_session" not in ada.cookies(), "a wrong token gets no session")
        ada.shot("signin_refused")

        ada.sign_in(srv.url, srv.tokens["ada"])
        check(ada.path() == "/student", "ada signs in with her token and lands on her page")
        c = ada.cookies()["course_session"]
        check(c["httpOnly"] and c["sameSite"] == "Strict" and c["expires"] > time.time(),
              "the session is a cookie, HttpOnly and SameSite=Strict, that expires")
        check(ada.js("document.cookie") == "", "no script of the page can read the session")
        check(srv.tokens["ada"] not in ada.js("location.href + document.documentElement.outerHTML"),
              "the token is in no URL and not on the page")
        session_ada = c["value"]

        teacher.sign_in(srv.url, srv.tokens["instructor"])
        check(teacher.path() == "/instructor", "the instructor's token opens the instructor's pages")

        sub = ada.upload(os.path.join(ARGS.labs, LAB01, LAB01_FILE))
        check(ada.js("!!document.querySelector('meta[http-equiv=refresh]')"), "the waiting page refreshes itself (no script)")
        bob.sign_in(srv.url, srv.tokens["bob"])
        bob_sub = bob.upload(os.path.join(ARGS.labs, LAB01, LAB01_FILE))  # waits behind ada's: the queue has one
        teacher.go(srv.url + "/instructor/queue")
        teacher.shot("instructor_queue_busy")
        states = watch(ada, sub, "submission_waiting")
        print("     states shown: %s" % " -> ".join(states))
        check(states[-1] == "graded" and len(states) >= 2, "the page followed submission %d to its result" % sub)
        check("Lab 01 (Sum reduction): compiles" in ada.text(),
              "the result shows what the grader printed: the starter compiles (the page says: %s)" % ada.text()[-1500:])
        check(not ada.js("!!document.querySelector('meta[http-equiv=refresh]')"), "a finished page stops refreshing")
        ada.shot("submission_graded")
        ada.go(srv.url + "/student")
        check("#%d" % sub in ada.text() and "every lab compiles" in ada.text(), "ada's history lists the submission")
        ada.shot("student_history")

        # Forms without their CSRF token: refused, and nothing stored.
        before = srv.submissions()
        boundary = "b0undary"
        body = ("--%s\r\nContent-Disposition: form-data; name=\"files\"; filename=\"%s\"\r\n\r\n%s\r\n--%s--\r\n"
                % (boundary, LAB01_FILE, "// another\n", boundary)).encode()
        status, text, _ = srv.get("/student/upload", session_ada, body,
                                  {"Content-Type": "multipart/form-data; boundary=" + boundary})
        check(status == 403 and "CSRF" in text and srv.submissions() == before, "an upload without its CSRF token: 403, nothing stored")
        status, _, _ = srv.get("/ranking", session_ada, b"choice=in&csrf=" + b"0" * 64,
                               {"Content-Type": "application/x-www-form-urlencoded"})
        check(status == 403, "a form with a wrong CSRF token: 403")
        status, _, _ = srv.get("/signin", None, ("token=%s" % srv.tokens["ada"]).encode(),
                               {"Content-Type": "application/x-www-form-urlencoded"})
        check(status == 403, "a sign-in posted without the sign-in page's own token: 403")
        # A page of another site posting to the service: the browser sends no session with it.
        ada.go("data:text/html,<form method=post action='%s/ranking'><input name=choice value=in></form>" % srv.url,
               "!!document.querySelector('form')")
        ada.submit("form", "location.href.indexOf('%s') === 0" % srv.url, "the other site's form is posted")
        check(ada.path() == "/signin", "a form posted from another site arrives without the session")
        ada.go(srv.url + "/ranking")
        check("You do not take part" in ada.text(), "and changed nothing")

        # Bob cannot open Ada's submission, by its link or by guessing numbers.
        watch(bob, bob_sub)
        bob.go(srv.url + "/submissions/%d" % sub)
        check("no submission %d of yours" % sub in bob.text(), "bob opening ada's submission is told there is none")
        bob.shot("other_students_submission")
        session_bob = bob.cookies()["course_session"]["value"]
        for guess in range(1, bob_sub + 5):
            if guess == bob_sub:
                continue
            for suffix in ("", "/report"):
                status, text, _ = srv.get("/submissions/%d%s" % (guess, suffix), session_bob)
                # ada's name as a word: the page's random form tokens are hex, where "ada" turns up by chance
                check(status == 404 and not re.search(r"\bada\b", text), "bob guessing /submissions/%d%s: 404" % (guess, suffix))
        status, _, _ = srv.get("/instructor", session_bob)
        check(status == 403, "a student's session does not open the instructor's pages")

        teacher.go(srv.url + "/instructor")
        check("compiles" in teacher.text() and "ada" in teacher.text(), "the instructor sees ada's latest results")
        teacher.shot("instructor_results")
        session_teacher = teacher.cookies()["course_session"]["value"]
        status, csv, _ = srv.get("/instructor/gradebook.csv", session_teacher)
        check(status == 200 and csv.startswith("student,") and "compiles" in csv.splitlines()[1], "the gradebook downloads as CSV")
        teacher.go(srv.url + "/instructor/queue")
        rows = teacher.js("Array.from(document.querySelectorAll('table.workers tr')).map(r => r.innerText)")
        check(len(rows) == 2 and "cpu0" in rows[1] and "idle" in rows[1] and re.search(r"\t2\t0$", rows[1]),
              "the workers' table: cpu0, idle, 2 jobs done, 0 failures (%s)" % rows)
        teacher.shot("instructor_queue")

        ada.go(srv.url + "/student")
        ada.submit("form[action='/signout']", "location.pathname === '/signin'", "signing out")
        status, _, where = srv.get("/student", session_ada)
        check(status == 303 and where == "/signin", "after signing out the old session opens nothing")
    finally:
        srv.stop()
    with open(srv.log) as f:
        log = f.read()
    secrets = list(srv.tokens.values()) + [session_ada, session_bob, session_teacher]
    check("POST /student/upload" in log and not any(s[:16] in log for s in secrets),
          "the server's log records the requests, but no token or session id")


def with_reports(browser, tmp):
    students = ["ada", "bob", "cy"]
    srv = Server(os.path.join(tmp, "gpu-stand-in"), students, ARGS.stub, ["--grade-arg=--fixtures=" + ARGS.fixtures])
    try:
        tabs = {}
        for who, grading in (("ada", "fast"), ("bob", "slow"), ("cy", "wrong")):
            folder = os.path.join(tmp, who)
            os.makedirs(folder)
            with open(os.path.join(ARGS.labs, LAB01, LAB01_FILE), encoding="utf-8") as f:
                text = f.read()
            with open(os.path.join(folder, LAB01_FILE), "w", encoding="utf-8") as f:
                f.write(text + "\n// grading: %s\n" % grading)
            tab = tabs[who] = browser.tab()
            tab.sign_in(srv.url, srv.tokens[who])
            tab.go(srv.url + "/ranking")
            tab.submit("form[action='/ranking']", "!!document.getElementById('pseudonym')", "taking part in the ranking")
            tab.go(srv.url + "/student")
            sub = tab.upload(os.path.join(folder, LAB01_FILE))
            watch(tab, sub)
            if who == "ada":
                check(tab.js("!!document.getElementById('report')"), "a graded submission links its report")
                tab.js("document.getElementById('report').click()")
                tab.wait("location.pathname.endsWith('/report') && document.readyState === 'complete'", "opening the report")
                with open(os.path.join(ARGS.fixtures, "fast", "report.html"), encoding="utf-8") as f:
                    written = f.read()
                charts = written.count('<svg class="speed"')
                check(tab.js("document.querySelectorAll('table.checks').length") >= 1 and charts >= 1 and
                      tab.js("document.querySelectorAll('svg.speed').length") == charts,
                      "the report page is the grading's report.html: its table and its %d speed chart(s) drawn" % charts)
                _, served, _ = srv.get(tab.path(), tab.cookies()["course_session"]["value"])
                check(served == written, "served byte for byte as the grading wrote it")
                tab.shot("report")
                ada_report = tab.path()
        bob = tabs["bob"]
        bob.go(srv.url + ada_report)
        check("no report" in bob.text(), "bob cannot open ada's report")
        ada = tabs["ada"]
        ada.go(srv.url + "/ranking")
        rows = ada.js("Array.from(document.querySelectorAll('table.ranking tr')).map(r => r.innerText)")
        print("     ranking rows: %s" % rows)
        pseudonym = ada.js("document.getElementById('pseudonym').innerText")
        cub = [r for r in rows if "x CUB" in r]
        check(len(cub) == 2 and pseudonym + " (you)" in cub[0] and "0.94x CUB" in cub[0] and "0.78x CUB" in cub[1],
              "the ranking: ada's 0.94x CUB above bob's 0.78x; cy's faster but wrong kernel is not in it")
        check(not re.search(r"\b(bob|cy)\b", ada.text()), "students see pseudonyms only")
        ada.shot("ranking")
        ada.submit("form[action='/ranking']", "!document.getElementById('pseudonym')", "leaving the ranking")
        check(pseudonym not in ada.text(), "opting out takes ada out of the ranking")
    finally:
        srv.stop()


def main():
    global ARGS
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    for a in ("--server", "--grade", "--stub", "--fixtures", "--labs", "--shots"):
        p.add_argument(a, required=True)
    p.add_argument("--chromium")
    p.add_argument("--keep", action="store_true", help="keep the test's folder")
    ARGS = p.parse_args()
    exe = find_chromium(ARGS.chromium)
    if not exe:
        print("pages_browser_test: FAILED: Chromium was not found (Debian: apt-get install chromium); this test never "
              "passes without it", file=sys.stderr)
        return 1
    os.makedirs(ARGS.shots, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="course-pages-")
    browser = Browser(exe, os.path.join(tmp, "profile"))
    try:
        start = time.monotonic()
        build_only(browser, tmp)
        print("build-only workers: %.1f s" % (time.monotonic() - start))
        start = time.monotonic()
        with_reports(browser, tmp)
        print("reports and ranking: %.1f s" % (time.monotonic() - start))
    except Failed as e:
        print("FAILED: %s (folder %s)" % (e, tmp))
        ARGS.keep = True
        return 1
    finally:
        browser.close()
        if not ARGS.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    print("passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
