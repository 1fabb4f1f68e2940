/// @file store.hpp
/// @brief The service's one store, a SQLite database: submissions, their files, each grading attempt and
/// each result.
///
/// A submission's life: queued -> building -> grading -> done, or not_graded when two attempts were
/// interrupted (the server stopped, the grading process was killed), or replaced when a newer submission
/// of the same student took all of its labs before it was claimed. Every change is one transaction, and a
/// worker's claim carries a fresh key that only that worker's result may finish: a submission is graded
/// exactly once however often its graders die.
#pragma once

#include "submission.hpp"

#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace service {

/// @brief The next submission a worker takes, in both stores' SQL: a fair share between students before
/// the order of arrival. The queued submission of the student served longest ago (whose latest grading
/// attempt started first; never served: before anyone) goes first, the oldest of theirs: a student who
/// queues many gradings waits behind every other student's next one, however early they came.
inline constexpr const char* kNextQueuedSql =
    "SELECT s.id, s.student, s.attempts, (SELECT MAX(a.started) FROM attempts a JOIN submissions o ON "
    "o.id = a.submission WHERE o.student = s.student) AS served FROM submissions s WHERE s.state = 'queued' "
    "ORDER BY served NULLS FIRST, s.id LIMIT 1";

/// @brief A claimed submission, as a worker grades it.
struct Job {
    long long id = 0;
    std::string claim;  ///< the key of this claim: only it may change the submission's state
    int attempt = 0;    ///< 1 for the first claim
    std::string student;
    struct File {
        std::string lab_id, lab_dir, name, content;
    };
    std::vector<File> files;  ///< the labs still to grade (a newer submission may have taken some)
};

/// @brief How a submission was taken.
struct SubmitOutcome {
    enum class Kind { Stored, Duplicate, RateLimited } kind = Kind::Stored;
    long long id = 0;  ///< the stored submission (the earlier one for a duplicate)
};

/// @brief Submissions in the order a gradebook needs them: the latest graded one of each lab of a student.
struct GradedLab {
    std::string student, lab_id;
    long long submission = 0;
    int exit_code = 0;
    std::string output, results_json;
};

/// @brief A signed-in browser of the web pages (pages.hpp): whose it is, until when.
struct Session {
    std::string who;  ///< the identity's id (a student's, or "instructor")
    double expires = 0;
};

/// @brief A graded submission of a student who takes part in the ranking.
struct RankedResult {
    std::string student, pseudonym;
    long long submission = 0;
    std::string results_json;
};

/// @brief What the store knows of one worker from its attempts: jobs graded, failures, the current one.
struct WorkerRecord {
    std::string worker;
    long long done = 0, failures = 0;
    std::string last_failure;                  ///< the latest interrupted attempt's outcome
    long long current = 0;                     ///< the submission it grades now, 0 when idle
    std::string current_student, current_state;
    double current_since = 0;
};

/// @brief The store's operations, whatever database keeps them (open_store()).
class Store {
public:
    virtual ~Store() = default;

    /// @brief Stores an upload, durably, before the caller answers. The same upload from the same student
    /// again (a retry) is not stored twice, unless the earlier one ended not graded; more than @p per_hour
    /// stored in the past hour is refused. The labs of this upload are taken from the student's
    /// submissions still queued (one queued a lab).
    virtual SubmitOutcome submit(const std::string& student, const Upload& up, int per_hour) = 0;

    /// @brief Claims the oldest queued submission for @p worker, atomically; nullopt when none is queued.
    /// Where claims hold leases, claims whose lease ran out are first counted as interrupted attempts.
    virtual std::optional<Job> claim(const std::string& worker) = 0;
    /// @brief Renews the lease of a claim while its worker grades; false when the claim is no longer the
    /// submission's (its lease ran out and another worker took it): the grading should stop.
    virtual bool renew(long long id, const std::string& claim) = 0;
    /// @brief The claimed submission's checks have started (the stage a student sees).
    virtual void set_grading(long long id, const std::string& claim) = 0;
    /// @brief Stores the result of a claim; false when the claim is no longer the submission's.
    /// @p report_html is the grading's report.html (empty when the grading wrote none).
    virtual bool finish(long long id, const std::string& claim, int exit_code, const std::string& output,
                        const std::string& results_json, const std::string& report_html = "") = 0;
    /// @brief A claim that ended without a result (@p reason): queued again, or not graded after
    /// @p max_attempts interrupted attempts.
    virtual void interrupted(long long id, const std::string& claim, const std::string& reason, int max_attempts) = 0;
    /// @brief A claim given back unfinished because the server is stopping: queued again, not counted.
    virtual void release(long long id, const std::string& claim) = 0;
    /// @brief At start: claims left by a server that stopped (killed, or crashed) count as interrupted
    /// attempts (where claims hold leases: those whose lease ran out). Returns how many it found.
    virtual int recover(int max_attempts) = 0;

