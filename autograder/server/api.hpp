/// @file api.hpp
/// @brief The service's HTTP endpoints. Every one but /api/health needs `Authorization: Bearer TOKEN`
/// (tokens are never taken from a URL); a student reaches only their own submissions.
///
///   POST /api/submissions        a student's upload (submission.hpp); 202 stored and queued, 200 the
///                                same upload already stored (a retry), 4xx refused with a message
///   GET  /api/submissions        the caller's submissions (the instructor: everyone's)
///   GET  /api/submissions/ID     one submission: state (queued, building, grading, done, not_graded,
///                                replaced), queue position, the printed table, results.json, attempts,
///                                whether a report.html is kept (the web pages serve it)
///   GET  /api/gradebook?format=csv|json   the instructor's gradebook, as grade --roster writes it
///   GET  /api/health             no token: {"ok": true}
///
/// A forwarder's token (tokens.hpp) submits and reads the submissions endpoints for the student of the
/// course it names in `X-Course-Student: ID`; a student's token that names anyone else is refused (403).
#pragma once

#include "results.hpp"
#include "store.hpp"
#include "submission.hpp"
#include "tokens.hpp"
#include "worker.hpp"

#include <httplib.h>

#include <string>
#include <vector>

namespace service {

struct ApiOptions {
    std::size_t max_body = 1 << 20;  ///< bytes of an upload's body
    int per_hour = 30;               ///< submissions a student may store in any hour
};

/// @brief Registers the endpoints on @p server. Everything passed must outlive it.
void add_routes(httplib::Server& server, Store& store, const TokenTable& tokens, const std::vector<LabSource>& catalog,
                const grading::Rubric& rubric, Workers& workers, const ApiOptions& options);

}  // namespace service
