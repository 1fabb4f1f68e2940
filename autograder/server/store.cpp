#include "store.hpp"

#include "tokens.hpp"

#include <chrono>
#include <stdexcept>

namespace service {
namespace {
double now_s() {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// One prepared statement; its parameters are bound in order by bind().
class Stmt {
public:
    Stmt(sqlite3* db, const char* sql) : db_(db) {
        if (sqlite3_prepare_v2(db, sql, -1, &s_, nullptr) != SQLITE_OK)
            throw std::runtime_error(std::string("SQLite: ") + sqlite3_errmsg(db) + " in: " + sql);
    }
    ~Stmt() { sqlite3_finalize(s_); }
    Stmt(const Stmt&) = delete;
    Stmt& operator=(const Stmt&) = delete;

    Stmt& bind(long long v) { return check(sqlite3_bind_int64(s_, ++n_, v)); }
    Stmt& bind(int v) { return check(sqlite3_bind_int64(s_, ++n_, v)); }
    Stmt& bind(double v) { return check(sqlite3_bind_double(s_, ++n_, v)); }
    Stmt& bind(const std::string& v) {
        return check(sqlite3_bind_text(s_, ++n_, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT));
    }
    Stmt& bind_blob(const std::string& v) {
        return check(sqlite3_bind_blob(s_, ++n_, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT));
    }
    /// True while there is a row.
    bool step() {
        const int r = sqlite3_step(s_);
        if (r == SQLITE_ROW) return true;
        if (r == SQLITE_DONE) return false;
        throw std::runtime_error(std::string("SQLite: ") + sqlite3_errmsg(db_));
    }
    void run() { step(); }
    long long integer(int col) const { return sqlite3_column_int64(s_, col); }
    double real(int col) const { return sqlite3_column_double(s_, col); }
    bool null(int col) const { return sqlite3_column_type(s_, col) == SQLITE_NULL; }
    std::string text(int col) const {
        const auto* p = static_cast<const char*>(sqlite3_column_blob(s_, col));
        return p ? std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(s_, col))) : std::string();
    }

private:
    Stmt& check(int r) {
        if (r != SQLITE_OK) throw std::runtime_error(std::string("SQLite bind: ") + sqlite3_errmsg(db_));
        return *this;
    }
    sqlite3* db_;
    sqlite3_stmt* s_ = nullptr;
    int n_ = 0;
};

void exec(sqlite3* db, const char* sql) {
    char* err = nullptr;
    if (sqlite3_exec(db, sql, nullptr, nullptr, &err) != SQLITE_OK) {
        const std::string msg = err ? err : "unknown error";
        sqlite3_free(err);
        throw std::runtime_error("SQLite: " + msg);
    }
}

// A transaction that rolls back unless committed. IMMEDIATE: it takes the write lock at once, so a
// check and the write that depends on it (a duplicate, the rate limit, the next queued) see one state.
class Transaction {
public:
    explicit Transaction(sqlite3* db) : db_(db) { exec(db_, "BEGIN IMMEDIATE"); }
    ~Transaction() {
        if (!done_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    }
    void commit() {
        exec(db_, "COMMIT");
        done_ = true;
    }

private:
    sqlite3* db_;
    bool done_ = false;
};

const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS submissions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  student TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  created REAL NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('queued', 'building', 'grading', 'done', 'not_graded', 'replaced')),
  attempts INTEGER NOT NULL DEFAULT 0,
  claim TEXT,
  finished REAL,
  exit_code INTEGER,
  output TEXT,
  results_json TEXT,
  reason TEXT
);
CREATE INDEX IF NOT EXISTS submissions_by_student ON submissions (student, content_hash);
CREATE INDEX IF NOT EXISTS submissions_by_state ON submissions (state, id);
CREATE TABLE IF NOT EXISTS files (
  submission INTEGER NOT NULL REFERENCES submissions (id),
  lab_id TEXT NOT NULL,
  lab_dir TEXT NOT NULL,
  name TEXT NOT NULL,
  content BLOB NOT NULL,
  replaced_by INTEGER REFERENCES submissions (id),
  PRIMARY KEY (submission, name)
);
CREATE TABLE IF NOT EXISTS attempts (
  submission INTEGER NOT NULL REFERENCES submissions (id),
  attempt INTEGER NOT NULL,
  worker TEXT NOT NULL,
  started REAL NOT NULL,
  ended REAL,
  outcome TEXT,
  PRIMARY KEY (submission, attempt)
);
CREATE TABLE IF NOT EXISTS sessions (
  id_hash TEXT PRIMARY KEY,
  who TEXT NOT NULL,
  expires REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS ranking (
  student TEXT PRIMARY KEY,
  pseudonym TEXT NOT NULL UNIQUE
);
)sql";

