// The store in a PostgreSQL database (store.hpp): the queue that the server and the workers of several GPU
// hosts share. The same tables as the SQLite store's, with a lease on every claim: a worker renews it while
// it grades, and a claim whose lease ran out (its host stopped, or lost the database) is an interrupted
// attempt that any worker's next claim counts before it takes the oldest queued submission. Claims take
// their row with FOR UPDATE SKIP LOCKED, so two workers never take the same submission; times are the
// database server's clock, so that the hosts' clocks need not agree.
#include "store.hpp"

#include "tokens.hpp"

#include <pqxx/pqxx>

#include <stdexcept>

namespace service {
namespace {
const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS submissions (
  id BIGSERIAL PRIMARY KEY,
  student TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  created DOUBLE PRECISION NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('queued', 'building', 'grading', 'done', 'not_graded', 'replaced')),
  attempts INTEGER NOT NULL DEFAULT 0,
  claim TEXT,
  lease_until DOUBLE PRECISION,
  finished DOUBLE PRECISION,
  exit_code INTEGER,
  output TEXT,
  results_json TEXT,
  reason TEXT,
  report_html TEXT
);
CREATE INDEX IF NOT EXISTS submissions_by_student ON submissions (student, content_hash);
CREATE INDEX IF NOT EXISTS submissions_by_state ON submissions (state, id);
CREATE TABLE IF NOT EXISTS files (
  submission BIGINT NOT NULL REFERENCES submissions (id),
  lab_id TEXT NOT NULL,
  lab_dir TEXT NOT NULL,
  name TEXT NOT NULL,
  content BYTEA NOT NULL,
  replaced_by BIGINT REFERENCES submissions (id),
  PRIMARY KEY (submission, name)
);
CREATE TABLE IF NOT EXISTS attempts (
  submission BIGINT NOT NULL REFERENCES submissions (id),
  attempt INTEGER NOT NULL,
  worker TEXT NOT NULL,
  started DOUBLE PRECISION NOT NULL,
  ended DOUBLE PRECISION,
  outcome TEXT,
  PRIMARY KEY (submission, attempt)
);
CREATE TABLE IF NOT EXISTS sessions (
  id_hash TEXT PRIMARY KEY,
  who TEXT NOT NULL,
  expires DOUBLE PRECISION NOT NULL
);
CREATE TABLE IF NOT EXISTS ranking (
  student TEXT PRIMARY KEY,
  pseudonym TEXT NOT NULL UNIQUE
);
)sql";

// The database server's clock, in seconds since the epoch (SQL).
constexpr const char* kNow = "EXTRACT(EPOCH FROM clock_timestamp())::DOUBLE PRECISION";

nlohmann::json nullable_text(const pqxx::field& f) { return f.is_null() ? nlohmann::json() : nlohmann::json(f.c_str()); }
nlohmann::json nullable_real(const pqxx::field& f) { return f.is_null() ? nlohmann::json() : nlohmann::json(f.as<double>()); }
nlohmann::json nullable_int(const pqxx::field& f) { return f.is_null() ? nlohmann::json() : nlohmann::json(f.as<long long>()); }
std::string text(const pqxx::field& f) { return f.is_null() ? std::string() : std::string(f.c_str(), f.size()); }

class PgStore final : public Store {
public:
    PgStore(const std::string& url, double lease_s) : url_(url), lease_s_(lease_s) {
        connect();
        pqxx::work w(*c_);
        // One schema for everyone: the server and every worker host run this; the lock makes them take turns.
        w.exec("SELECT pg_advisory_xact_lock(7240301)");
        w.exec(kSchema);
        w.commit();
    }

