/// @file pages.hpp
/// @brief The service's web pages: server-rendered HTML that reads without JavaScript, beside the API.
///
/// A browser signs in once with a token typed into a form (POST /signin, never in a URL); the server then
/// keeps a session: a random id in an HttpOnly, SameSite=Strict cookie, stored only as its hash, with an
/// expiry. Every form that changes something carries a token derived from the session (CSRF).
///
///   GET  /signin, POST /signin, POST /signout
///   GET  /student                  upload form (the API's checks and limits) and the student's history
///   POST /student/upload
///   GET  /submissions/ID           queue position and stage (refreshing itself while it waits), then the result
///   GET  /submissions/ID/report    the report.html the grading wrote (report_html.cpp)
///   GET  /ranking, POST /ranking   the opt-in, anonymised ranking of correct kernels against the library peer
///   GET  /instructor               every student's latest results; the gradebook (.csv, .json)
///   GET  /instructor/queue         the queue and the workers: GPU, current job, jobs done, failures
#pragma once

#include "api.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace service {

struct PagesOptions {
    double session_hours = 12;  ///< a session's life from sign-in
};

/// @brief One line of a lab's ranking: a student's fastest correct kernel on a check against a library peer.
struct RankEntry {
    std::string lab_id, check, unit;  ///< e.g. "01", "speed: close to cub::DeviceReduce::Sum", "x CUB"
    std::string student, pseudonym;
    double figure = 0;  ///< the fraction of the peer's speed
};

/// @brief The best figure of each student on each check against a library peer ("x CUB", "x cuBLAS",
/// "x memcpy", "x copy"), from the graded results of @p results whose lab had no correctness failure;
/// each check's entries fastest first.
std::vector<RankEntry> ranking(const std::vector<RankedResult>& results);

/// @brief Registers the pages on @p server. Everything passed must outlive it.
void add_pages(httplib::Server& server, Store& store, const TokenTable& tokens, const std::vector<LabSource>& catalog,
               const grading::Rubric& rubric, Workers& workers, const ApiOptions& api, const PagesOptions& options);

}  // namespace service