nlohmann::json nullable_text(const Stmt& s, int col) { return s.null(col) ? nlohmann::json() : nlohmann::json(s.text(col)); }
}  // namespace

SqliteStore::SqliteStore(const std::string& path) {
    if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nullptr) !=
        SQLITE_OK) {
        const std::string msg = db_ ? sqlite3_errmsg(db_) : "out of memory";
        sqlite3_close(db_);
        throw std::runtime_error("cannot open the database " + path + ": " + msg);
    }
    sqlite3_busy_timeout(db_, 10000);
    // WAL with synchronous=FULL: a committed submission survives a crash of the server or the machine.
    exec(db_, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;");
    exec(db_, kSchema);
    // A database made before the web pages has no column for the grading's report.html.
    Stmt has_report(db_, "SELECT COUNT(*) FROM pragma_table_info('submissions') WHERE name = 'report_html'");
    has_report.step();
    if (has_report.integer(0) == 0) exec(db_, "ALTER TABLE submissions ADD COLUMN report_html TEXT");
}

SqliteStore::~SqliteStore() { sqlite3_close(db_); }

SubmitOutcome SqliteStore::submit(const std::string& student, const Upload& up, int per_hour) {
    std::lock_guard<std::mutex> lock(m_);
    Transaction t(db_);
    {
        // One left not graded is no duplicate: the same files again are a new try (the student's, or a regrade's).
        Stmt dup(db_, "SELECT id FROM submissions WHERE student = ? AND content_hash = ? AND state NOT IN ('replaced', 'not_graded') "
                      "ORDER BY id DESC LIMIT 1");
        dup.bind(student).bind(up.content_hash);
        if (dup.step()) return {SubmitOutcome::Kind::Duplicate, dup.integer(0)};
    }
    const double now = now_s();
    {
        Stmt recent(db_, "SELECT COUNT(*) FROM submissions WHERE student = ? AND created > ?");
        recent.bind(student).bind(now - 3600.0);
        recent.step();
        if (recent.integer(0) >= per_hour) return {SubmitOutcome::Kind::RateLimited, 0};
    }
    Stmt add(db_, "INSERT INTO submissions (student, content_hash, created, state) VALUES (?, ?, ?, 'queued')");
    add.bind(student).bind(up.content_hash).bind(now).run();
    const long long id = sqlite3_last_insert_rowid(db_);
    for (const auto& f : up.files) {
        Stmt file(db_, "INSERT INTO files (submission, lab_id, lab_dir, name, content) VALUES (?, ?, ?, ?, ?)");
        file.bind(id).bind(f.lab->id).bind(f.lab->dir).bind(f.name).bind_blob(f.content).run();
        // One queued submission a lab: an older one still waiting gives this lab up.
        Stmt take(db_, "UPDATE files SET replaced_by = ? WHERE lab_id = ? AND replaced_by IS NULL AND submission IN "
                       "(SELECT id FROM submissions WHERE student = ? AND state = 'queued' AND id != ?)");
        take.bind(id).bind(f.lab->id).bind(student).bind(id).run();
    }
    Stmt emptied(db_, "UPDATE submissions SET state = 'replaced', reason = 'replaced by submission ' || ? "
                      "WHERE student = ? AND state = 'queued' AND id != ? AND NOT EXISTS "
                      "(SELECT 1 FROM files WHERE files.submission = submissions.id AND files.replaced_by IS NULL)");
    emptied.bind(id).bind(student).bind(id).run();
    t.commit();
    return {SubmitOutcome::Kind::Stored, id};
}

std::optional<Job> SqliteStore::claim(const std::string& worker) {
    std::lock_guard<std::mutex> lock(m_);
    Transaction t(db_);
    Job job;
    {
        Stmt next(db_, kNextQueuedSql);
        if (!next.step()) return std::nullopt;
        job.id = next.integer(0);
        job.student = next.text(1);
        job.attempt = static_cast<int>(next.integer(2)) + 1;
    }
    job.claim = worker + ":" + std::to_string(job.attempt) + ":" + make_token().substr(0, 16);
    Stmt take(db_, "UPDATE submissions SET state = 'building', attempts = ?, claim = ? WHERE id = ?");
    take.bind(job.attempt).bind(job.claim).bind(job.id).run();
    Stmt attempt(db_, "INSERT INTO attempts (submission, attempt, worker, started) VALUES (?, ?, ?, ?)");
    attempt.bind(job.id).bind(job.attempt).bind(worker).bind(now_s()).run();
    Stmt files(db_, "SELECT lab_id, lab_dir, name, content FROM files WHERE submission = ? AND replaced_by IS NULL "
                    "ORDER BY lab_id");
    files.bind(job.id);
    while (files.step()) job.files.push_back({files.text(0), files.text(1), files.text(2), files.text(3)});
    t.commit();
    return job;
}