    SubmitOutcome submit(const std::string& student, const Upload& up, int per_hour) override {
        return with_connection([&] {
            pqxx::work w(*c_);
            // A student's submissions are taken one at a time: the duplicate check, the rate limit and the
            // labs taken from queued ones see one state.
            w.exec_params("SELECT pg_advisory_xact_lock(hashtext($1))", student);
            const auto dup = w.exec_params(
                "SELECT id FROM submissions WHERE student = $1 AND content_hash = $2 AND state NOT IN ('replaced', "
                "'not_graded') ORDER BY id DESC LIMIT 1",
                student, up.content_hash);
            if (!dup.empty()) return SubmitOutcome{SubmitOutcome::Kind::Duplicate, dup[0][0].as<long long>()};
            const auto recent = w.exec_params(std::string("SELECT COUNT(*) FROM submissions WHERE student = $1 AND created > ") +
                                                  kNow + " - 3600",
                                              student);
            if (recent[0][0].as<long long>() >= per_hour) return SubmitOutcome{SubmitOutcome::Kind::RateLimited, 0};
            const long long id =
                w.exec_params(std::string("INSERT INTO submissions (student, content_hash, created, state) VALUES ($1, $2, ") + kNow +
                                  ", 'queued') RETURNING id",
                              student, up.content_hash)[0][0]
                    .as<long long>();
            for (const auto& f : up.files) {
                w.exec_params("INSERT INTO files (submission, lab_id, lab_dir, name, content) VALUES ($1, $2, $3, $4, $5)", id,
                              f.lab->id, f.lab->dir, f.name, pqxx::binarystring(f.content.data(), f.content.size()));
                // One queued submission a lab: an older one still waiting gives this lab up.
                w.exec_params("UPDATE files SET replaced_by = $1 WHERE lab_id = $2 AND replaced_by IS NULL AND submission IN "
                              "(SELECT id FROM submissions WHERE student = $3 AND state = 'queued' AND id != $1)",
                              id, f.lab->id, student);
            }
            w.exec_params("UPDATE submissions SET state = 'replaced', reason = 'replaced by submission ' || $1::TEXT "
                          "WHERE student = $2 AND state = 'queued' AND id != $1 AND NOT EXISTS "
                          "(SELECT 1 FROM files WHERE files.submission = submissions.id AND files.replaced_by IS NULL)",
                          id, student);
            w.commit();
            return SubmitOutcome{SubmitOutcome::Kind::Stored, id};
        });
    }

    std::optional<Job> claim(const std::string& worker) override {
        return with_connection([&]() -> std::optional<Job> {
            pqxx::work w(*c_);
            take_back_lost(w, max_attempts_);  // claims whose lease ran out first
            const auto next = w.exec(std::string(kNextQueuedSql) + " FOR UPDATE OF s SKIP LOCKED");
            if (next.empty()) {
                w.commit();
                return std::nullopt;
            }
            Job job;
            job.id = next[0][0].as<long long>();
            job.student = text(next[0][1]);
            job.attempt = next[0][2].as<int>() + 1;
            job.claim = worker + ":" + std::to_string(job.attempt) + ":" + make_token().substr(0, 16);
            w.exec_params(std::string("UPDATE submissions SET state = 'building', attempts = $1, claim = $2, lease_until = ") + kNow +
                              " + $3 WHERE id = $4",
                          job.attempt, job.claim, lease_s_, job.id);
            w.exec_params(std::string("INSERT INTO attempts (submission, attempt, worker, started) VALUES ($1, $2, $3, ") + kNow + ")",
                          job.id, job.attempt, worker);
            for (const auto& f : w.exec_params("SELECT lab_id, lab_dir, name, content FROM files WHERE submission = $1 AND "
                                               "replaced_by IS NULL ORDER BY lab_id",
                                               job.id))
                job.files.push_back({text(f[0]), text(f[1]), text(f[2]), pqxx::binarystring(f[3]).str()});
            w.commit();
            return job;
        });
    }

    bool renew(long long id, const std::string& claim) override {
        return with_connection([&] {
            pqxx::work w(*c_);
            const auto r = w.exec_params(std::string("UPDATE submissions SET lease_until = ") + kNow +
                                             " + $1 WHERE id = $2 AND claim = $3 AND state IN ('building', 'grading')",
                                         lease_s_, id, claim);
            w.commit();
            return r.affected_rows() == 1;
        });
    }

    void set_grading(long long id, const std::string& claim) override {
        with_connection([&] {
            pqxx::work w(*c_);
            w.exec_params("UPDATE submissions SET state = 'grading' WHERE id = $1 AND claim = $2 AND state = 'building'", id, claim);
            w.commit();
            return 0;
        });
    }

    bool finish(long long id, const std::string& claim, int exit_code, const std::string& output,
                const std::string& results_json, const std::string& report_html) override {
        return with_connection([&] {
            pqxx::work w(*c_);
            const auto r = w.exec_params(
                std::string("UPDATE submissions SET state = 'done', finished = ") + kNow +
                    ", exit_code = $1, output = $2, results_json = $3, report_html = NULLIF($4, ''), claim = NULL, "
                    "lease_until = NULL WHERE id = $5 AND claim = $6 AND state IN ('building', 'grading')",
                exit_code, output, results_json, report_html, id, claim);
            if (r.affected_rows() != 1) return false;
            w.exec_params(std::string("UPDATE attempts SET ended = ") + kNow +
                              ", outcome = 'graded' WHERE submission = $1 AND attempt = (SELECT attempts FROM submissions WHERE id = $1)",
                          id);
            w.commit();
            return true;
        });
    }

