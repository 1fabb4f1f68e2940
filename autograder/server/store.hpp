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

class Store {
public:
    /// @brief Opens (creating when needed) the database at @p path; throws std::runtime_error on failure.
    explicit Store(const std::string& path);
    ~Store();
    Store(const Store&) = delete;
    Store& operator=(const Store&) = delete;

    /// @brief Stores an upload, durably, before the caller answers. The same upload from the same student
    /// again (a retry) is not stored twice; more than @p per_hour stored in the past hour is refused. The
    /// labs of this upload are taken from the student's submissions still queued (one queued a lab).
    SubmitOutcome submit(const std::string& student, const Upload& up, int per_hour);

    /// @brief Claims the oldest queued submission for @p worker, atomically; nullopt when none is queued.
    std::optional<Job> claim(const std::string& worker);
    /// @brief The claimed submission's checks have started (the stage a student sees).
    void set_grading(long long id, const std::string& claim);
    /// @brief Stores the result of a claim; false when the claim is no longer the submission's.
    bool finish(long long id, const std::string& claim, int exit_code, const std::string& output,
                const std::string& results_json);
    /// @brief A claim that ended without a result (@p reason): queued again, or not graded after
    /// @p max_attempts interrupted attempts.
    void interrupted(long long id, const std::string& claim, const std::string& reason, int max_attempts);
    /// @brief A claim given back unfinished because the server is stopping: queued again, not counted.
    void release(long long id, const std::string& claim);
    /// @brief At start: claims left by a server that stopped (killed, or crashed) count as interrupted
    /// attempts. Returns how many submissions it found.
    int recover(int max_attempts);

    /// @brief One submission as its student sees it; nullopt when it does not exist or, with
    /// @p student, belongs to someone else.
    std::optional<nlohmann::json> submission(long long id, const std::optional<std::string>& student);
    /// @brief The submissions of @p student (all students' without), newest first, without outputs.
    nlohmann::json list(const std::optional<std::string>& student);
    /// @brief For each student and lab, the latest submission graded with that lab.
    std::vector<GradedLab> latest_graded();

private:
    sqlite3* db_ = nullptr;
    std::mutex m_;
};

}  // namespace service