// One host: its claims need no lease (those left when the server stopped are recovered at its start).
bool SqliteStore::renew(long long id, const std::string& claim) {
    std::lock_guard<std::mutex> lock(m_);
    Stmt s(db_, "SELECT 1 FROM submissions WHERE id = ? AND claim = ? AND state IN ('building', 'grading')");
    s.bind(id).bind(claim);
    return s.step();
}

void SqliteStore::set_grading(long long id, const std::string& claim) {
    std::lock_guard<std::mutex> lock(m_);
    Stmt s(db_, "UPDATE submissions SET state = 'grading' WHERE id = ? AND claim = ? AND state = 'building'");
    s.bind(id).bind(claim).run();
}

bool SqliteStore::finish(long long id, const std::string& claim, int exit_code, const std::string& output,
                   const std::string& results_json, const std::string& report_html) {
    std::lock_guard<std::mutex> lock(m_);
    Transaction t(db_);
    Stmt s(db_, "UPDATE submissions SET state = 'done', finished = ?, exit_code = ?, output = ?, results_json = ?, "
                "report_html = NULLIF(?, ''), claim = NULL WHERE id = ? AND claim = ? AND state IN ('building', 'grading')");
    s.bind(now_s()).bind(exit_code).bind(output).bind(results_json).bind(report_html).bind(id).bind(claim).run();
    if (sqlite3_changes(db_) != 1) return false;
    Stmt a(db_, "UPDATE attempts SET ended = ?, outcome = 'graded' WHERE submission = ? AND attempt = "
                "(SELECT attempts FROM submissions WHERE id = ?)");
    a.bind(now_s()).bind(id).bind(id).run();
    t.commit();
    return true;
}

void SqliteStore::interrupted(long long id, const std::string& claim, const std::string& reason, int max_attempts) {
    std::lock_guard<std::mutex> lock(m_);
    Transaction t(db_);
    Stmt a(db_, "UPDATE attempts SET ended = ?, outcome = ? WHERE submission = ? AND attempt = "
                "(SELECT attempts FROM submissions WHERE id = ? AND claim = ?)");
    a.bind(now_s()).bind("interrupted: " + reason).bind(id).bind(id).bind(claim).run();
    Stmt s(db_, "UPDATE submissions SET claim = NULL, "
                "state = CASE WHEN attempts >= ? THEN 'not_graded' ELSE 'queued' END, "
                "reason = CASE WHEN attempts >= ? THEN 'not graded: ' || attempts || ' attempts were interrupted; the last: ' || ? "
                "ELSE reason END, finished = CASE WHEN attempts >= ? THEN ? ELSE finished END "
                "WHERE id = ? AND claim = ?");
    s.bind(max_attempts).bind(max_attempts).bind(reason).bind(max_attempts).bind(now_s()).bind(id).bind(claim).run();
    t.commit();
}

void SqliteStore::release(long long id, const std::string& claim) {
    std::lock_guard<std::mutex> lock(m_);
    Transaction t(db_);
    Stmt a(db_, "DELETE FROM attempts WHERE submission = ? AND attempt = (SELECT attempts FROM submissions WHERE id = ? AND claim = ?)");
    a.bind(id).bind(id).bind(claim).run();
    Stmt s(db_, "UPDATE submissions SET state = 'queued', claim = NULL, attempts = attempts - 1 WHERE id = ? AND claim = ?");
    s.bind(id).bind(claim).run();
    t.commit();
}

int SqliteStore::recover(int max_attempts) {
    std::vector<std::pair<long long, std::string>> left;
    {
        std::lock_guard<std::mutex> lock(m_);
        Stmt s(db_, "SELECT id, claim FROM submissions WHERE state IN ('building', 'grading')");
        while (s.step()) left.push_back({s.integer(0), s.text(1)});
    }
    for (const auto& [id, claim] : left)
        interrupted(id, claim, "the server stopped while grading it", max_attempts);
    return static_cast<int>(left.size());
}

