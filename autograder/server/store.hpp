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

class Store {
public:
    /// @brief Opens (creating when needed) the database at @p path; throws std::runtime_error on failure.
    explicit Store(const std::string& path);
    ~Store();
    Store(const Store&) = delete;
    Store& operator=(const Store&) = delete;

    /// @brief Stores an upload, durably, before the caller answers. The same upload from the same student
    /// again (a retry) is not stored twice, unless the earlier one ended not graded; more than @p per_hour
    /// stored in the past hour is refused. The labs of this upload are taken from the student's
    /// submissions still queued (one queued a lab).
    SubmitOutcome submit(const std::string& student, const Upload& up, int per_hour);

    /// @brief Claims the oldest queued submission for @p worker, atomically; nullopt when none is queued.
    std::optional<Job> claim(const std::string& worker);
    /// @brief The claimed submission's checks have started (the stage a student sees).
    void set_grading(long long id, const std::string& claim);
    /// @brief Stores the result of a claim; false when the claim is no longer the submission's.
    /// @p report_html is the grading's report.html (empty when the grading wrote none).
    bool finish(long long id, const std::string& claim, int exit_code, const std::string& output,
                const std::string& results_json, const std::string& report_html = "");
    /// @brief A claim that ended without a result (@p reason): queued again, or not graded after
    /// @p max_attempts interrupted attempts.
    void interrupted(long long id, const std::string& claim, const std::string& reason, int max_attempts);
    /// @brief A claim given back unfinished because the server is stopping: queued again, not counted.
    void release(long long id, const std::string& claim);
    /// @brief At start: claims left by a server that stopped (killed, or crashed) count as interrupted
    /// attempts. Returns how many submissions it found.
    int recover(int max_attempts);

    /// @brief One submission as its student sees it ("report": whether its grading's report.html is kept); nullopt when it does not exist or, with
    /// @p student, belongs to someone else.
    std::optional<nlohmann::json> submission(long long id, const std::optional<std::string>& student);
    /// @brief The submissions of @p student (all students' without), newest first, without outputs.
    nlohmann::json list(const std::optional<std::string>& student);
    /// @brief For each student and lab, the latest submission graded with that lab.
    std::vector<GradedLab> latest_graded();
    /// @brief The report.html a submission's grading wrote; nullopt when there is none or, with @p student,
    /// the submission is someone else's.
    std::optional<std::string> report_html(long long id, const std::optional<std::string>& student);

    /// @brief Keeps a web session under the hash of its id (the id itself is never stored).
    void add_session(const std::string& id_hash, const std::string& who, double expires);
    /// @brief The session whose id hashes to @p id_hash, while it has not expired.
    std::optional<Session> session(const std::string& id_hash);
    void end_session(const std::string& id_hash);

    /// @brief The student's pseudonym in the ranking; nullopt when they have not opted in.
    std::optional<std::string> pseudonym(const std::string& student);
    /// @brief Opts @p student into the ranking under @p pseudonym (false: the pseudonym is taken), or out
    /// with nullopt.
    bool set_ranked(const std::string& student, const std::optional<std::string>& pseudonym);
    /// @brief Every graded submission, with results, of the students in the ranking.
    std::vector<RankedResult> ranked_results();

    /// @brief Each worker that has ever claimed a submission: jobs graded, interrupted, and its current one.
    std::vector<WorkerRecord> worker_records();

private:
    sqlite3* db_ = nullptr;
    std::mutex m_;
};

}  // namespace service
