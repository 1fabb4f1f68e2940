#include "api.hpp"

#include "gradebook.hpp"
#include "reports.hpp"

#include <iostream>

namespace service {
namespace {
void reply(httplib::Response& res, int status, const nlohmann::json& body) {
    res.status = status;
    // Replace, not throw on, bytes that are not UTF-8 (a parser's message may quote the client's).
    res.set_content(body.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n", "application/json");
}

void refuse(httplib::Response& res, int status, const std::string& message) { reply(res, status, {{"error", message}}); }

// The caller's identity from `Authorization: Bearer TOKEN`; answers 401 and returns nullopt without one.
std::optional<Identity> caller(const httplib::Request& req, httplib::Response& res, const TokenTable& tokens) {
    const std::string header = req.get_header_value("Authorization");
    const std::string prefix = "Bearer ";
    if (header.compare(0, prefix.size(), prefix) != 0 || header.size() == prefix.size()) {
        refuse(res, 401, "no token: send the header 'Authorization: Bearer TOKEN'");
        return std::nullopt;
    }
    auto who = tokens.who(header.substr(prefix.size()));
    if (!who) refuse(res, 401, "this token is not known to the course");
    return who;
}

// Whom a request acts for: a forwarder's token (Gradescope's autograder) for the student of the course named
// in X-Course-Student, any other token for itself. Answers 4xx and returns nullopt otherwise: a student's
// token never acts for someone else.
std::optional<Identity> acting_as(const Identity& who, const httplib::Request& req, httplib::Response& res,
                                  const TokenTable& tokens) {
    const char* header = "X-Course-Student";
    const std::string named = req.get_header_value(header);
    if (who.role == Role::Forwarder) {
        if (!req.has_header(header)) refuse(res, 400, "a forwarder's token acts for a student: name them in X-Course-Student");
        else if (!valid_student_id(named) || !tokens.is_student(named))
            refuse(res, 403, "'" + named + "' is not a student of this course (the service's roster)");
        else return Identity{named, Role::Student, ""};
        return std::nullopt;
    }
    if (req.has_header(header) && !(who.role == Role::Student && named == who.id)) {
        refuse(res, 403, "only a forwarder's token acts for another student (X-Course-Student)");
        return std::nullopt;
    }
    return who;
}

std::optional<std::string> own(const Identity& who) {
    return who.role == Role::Instructor ? std::nullopt : std::optional<std::string>(who.id);
}
}  // namespace

void add_routes(httplib::Server& server, Store& store, const TokenTable& tokens, const std::vector<LabSource>& catalog,
                const grading::Rubric& rubric, Workers& workers, const ApiOptions& options) {
    server.set_payload_max_length(options.max_body);
    // httplib answers some errors itself (413 for a body over the limit, 400 for a malformed request): they
    // get a message too.
    server.set_error_handler([&options](const httplib::Request&, httplib::Response& res) {
        if (!res.body.empty()) return;
        if (res.status == 413)
            refuse(res, 413, "the upload is larger than the service takes (" + std::to_string(options.max_body) + " bytes)");
        else if (res.status == 404) refuse(res, 404, "no such endpoint");
        else refuse(res, res.status, "the request could not be read");
    });
    server.set_logger([](const httplib::Request& req, const httplib::Response& res) {
        // Method, path and status only: a token is in a header, never printed.
        std::cerr << "course-server: " << req.remote_addr << " " << req.method << " " << req.path << " " << res.status << "\n";
    });

    server.Get("/api/health", [](const httplib::Request&, httplib::Response& res) { reply(res, 200, {{"ok", true}}); });

    server.Post("/api/submissions", [&](const httplib::Request& req, httplib::Response& res) {
        const auto by = caller(req, res, tokens);
        if (!by) return;
        const auto who = acting_as(*by, req, res, tokens);
        if (!who) return;
        if (who->role != Role::Student) return refuse(res, 403, "only a student's token submits work");
        if (req.get_header_value("Content-Type").rfind("application/json", 0) != 0)
            return refuse(res, 415, "send the files as JSON (Content-Type: application/json)");
        auto parsed = parse_upload(req.body, catalog);
        if (auto* why = std::get_if<std::string>(&parsed)) return refuse(res, 400, *why);
        const Upload& up = std::get<Upload>(parsed);
        const SubmitOutcome out = store.submit(who->id, up, options.per_hour);
        if (out.kind == SubmitOutcome::Kind::RateLimited)
            return refuse(res, 429, "more than " + std::to_string(options.per_hour) +
                                        " submissions in the past hour: wait, then submit again");
        // Stored (committed) before this answer is sent.
        workers.notify();
        auto view = store.submission(out.id, who->id);
        nlohmann::json body = {{"id", out.id}, {"duplicate", out.kind == SubmitOutcome::Kind::Duplicate}};
        if (view) body["state"] = (*view)["state"], body["position"] = view->value("position", nlohmann::json());
        std::cerr << "course-server: " << (by->role == Role::Forwarder ? by->id + " for " : "") << who->id << " submission " << out.id
                  << (out.kind == SubmitOutcome::Kind::Duplicate ? " (the same upload again)" : " stored") << "\n";
        reply(res, out.kind == SubmitOutcome::Kind::Duplicate ? 200 : 202, body);
    });

    server.Get("/api/submissions", [&](const httplib::Request& req, httplib::Response& res) {
        if (const auto by = caller(req, res, tokens))
            if (const auto who = acting_as(*by, req, res, tokens)) reply(res, 200, store.list(own(*who)));
    });

    server.Get(R"(/api/submissions/(\d{1,18}))", [&](const httplib::Request& req, httplib::Response& res) {
        const auto by = caller(req, res, tokens);
        if (!by) return;
        const auto who = acting_as(*by, req, res, tokens);
        if (!who) return;
        const auto view = store.submission(std::stoll(req.matches[1].str()), own(*who));
        // Someone else's submission is answered as one that does not exist.
        if (!view) return refuse(res, 404, "no submission " + req.matches[1].str() + " of yours");
        reply(res, 200, *view);
    });

    server.Get("/api/gradebook", [&](const httplib::Request& req, httplib::Response& res) {
        const auto who = caller(req, res, tokens);
        if (!who) return;
        if (who->role != Role::Instructor) return refuse(res, 403, "the gradebook needs the instructor's token");
        std::vector<std::string> students;
        for (const auto& i : tokens.identities())
            if (i.role == Role::Student) students.push_back(i.id);
        const auto rows = gradebook_rows(students, store.latest_graded(), catalog);
        const std::string format = req.has_param("format") ? req.get_param_value("format") : "json";
        if (format == "csv") {
            res.set_content(grading::gradebook_csv(rows, rubric), "text/csv");
        } else if (format == "json") {
            reply(res, 200, {{"students", rows}});
        } else {
            refuse(res, 400, "format is csv or json");
        }
    });
}

}  // namespace service