std::optional<nlohmann::json> SqliteStore::submission(long long id, const std::optional<std::string>& student) {
    std::lock_guard<std::mutex> lock(m_);
    Stmt s(db_, "SELECT student, state, created, finished, attempts, exit_code, output, results_json, reason, "
                "report_html IS NOT NULL FROM submissions WHERE id = ?");
    s.bind(id);
    if (!s.step() || (student && s.text(0) != *student)) return std::nullopt;
    nlohmann::json j = {{"id", id},
                        {"student", s.text(0)},
                        {"state", s.text(1)},
                        {"created", s.real(2)},
                        {"finished", s.null(3) ? nlohmann::json() : nlohmann::json(s.real(3))},
                        {"attempts", s.integer(4)},
                        {"exit_code", s.null(5) ? nlohmann::json() : nlohmann::json(s.integer(5))},
                        {"output", nullable_text(s, 6)},
                        {"reason", nullable_text(s, 8)},
                        {"report", s.integer(9) != 0}};
    const std::string results = s.text(7);
    j["results"] = results.empty() ? nlohmann::json() : nlohmann::json::parse(results, nullptr, false);
    if (j["state"] == "queued") {
        Stmt pos(db_, "SELECT COUNT(*) FROM submissions WHERE state = 'queued' AND id <= ?");
        pos.bind(id).step();
        j["position"] = pos.integer(0);
    }
    nlohmann::json labs = nlohmann::json::array(), replaced = nlohmann::json::array();
    Stmt files(db_, "SELECT lab_id, replaced_by FROM files WHERE submission = ? ORDER BY lab_id");
    files.bind(id);
    while (files.step()) (files.null(1) ? labs : replaced).push_back(files.text(0));
    j["labs"] = labs;
    j["labs_replaced"] = replaced;
    nlohmann::json attempts = nlohmann::json::array();
    Stmt a(db_, "SELECT attempt, worker, started, ended, outcome FROM attempts WHERE submission = ? ORDER BY attempt");
    a.bind(id);
    while (a.step())
        attempts.push_back({{"attempt", a.integer(0)}, {"worker", a.text(1)}, {"started", a.real(2)},
                            {"ended", a.null(3) ? nlohmann::json() : nlohmann::json(a.real(3))},
                            {"outcome", nullable_text(a, 4)}});
    j["attempt_log"] = attempts;
    return j;
}

nlohmann::json SqliteStore::list(const std::optional<std::string>& student) {
    std::lock_guard<std::mutex> lock(m_);
    Stmt s(db_, student ? "SELECT id, student, state, created, finished, attempts, exit_code, reason FROM submissions "
                          "WHERE student = ? ORDER BY id DESC"
                        : "SELECT id, student, state, created, finished, attempts, exit_code, reason FROM submissions "
                          "ORDER BY id DESC");
    if (student) s.bind(*student);
    nlohmann::json out = nlohmann::json::array();
    while (s.step())
        out.push_back({{"id", s.integer(0)},
                       {"student", s.text(1)},
                       {"state", s.text(2)},
                       {"created", s.real(3)},
                       {"finished", s.null(4) ? nlohmann::json() : nlohmann::json(s.real(4))},
                       {"attempts", s.integer(5)},
                       {"exit_code", s.null(6) ? nlohmann::json() : nlohmann::json(s.integer(6))},
                       {"reason", nullable_text(s, 7)}});
    return out;
}

std::vector<GradedLab> SqliteStore::latest_graded() {
    std::lock_guard<std::mutex> lock(m_);
    Stmt s(db_, "SELECT s.student, f.lab_id, s.id, s.exit_code, s.output, s.results_json FROM files f "
                "JOIN submissions s ON s.id = f.submission WHERE s.state = 'done' AND f.replaced_by IS NULL "
                "AND s.id = (SELECT MAX(s2.id) FROM files f2 JOIN submissions s2 ON s2.id = f2.submission "
                "WHERE s2.student = s.student AND f2.lab_id = f.lab_id AND s2.state = 'done' AND f2.replaced_by IS NULL) "
                "ORDER BY s.student, f.lab_id");
    std::vector<GradedLab> out;
    while (s.step())
        out.push_back({s.text(0), s.text(1), s.integer(2), static_cast<int>(s.integer(3)), s.text(4), s.text(5)});
    return out;
}

std::optional<std::string> SqliteStore::report_html(long long id, const std::optional<std::string>& student) {
    std::lock_guard<std::mutex> lock(m_);
    Stmt s(db_, "SELECT student, report_html FROM submissions WHERE id = ?");
    s.bind(id);
    if (!s.step() || (student && s.text(0) != *student) || s.null(1)) return std::nullopt;
    return s.text(1);
}