    void interrupted(long long id, const std::string& claim, const std::string& reason, int max_attempts) override {
        with_connection([&] {
            pqxx::work w(*c_);
            interrupt(w, id, claim, reason, max_attempts);
            w.commit();
            return 0;
        });
    }

    void release(long long id, const std::string& claim) override {
        with_connection([&] {
            pqxx::work w(*c_);
            w.exec_params("DELETE FROM attempts WHERE submission = $1 AND attempt = (SELECT attempts FROM submissions WHERE id = $1 "
                          "AND claim = $2)",
                          id, claim);
            w.exec_params("UPDATE submissions SET state = 'queued', claim = NULL, lease_until = NULL, attempts = attempts - 1 "
                          "WHERE id = $1 AND claim = $2",
                          id, claim);
            w.commit();
            return 0;
        });
    }

    // Other hosts' workers may be grading now: only claims whose lease ran out are recovered.
    int recover(int max_attempts) override {
        max_attempts_ = max_attempts;
        return with_connection([&] {
            pqxx::work w(*c_);
            const int lost = take_back_lost(w, max_attempts);
            w.commit();
            return lost;
        });
    }

    std::optional<nlohmann::json> submission(long long id, const std::optional<std::string>& student) override {
        return with_connection([&]() -> std::optional<nlohmann::json> {
            pqxx::read_transaction w(*c_);
            const auto r = w.exec_params("SELECT student, state, created, finished, attempts, exit_code, output, results_json, "
                                         "reason, report_html IS NOT NULL FROM submissions WHERE id = $1",
                                         id);
            if (r.empty() || (student && text(r[0][0]) != *student)) return std::nullopt;
            const auto& s = r[0];
            nlohmann::json j = {{"id", id},
                                {"student", text(s[0])},
                                {"state", text(s[1])},
                                {"created", s[2].as<double>()},
                                {"finished", nullable_real(s[3])},
                                {"attempts", s[4].as<long long>()},
                                {"exit_code", nullable_int(s[5])},
                                {"output", nullable_text(s[6])},
                                {"reason", nullable_text(s[8])},
                                {"report", s[9].as<bool>()}};
            const std::string results = text(s[7]);
            j["results"] = results.empty() ? nlohmann::json() : nlohmann::json::parse(results, nullptr, false);
            if (j["state"] == "queued")
                j["position"] = w.exec_params("SELECT COUNT(*) FROM submissions WHERE state = 'queued' AND id <= $1", id)[0][0]
                                    .as<long long>();
            nlohmann::json labs = nlohmann::json::array(), replaced = nlohmann::json::array();
            for (const auto& f : w.exec_params("SELECT lab_id, replaced_by FROM files WHERE submission = $1 ORDER BY lab_id", id))
                (f[1].is_null() ? labs : replaced).push_back(text(f[0]));
            j["labs"] = labs;
            j["labs_replaced"] = replaced;
            nlohmann::json attempts = nlohmann::json::array();
            for (const auto& a : w.exec_params(
                     "SELECT attempt, worker, started, ended, outcome FROM attempts WHERE submission = $1 ORDER BY attempt", id))
                attempts.push_back({{"attempt", a[0].as<long long>()}, {"worker", text(a[1])}, {"started", a[2].as<double>()},
                                    {"ended", nullable_real(a[3])}, {"outcome", nullable_text(a[4])}});
            j["attempt_log"] = attempts;
            return j;
        });
    }

    nlohmann::json list(const std::optional<std::string>& student) override {
        return with_connection([&] {
            pqxx::read_transaction w(*c_);
            const std::string cols = "SELECT id, student, state, created, finished, attempts, exit_code, reason FROM submissions ";
            const pqxx::result r = student ? w.exec_params(cols + "WHERE student = $1 ORDER BY id DESC", *student)
                                           : w.exec(cols + "ORDER BY id DESC");
            nlohmann::json out = nlohmann::json::array();
            for (const auto& s : r)
                out.push_back({{"id", s[0].as<long long>()},
                               {"student", text(s[1])},
                               {"state", text(s[2])},
                               {"created", s[3].as<double>()},
                               {"finished", nullable_real(s[4])},
                               {"attempts", s[5].as<long long>()},
                               {"exit_code", nullable_int(s[6])},
                               {"reason", nullable_text(s[7])}});
            return out;
        });
    }