    /// @brief One submission as its student sees it ("report": whether its grading's report.html is kept);
    /// nullopt when it does not exist or, with @p student, belongs to someone else.
    virtual std::optional<nlohmann::json> submission(long long id, const std::optional<std::string>& student) = 0;
    /// @brief The submissions of @p student (all students' without), newest first, without outputs.
    virtual nlohmann::json list(const std::optional<std::string>& student) = 0;
    /// @brief For each student and lab, the latest submission graded with that lab.
    virtual std::vector<GradedLab> latest_graded() = 0;
    /// @brief The report.html a submission's grading wrote; nullopt when there is none or, with @p student,
    /// the submission is someone else's.
    virtual std::optional<std::string> report_html(long long id, const std::optional<std::string>& student) = 0;

    /// @brief Keeps a web session under the hash of its id (the id itself is never stored).
    virtual void add_session(const std::string& id_hash, const std::string& who, double expires) = 0;
    /// @brief The session whose id hashes to @p id_hash, while it has not expired.
    virtual std::optional<Session> session(const std::string& id_hash) = 0;
    /// @brief Ends the session whose id hashes to @p id_hash.
    virtual void end_session(const std::string& id_hash) = 0;

    /// @brief The student's pseudonym in the ranking; nullopt when they have not opted in.
    virtual std::optional<std::string> pseudonym(const std::string& student) = 0;
    /// @brief Opts @p student into the ranking under @p pseudonym (false: the pseudonym is taken), or out
    /// with nullopt.
    virtual bool set_ranked(const std::string& student, const std::optional<std::string>& pseudonym) = 0;
    /// @brief Every graded submission, with results, of the students in the ranking.
    virtual std::vector<RankedResult> ranked_results() = 0;

    /// @brief Each worker that has ever claimed a submission: jobs graded, interrupted, and its current one.
    virtual std::vector<WorkerRecord> worker_records() = 0;
};

/// @brief The store in one SQLite file, for a server whose workers all run in it (claims hold no lease:
/// those left when it stopped are recovered at its next start).
class SqliteStore final : public Store {
public:
    /// @brief Opens (creating when needed) the database at @p path; throws std::runtime_error on failure.
    explicit SqliteStore(const std::string& path);
    ~SqliteStore() override;
    SqliteStore(const SqliteStore&) = delete;
    SqliteStore& operator=(const SqliteStore&) = delete;

    SubmitOutcome submit(const std::string& student, const Upload& up, int per_hour) override;
    std::optional<Job> claim(const std::string& worker) override;
    bool renew(long long id, const std::string& claim) override;
    void set_grading(long long id, const std::string& claim) override;
    bool finish(long long id, const std::string& claim, int exit_code, const std::string& output,
                const std::string& results_json, const std::string& report_html = "") override;
    void interrupted(long long id, const std::string& claim, const std::string& reason, int max_attempts) override;
    void release(long long id, const std::string& claim) override;
    int recover(int max_attempts) override;
    std::optional<nlohmann::json> submission(long long id, const std::optional<std::string>& student) override;
    nlohmann::json list(const std::optional<std::string>& student) override;
    std::vector<GradedLab> latest_graded() override;
    std::optional<std::string> report_html(long long id, const std::optional<std::string>& student) override;
    void add_session(const std::string& id_hash, const std::string& who, double expires) override;
    std::optional<Session> session(const std::string& id_hash) override;
    void end_session(const std::string& id_hash) override;
    std::optional<std::string> pseudonym(const std::string& student) override;
    bool set_ranked(const std::string& student, const std::optional<std::string>& pseudonym) override;
    std::vector<RankedResult> ranked_results() override;
    std::vector<WorkerRecord> worker_records() override;

private:
    sqlite3* db_ = nullptr;
    std::mutex m_;
};

/// @brief Whether @p db names a PostgreSQL database (postgresql://... or postgres://...), not a SQLite file.
bool is_postgres_url(const std::string& db);

/// @brief Opens the store @p db names: a PostgreSQL database (a URL, shared by the workers of several hosts;
/// a claim's lease lasts @p lease_s seconds from its last renewal) or a SQLite file. Throws
/// std::runtime_error when it cannot, or when this build has no PostgreSQL client (libpqxx).
std::unique_ptr<Store> open_store(const std::string& db, double lease_s = 60);

}  // namespace service