void SqliteStore::add_session(const std::string& id_hash, const std::string& who, double expires) {
    std::lock_guard<std::mutex> lock(m_);
    Stmt old(db_, "DELETE FROM sessions WHERE expires < ?");
    old.bind(now_s()).run();
    Stmt s(db_, "INSERT INTO sessions (id_hash, who, expires) VALUES (?, ?, ?)");
    s.bind(id_hash).bind(who).bind(expires).run();
}

std::optional<Session> SqliteStore::session(const std::string& id_hash) {
    std::lock_guard<std::mutex> lock(m_);
    Stmt s(db_, "SELECT who, expires FROM sessions WHERE id_hash = ? AND expires > ?");
    s.bind(id_hash).bind(now_s());
    if (!s.step()) return std::nullopt;
    return Session{s.text(0), s.real(1)};
}

void SqliteStore::end_session(const std::string& id_hash) {
    std::lock_guard<std::mutex> lock(m_);
    Stmt s(db_, "DELETE FROM sessions WHERE id_hash = ?");
    s.bind(id_hash).run();
}

std::optional<std::string> SqliteStore::pseudonym(const std::string& student) {
    std::lock_guard<std::mutex> lock(m_);
    Stmt s(db_, "SELECT pseudonym FROM ranking WHERE student = ?");
    s.bind(student);
    if (!s.step()) return std::nullopt;
    return s.text(0);
}

bool SqliteStore::set_ranked(const std::string& student, const std::optional<std::string>& pseudonym) {
    std::lock_guard<std::mutex> lock(m_);
    Transaction t(db_);
    Stmt out(db_, "DELETE FROM ranking WHERE student = ?");
    out.bind(student).run();
    if (pseudonym) {
        Stmt taken(db_, "SELECT 1 FROM ranking WHERE pseudonym = ?");
        taken.bind(*pseudonym);
        if (taken.step()) return false;
        Stmt in(db_, "INSERT INTO ranking (student, pseudonym) VALUES (?, ?)");
        in.bind(student).bind(*pseudonym).run();
    }
    t.commit();
    return true;
}

std::vector<RankedResult> SqliteStore::ranked_results() {
    std::lock_guard<std::mutex> lock(m_);
    Stmt s(db_, "SELECT s.student, r.pseudonym, s.id, s.results_json FROM submissions s JOIN ranking r ON r.student = s.student "
                "WHERE s.state = 'done' AND s.results_json IS NOT NULL AND s.results_json != '' ORDER BY s.id");
    std::vector<RankedResult> out;
    while (s.step()) out.push_back({s.text(0), s.text(1), s.integer(2), s.text(3)});
    return out;
}

std::vector<WorkerRecord> SqliteStore::worker_records() {
    std::lock_guard<std::mutex> lock(m_);
    std::vector<WorkerRecord> out;
    Stmt s(db_, "SELECT worker, SUM(outcome = 'graded'), SUM(outcome LIKE 'interrupted%'), "
                "(SELECT outcome FROM attempts b WHERE b.worker = a.worker AND b.outcome LIKE 'interrupted%' "
                " ORDER BY b.ended DESC LIMIT 1) FROM attempts a GROUP BY worker ORDER BY worker");
    while (s.step()) {
        WorkerRecord w;
        w.worker = s.text(0);
        w.done = s.integer(1);
        w.failures = s.integer(2);
        w.last_failure = s.text(3);
        out.push_back(w);
    }
    // A claim still open: the attempt that is the submission's latest, not ended, while it is building or grading.
    Stmt c(db_, "SELECT a.worker, a.submission, s.student, s.state, a.started FROM attempts a JOIN submissions s "
                "ON s.id = a.submission WHERE a.ended IS NULL AND a.attempt = s.attempts AND s.state IN ('building', 'grading')");
    while (c.step())
        for (auto& w : out)
            if (w.worker == c.text(0)) w.current = c.integer(1), w.current_student = c.text(2), w.current_state = c.text(3),
                                       w.current_since = c.real(4);
    return out;
}

bool is_postgres_url(const std::string& db) {
    return db.rfind("postgresql://", 0) == 0 || db.rfind("postgres://", 0) == 0;
}

// pg_store.cpp, where this build has libpqxx.
std::unique_ptr<Store> open_pg_store(const std::string& url, double lease_s);

#ifndef COURSE_HAS_PQXX
std::unique_ptr<Store> open_pg_store(const std::string&, double) {
    throw std::runtime_error("this course-server was built without PostgreSQL (Debian: libpqxx-dev; then build it again)");
}
#endif

std::unique_ptr<Store> open_store(const std::string& db, double lease_s) {
    if (is_postgres_url(db)) return open_pg_store(db, lease_s);
    return std::make_unique<SqliteStore>(db);
}

}  // namespace service