    std::vector<GradedLab> latest_graded() override {
        return with_connection([&] {
            pqxx::read_transaction w(*c_);
            std::vector<GradedLab> out;
            for (const auto& s : w.exec(
                     "SELECT s.student, f.lab_id, s.id, s.exit_code, s.output, s.results_json FROM files f "
                     "JOIN submissions s ON s.id = f.submission WHERE s.state = 'done' AND f.replaced_by IS NULL "
                     "AND s.id = (SELECT MAX(s2.id) FROM files f2 JOIN submissions s2 ON s2.id = f2.submission "
                     "WHERE s2.student = s.student AND f2.lab_id = f.lab_id AND s2.state = 'done' AND f2.replaced_by IS NULL) "
                     "ORDER BY s.student, f.lab_id"))
                out.push_back({text(s[0]), text(s[1]), s[2].as<long long>(), s[3].as<int>(), text(s[4]), text(s[5])});
            return out;
        });
    }

    std::optional<std::string> report_html(long long id, const std::optional<std::string>& student) override {
        return with_connection([&]() -> std::optional<std::string> {
            pqxx::read_transaction w(*c_);
            const auto r = w.exec_params("SELECT student, report_html FROM submissions WHERE id = $1", id);
            if (r.empty() || (student && text(r[0][0]) != *student) || r[0][1].is_null()) return std::nullopt;
            return text(r[0][1]);
        });
    }

    void add_session(const std::string& id_hash, const std::string& who, double expires) override {
        with_connection([&] {
            pqxx::work w(*c_);
            w.exec(std::string("DELETE FROM sessions WHERE expires < ") + kNow);
            w.exec_params("INSERT INTO sessions (id_hash, who, expires) VALUES ($1, $2, $3)", id_hash, who, expires);
            w.commit();
            return 0;
        });
    }

    std::optional<Session> session(const std::string& id_hash) override {
        return with_connection([&]() -> std::optional<Session> {
            pqxx::read_transaction w(*c_);
            const auto r = w.exec_params(std::string("SELECT who, expires FROM sessions WHERE id_hash = $1 AND expires > ") + kNow,
                                         id_hash);
            if (r.empty()) return std::nullopt;
            return Session{text(r[0][0]), r[0][1].as<double>()};
        });
    }

    void end_session(const std::string& id_hash) override {
        with_connection([&] {
            pqxx::work w(*c_);
            w.exec_params("DELETE FROM sessions WHERE id_hash = $1", id_hash);
            w.commit();
            return 0;
        });
    }

    std::optional<std::string> pseudonym(const std::string& student) override {
        return with_connection([&]() -> std::optional<std::string> {
            pqxx::read_transaction w(*c_);
            const auto r = w.exec_params("SELECT pseudonym FROM ranking WHERE student = $1", student);
            if (r.empty()) return std::nullopt;
            return text(r[0][0]);
        });
    }

    bool set_ranked(const std::string& student, const std::optional<std::string>& pseudonym) override {
        return with_connection([&] {
            pqxx::work w(*c_);
            w.exec("LOCK TABLE ranking IN SHARE ROW EXCLUSIVE MODE");
            w.exec_params("DELETE FROM ranking WHERE student = $1", student);
            if (pseudonym) {
                if (!w.exec_params("SELECT 1 FROM ranking WHERE pseudonym = $1", *pseudonym).empty()) return false;
                w.exec_params("INSERT INTO ranking (student, pseudonym) VALUES ($1, $2)", student, *pseudonym);
            }
            w.commit();
            return true;
        });
    }

    std::vector<RankedResult> ranked_results() override {
        return with_connection([&] {
            pqxx::read_transaction w(*c_);
            std::vector<RankedResult> out;
            for (const auto& s : w.exec("SELECT s.student, r.pseudonym, s.id, s.results_json FROM submissions s JOIN ranking r "
                                        "ON r.student = s.student WHERE s.state = 'done' AND s.results_json IS NOT NULL AND "
                                        "s.results_json != '' ORDER BY s.id"))
                out.push_back({text(s[0]), text(s[1]), s[2].as<long long>(), text(s[3])});
            return out;
        });
    }

    std::vector<WorkerRecord> worker_records() override {
        return with_connection([&] {
            pqxx::read_transaction w(*c_);
            std::vector<WorkerRecord> out;
            for (const auto& s : w.exec(
                     "SELECT worker, SUM(CASE WHEN outcome = 'graded' THEN 1 ELSE 0 END), "
                     "SUM(CASE WHEN outcome LIKE 'interrupted%' THEN 1 ELSE 0 END), "
                     "(SELECT outcome FROM attempts b WHERE b.worker = a.worker AND b.outcome LIKE 'interrupted%' "
                     " ORDER BY b.ended DESC LIMIT 1) FROM attempts a GROUP BY worker ORDER BY worker")) {
                WorkerRecord r;
                r.worker = text(s[0]);
                r.done = s[1].as<long long>();
                r.failures = s[2].as<long long>();
                r.last_failure = text(s[3]);
                out.push_back(r);
            }
            for (const auto& c : w.exec("SELECT a.worker, a.submission, s.student, s.state, a.started FROM attempts a JOIN "
                                        "submissions s ON s.id = a.submission WHERE a.ended IS NULL AND a.attempt = s.attempts "
                                        "AND s.state IN ('building', 'grading')"))
                for (auto& r : out)
                    if (r.worker == text(c[0])) {
                        r.current = c[1].as<long long>();
                        r.current_student = text(c[2]);
                        r.current_state = text(c[3]);
                        r.current_since = c[4].as<double>();
                    }
            return out;
        });
    }

private:
    void connect() {
        try {
            c_ = std::make_unique<pqxx::connection>(url_);
        } catch (const std::exception& e) {
            throw std::runtime_error("cannot open the database: " + std::string(e.what()));
        }
    }

    // Runs @p f on the connection, one caller at a time; a connection found broken is made again once, and
    // @p f run again (each call is one transaction: one that broke was not committed).
    template <class F>
    auto with_connection(F&& f) -> decltype(f()) {
        std::lock_guard<std::mutex> lock(m_);
        try {
            if (!c_) connect();
            return f();
        } catch (const pqxx::broken_connection&) {
            // Lost before the commit was sent, so nothing of @p f took effect: run it again on a new connection.
            // A connection lost during the commit is pqxx::in_doubt_error instead, never run again: a claim that
            // did commit is then left to its lease, taken back when it runs out (take_back_lost).
            c_.reset();
            connect();
            return f();
        }
    }

    // Each claim whose lease ran out is an interrupted attempt (taken row by row, skipping those another
    // worker is counting now). Returns how many.
    static int take_back_lost(pqxx::work& w, int max_attempts) {
        const auto lost = w.exec(std::string("SELECT id, claim FROM submissions WHERE state IN ('building', 'grading') AND "
                                             "lease_until < ") + kNow + " FOR UPDATE SKIP LOCKED");
        for (const auto& row : lost)
            interrupt(w, row[0].as<long long>(), text(row[1]),
                      "its worker stopped renewing its claim (the host stopped, or lost the database)", max_attempts);
        return static_cast<int>(lost.size());
    }

    // The claim @p claim of submission @p id ended without a result: queued again, or not graded after
    // @p max_attempts interrupted attempts.
    static void interrupt(pqxx::work& w, long long id, const std::string& claim, const std::string& reason, int max_attempts) {
        w.exec_params(std::string("UPDATE attempts SET ended = ") + kNow +
                          ", outcome = $1 WHERE submission = $2 AND attempt = (SELECT attempts FROM submissions WHERE id = $2 AND "
                          "claim = $3)",
                      "interrupted: " + reason, id, claim);
        w.exec_params(std::string("UPDATE submissions SET claim = NULL, lease_until = NULL, "
                                  "state = CASE WHEN attempts >= $1 THEN 'not_graded' ELSE 'queued' END, "
                                  "reason = CASE WHEN attempts >= $1 THEN 'not graded: ' || attempts::TEXT || "
                                  "' attempts were interrupted; the last: ' || $2 ELSE reason END, "
                                  "finished = CASE WHEN attempts >= $1 THEN ") +
                          kNow + " ELSE finished END WHERE id = $3 AND claim = $4",
                      max_attempts, reason, id, claim);
    }

    std::string url_;
    double lease_s_;
    int max_attempts_ = 2;  // what recover() was told, for the claims whose lease claim() finds ran out
    std::unique_ptr<pqxx::connection> c_;
    std::mutex m_;
};
}  // namespace

std::unique_ptr<Store> open_pg_store(const std::string& url, double lease_s) { return std::make_unique<PgStore>(url, lease_s); }

}  // namespace service
