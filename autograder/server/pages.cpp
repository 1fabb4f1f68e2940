#include "pages.hpp"

#include "gradebook.hpp"
#include "reports.hpp"

#include <openssl/crypto.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <iostream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <tuple>

namespace service {
namespace {
using grading::xml_escape;
const char* kSessionCookie = "course_session";
const char* kSigninCookie = "course_signin";  // the sign-in form's own CSRF value, before any session

double now_s() { return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count(); }

std::string when(double t) {
    const std::time_t s = static_cast<std::time_t>(t);
    std::tm tm{};
    gmtime_r(&s, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S UTC", &tm);
    return buf;
}

bool same_secret(const std::string& a, const std::string& b) {
    return a.size() == b.size() && !a.empty() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

bool is_token_text(const std::string& s) {
    return s.size() == 64 && s.find_first_not_of("0123456789abcdef") == std::string::npos;
}

std::string cookie(const httplib::Request& req, const std::string& name) {
    for (auto [it, end] = req.headers.equal_range("Cookie"); it != end; ++it) {
        std::istringstream in(it->second);
        for (std::string part; std::getline(in, part, ';');) {
            const auto b = part.find_first_not_of(' ');
            const auto eq = part.find('=');
            if (b != std::string::npos && eq != std::string::npos && part.substr(b, eq - b) == name) return part.substr(eq + 1);
        }
    }
    return "";
}

// The fields of an application/x-www-form-urlencoded body: a form's values come from the body only, never
// from the URL's query.
std::map<std::string, std::string> form_fields(const httplib::Request& req) {
    std::map<std::string, std::string> out;
    if (req.get_header_value("Content-Type").rfind("application/x-www-form-urlencoded", 0) != 0) return out;
    auto decode = [](const std::string& s) {
        std::string d;
        for (std::size_t i = 0; i < s.size(); ++i) {
            if (s[i] == '+') d += ' ';
            else if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
                     std::isxdigit(static_cast<unsigned char>(s[i + 2])))
                d += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16)), i += 2;
            else d += s[i];
        }
        return d;
    };
    std::istringstream in(req.body);
    for (std::string pair; std::getline(in, pair, '&');) {
        const auto eq = pair.find('=');
        if (eq != std::string::npos) out[decode(pair.substr(0, eq))] = decode(pair.substr(eq + 1));
    }
    return out;
}

// A cookie that the browser sends back only to this site, never to scripts; Secure behind a TLS proxy.
std::string set_cookie(const httplib::Request& req, const std::string& name, const std::string& value, const std::string& path,
                       long max_age) {
    std::string c = std::string(name) + "=" + value + "; Path=" + path + "; HttpOnly; SameSite=Strict; Max-Age=" +
                    std::to_string(max_age);
    if (req.get_header_value("X-Forwarded-Proto") == "https") c += "; Secure";
    return c;
}

// The CSRF token of a session's forms: derived from the session id, so that only a page of this session has it.
std::string csrf_of(const std::string& session_id) { return sha256_hex("csrf\n" + session_id); }

struct Viewer {
    Identity who;
    std::string session_id;
    bool instructor() const { return who.role == Role::Instructor; }
    std::optional<std::string> own() const { return instructor() ? std::nullopt : std::optional<std::string>(who.id); }
};

const char* kStyle = R"css(
body{font-family:system-ui,sans-serif;margin:0;color:#1d2330;background:#f6f7f9;line-height:1.45}
header{background:#1d2330;color:#fff;padding:.6em 1.5em;display:flex;gap:1.5em;align-items:center;flex-wrap:wrap}
header a{color:#cfe0ff}header .who{margin-left:auto;color:#c8ccd4}
header form{display:inline}header button{font:inherit}
main{max-width:64em;margin:1.5em auto;padding:0 1.5em}
table{border-collapse:collapse;background:#fff;margin:.5em 0 1.5em;min-width:50%}
th,td{border:1px solid #d6d9de;padding:.3em .7em;text-align:left;vertical-align:top}
th{background:#eceef2}
pre{background:#fff;border:1px solid #d6d9de;padding:.8em;white-space:pre-wrap;font-size:.85em}
.box{background:#fff;border:1px solid #d6d9de;padding:1em 1.2em;margin:1em 0}
.error{background:#fdecea;border-color:#e0a39b}.ok{background:#eaf6ec;border-color:#9bcfa5}
.state{font-weight:600}.pass{color:#17692b}.fail{color:#a3221a}
ol.stages{display:flex;gap:.5em;list-style:none;padding:0}
ol.stages li{padding:.3em .8em;border-radius:1em;background:#e4e7ec;color:#5a6170}
ol.stages li.now{background:#1d5fbf;color:#fff}ol.stages li.past{background:#b9d2f3;color:#1d2330}
input[type=password]{width:36em;max-width:100%;font-family:monospace}
button{padding:.35em 1em}
)css";

std::string page(const std::string& title, const std::string& body, const Viewer* v, int refresh_s = 0) {
    std::ostringstream h;
    h << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">";
    if (refresh_s > 0) h << "<meta http-equiv=\"refresh\" content=\"" << refresh_s << "\">";
    h << "<title>" << xml_escape(title) << " · course grading</title><style>" << kStyle << "</style></head><body><header>"
      << "<strong>Course grading</strong>";
    if (v) {
        if (v->instructor())
            h << "<a href=\"/instructor\">Results</a><a href=\"/instructor/queue\">Queue and workers</a><a href=\"/ranking\">Ranking</a>";
        else
            h << "<a href=\"/student\">Your submissions</a><a href=\"/ranking\">Ranking</a>";
        h << "<span class=\"who\">" << xml_escape(v->who.id) << "</span>"
          << "<form method=\"post\" action=\"/signout\"><input type=\"hidden\" name=\"csrf\" value=\""
          << csrf_of(v->session_id) << "\"><button>Sign out</button></form>";
    }
    h << "</header><main><h1>" << xml_escape(title) << "</h1>\n" << body << "</main></body></html>\n";
    return h.str();
}

void send(httplib::Response& res, int status, const std::string& html) {
    res.status = status;
    // Nothing on these pages runs or loads from elsewhere; no page is kept in a cache or framed.
    res.set_header("Content-Security-Policy",
                   "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; frame-ancestors 'none'");
    res.set_header("X-Content-Type-Options", "nosniff");
    res.set_header("Referrer-Policy", "no-referrer");
    res.set_header("Cache-Control", "no-store");
    res.set_content(html, "text/html; charset=utf-8");
}

void redirect(httplib::Response& res, const std::string& to) {
    res.status = 303;
    res.set_header("Location", to);
    res.set_header("Cache-Control", "no-store");
}

std::string state_words(const std::string& state) {
    if (state == "queued") return "waiting in the queue";
    if (state == "building") return "building";
    if (state == "grading") return "grading";
    if (state == "done") return "graded";
    if (state == "not_graded") return "not graded";
    if (state == "replaced") return "replaced by a newer submission";
    return state;
}

bool active(const std::string& state) { return state == "queued" || state == "building" || state == "grading"; }

// "3/8 points, fails" from results.json; "built" or "does not build" for a grading without a GPU.
std::string outcome(const nlohmann::json& v) {
    if (v.value("state", "") != "done") return "";
    const auto& r = v.contains("results") ? v["results"] : nlohmann::json();
    const bool passed = v.contains("exit_code") && v["exit_code"] == 0;
    std::string word = passed ? "<span class=\"pass\">passes</span>" : "<span class=\"fail\">fails</span>";
    if (r.is_object() && r.contains("tests")) {
        double max = 0;
        for (const auto& t : r["tests"]) max += t.value("max_score", 0.0);
        return grading::points_str(r.value("score", 0.0)) + "/" + grading::points_str(max) + " points, " + word;
    }
    return passed ? "<span class=\"pass\">every lab compiles</span> (built only: no GPU)"
                  : "<span class=\"fail\">a lab does not compile or is refused</span>";
}

std::string labs_cell(const nlohmann::json& v) {
    std::string s;
    for (const auto& l : v.value("labs", nlohmann::json::array())) s += (s.empty() ? "" : ", ") + l.get<std::string>();
    return xml_escape(s);
}

const std::set<std::string> kPeers = {"CUB", "cuBLAS", "memcpy", "copy"};

std::string make_pseudonym() {
    static const char* first[] = {"Amber", "Brisk", "Coral", "Dusky", "Eager", "Fleet", "Golden", "Hazel",
                                  "Ivory", "Jade",  "Keen",  "Lunar", "Misty", "Nimble", "Opal",  "Quiet"};
    static const char* second[] = {"Falcon", "Otter", "Lynx", "Heron", "Marten", "Puffin", "Kestrel", "Badger",
                                   "Wren",   "Ibex",  "Gecko", "Orca", "Raven",  "Stoat",  "Tern",    "Vole"};
    const std::string r = make_token();
    const auto pick = [&](int i) { return std::stoi(r.substr(static_cast<std::size_t>(i) * 2, 2), nullptr, 16); };
    return std::string(first[pick(0) % 16]) + " " + second[pick(1) % 16] + " " + std::to_string(10 + pick(2) % 90);
}

// The signed-in viewer, from the session cookie; nullopt (and the answer made: to the sign-in page) without one.
std::optional<Viewer> signed_in(Store& store, const TokenTable& tokens, const httplib::Request& req, httplib::Response& res) {
    const std::string id = cookie(req, kSessionCookie);
    std::optional<Session> s;
    if (is_token_text(id)) s = store.session(sha256_hex(id));
    if (s)
        for (const auto& i : tokens.identities())
            if (i.id == s->who && (i.role == Role::Student || i.role == Role::Instructor)) return Viewer{i, id};
    redirect(res, "/signin");
    return std::nullopt;
}

void refuse(httplib::Response& res, int status, const std::string& title, const std::string& message, const Viewer* v) {
    send(res, status, page(title, "<div class=\"box error\"><p>" + xml_escape(message) + "</p></div>", v));
}

// A state-changing form must carry its session's token: a page of another site cannot post one.
bool forged(const Viewer& v, const std::string& token, httplib::Response& res) {
    if (same_secret(token, csrf_of(v.session_id))) return false;
    refuse(res, 403, "Refused", "This form did not come from one of your pages here (its CSRF token is missing or "
                                "wrong). Open the page again and send the form from it.", &v);
    return true;
}

std::string hidden_csrf(const Viewer& v) {
    return "<input type=\"hidden\" name=\"csrf\" value=\"" + csrf_of(v.session_id) + "\">";
}

void signin_form(httplib::Response& res, const httplib::Request& req, int status, const std::string& error) {
    const std::string value = make_token();
    res.set_header("Set-Cookie", set_cookie(req, kSigninCookie, value, "/signin", 1800));
    std::string body;
    if (!error.empty()) body += "<div class=\"box error\"><p>" + xml_escape(error) + "</p></div>";
    body += "<form class=\"box\" method=\"post\" action=\"/signin\"><p><label for=\"token\">Your token (the one the "
            "instructor gave you; it is sent once, and this browser then keeps a session):</label></p>"
            "<p><input type=\"password\" id=\"token\" name=\"token\" autocomplete=\"off\" required></p>"
            "<input type=\"hidden\" name=\"csrf\" value=\"" + value + "\"><p><button>Sign in</button></p></form>";
    send(res, status, page("Sign in", body, nullptr));
}

void student_home(Store& store, const std::vector<LabSource>& catalog, const ApiOptions& api, const Viewer& v,
                  httplib::Response& res, int status, const std::string& message) {
    std::ostringstream b;
    if (!message.empty()) b << "<div class=\"box error\"><p>" << xml_escape(message) << "</p></div>";
    b << "<form class=\"box\" method=\"post\" action=\"/student/upload\" enctype=\"multipart/form-data\">" << hidden_csrf(v)
      << "<p><label for=\"files\">Choose the <code>.cu</code> file of one or more labs, as it is in your "
         "<code>labs/</code> folder:</label></p><p><input type=\"file\" id=\"files\" name=\"files\" multiple "
         "accept=\".cu\"></p><p>The labs' files: ";
    for (std::size_t i = 0; i < catalog.size(); ++i)
        b << (i ? ", " : "") << "<code>" << xml_escape(catalog[i].file) << "</code> (Lab " << xml_escape(catalog[i].id) << ")";
    b << ". At most " << api.max_body / 1024 << " KiB in all and " << api.per_hour
      << " submissions an hour; a newer submission takes the place of one still waiting for the same lab.</p>"
         "<p><button>Submit for grading</button></p></form>";
    b << "<h2>History</h2>";
    const auto list = store.list(v.who.id);
    if (list.empty()) b << "<p>None yet.</p>";
    else {
        b << "<table class=\"history\"><tr><th>Submission</th><th>Sent</th><th>Labs</th><th>State</th><th>Result</th></tr>";
        int shown = 0;
        for (const auto& row : list) {
            if (++shown > 100) break;
            const long long id = row["id"].get<long long>();
            const auto s = store.submission(id, v.who.id);
            if (!s) continue;
            b << "<tr><td><a href=\"/submissions/" << id << "\">#" << id << "</a></td><td>" << when((*s)["created"].get<double>())
              << "</td><td>" << labs_cell(*s) << "</td><td class=\"state\">" << state_words((*s)["state"]) << "</td><td>"
              << outcome(*s);
            if ((*s)["report"] == true) b << " · <a href=\"/submissions/" << id << "/report\">report</a>";
            b << "</td></tr>";
        }
        b << "</table>";
    }
    send(res, status, page("Your submissions", b.str(), &v));
}

std::optional<Viewer> instructor_only(Store& store, const TokenTable& tokens, const httplib::Request& req, httplib::Response& res) {
    auto v = signed_in(store, tokens, req, res);
    if (v && !v->instructor()) {
        refuse(res, 403, "Refused", "This page is the instructor's.", &*v);
        return std::nullopt;
    }
    return v;
}

std::vector<nlohmann::json> class_rows(Store& store, const TokenTable& tokens, const std::vector<LabSource>& catalog) {
    std::vector<std::string> students;
    for (const auto& i : tokens.identities())
        if (i.role == Role::Student) students.push_back(i.id);
    return gradebook_rows(students, store.latest_graded(), catalog);
}
}  // namespace

std::vector<RankEntry> ranking(const std::vector<RankedResult>& results) {
    static const std::regex measured(R"(measured ([0-9]+(?:\.[0-9]+)?)x ([A-Za-z]+))");
    // A lab is correct in a grading when none of its checks failed but for speed or technique.
    static const std::set<std::string> harmless = {"pass", "too_slow", "technique_not_used", "not_run"};
    std::map<std::tuple<std::string, std::string, std::string, std::string>, RankEntry> best;  // lab, check, unit, student
    for (const auto& r : results) {
        const auto j = nlohmann::json::parse(r.results_json, nullptr, false);
        if (!j.is_object() || !j.contains("tests") || !j["tests"].is_array()) continue;
        std::map<std::string, bool> correct;
        for (const auto& t : j["tests"]) {
            const std::string lab = t.value("number", "");
            const auto& tags = t.contains("tags") ? t["tags"] : nlohmann::json::array();
            const std::string cls = tags.is_array() && tags.size() > 1 && tags[1].is_string() ? tags[1].get<std::string>() : "";
            if (!correct.count(lab)) correct[lab] = true;
            if (!harmless.count(cls)) correct[lab] = false;
        }
        for (const auto& t : j["tests"]) {
            const std::string lab = t.value("number", ""), output = t.value("output", "");
            const auto& tags = t.contains("tags") ? t["tags"] : nlohmann::json::array();
            const std::string cls = tags.is_array() && tags.size() > 1 && tags[1].is_string() ? tags[1].get<std::string>() : "";
            std::smatch m;
            if (!correct[lab] || (cls != "pass" && cls != "too_slow") || !std::regex_search(output, m, measured) ||
                !kPeers.count(m[2]))
                continue;
            std::string check = t.value("name", "");
            if (check.rfind("Lab " + lab + ": ", 0) == 0) check = check.substr(lab.size() + 6);
            const double figure = std::stod(m[1]);
            auto& e = best[{lab, check, m[2], r.student}];
            if (e.student.empty() || figure > e.figure) e = {lab, check, "x " + m[2].str(), r.student, r.pseudonym, figure};
        }
    }
    std::vector<RankEntry> out;
    for (auto& [key, e] : best) out.push_back(e);
    std::stable_sort(out.begin(), out.end(), [](const RankEntry& a, const RankEntry& b) {
        return std::tie(a.lab_id, a.check) != std::tie(b.lab_id, b.check) ? std::tie(a.lab_id, a.check) < std::tie(b.lab_id, b.check)
                                                                          : a.figure > b.figure;
    });
    return out;
}

void add_pages(httplib::Server& server, Store& store, const TokenTable& tokens, const std::vector<LabSource>& catalog,
               const grading::Rubric& rubric, Workers& workers, const ApiOptions& api, const PagesOptions& options) {
    server.Get("/", [&](const httplib::Request& req, httplib::Response& res) {
        if (const auto v = signed_in(store, tokens, req, res)) redirect(res, v->instructor() ? "/instructor" : "/student");
    });

    server.Get("/signin", [&](const httplib::Request& req, httplib::Response& res) { signin_form(res, req, 200, ""); });

    server.Post("/signin", [&](const httplib::Request& req, httplib::Response& res) {
        const auto f = form_fields(req);
        const auto field = [&f](const char* k) { return f.count(k) ? f.at(k) : std::string(); };
        // The form's value must match the cookie its page set: a form posted from another site has neither.
        if (!same_secret(field("csrf"), cookie(req, kSigninCookie)))
            return signin_form(res, req, 403, "This sign-in form did not come from this site's sign-in page (or it "
                                              "expired): type your token again here.");
        const auto who = tokens.who(field("token"));
        // Only people sign in: a forwarder's token (Gradescope's bundle) is for the API alone.
        if (!who || (who->role != Role::Student && who->role != Role::Instructor))
            return signin_form(res, req, 401, "This token is not known to the course. Check it and try again.");
        const std::string id = make_token();
        const long life = static_cast<long>(options.session_hours * 3600);
        store.add_session(sha256_hex(id), who->id, now_s() + static_cast<double>(life));
        res.set_header("Set-Cookie", set_cookie(req, kSessionCookie, id, "/", life));
        res.headers.emplace("Set-Cookie", set_cookie(req, kSigninCookie, "", "/signin", 0));
        redirect(res, who->role == Role::Instructor ? "/instructor" : "/student");
    });

    server.Post("/signout", [&](const httplib::Request& req, httplib::Response& res) {
        const auto v = signed_in(store, tokens, req, res);
        if (!v) return;
        const auto f = form_fields(req);
        if (forged(*v, f.count("csrf") ? f.at("csrf") : "", res)) return;
        store.end_session(sha256_hex(v->session_id));
        res.set_header("Set-Cookie", set_cookie(req, kSessionCookie, "", "/", 0));
        redirect(res, "/signin");
    });

    // --- The student's pages ---------------------------------------------------------------------------

    server.Get("/student", [&](const httplib::Request& req, httplib::Response& res) {
        const auto v = signed_in(store, tokens, req, res);
        if (!v) return;
        if (v->instructor()) return redirect(res, "/instructor");
        student_home(store, catalog, api, *v, res, 200, "");
    });

    server.Post("/student/upload", [&](const httplib::Request& req, httplib::Response& res) {
        const auto v = signed_in(store, tokens, req, res);
        if (!v) return;
        if (!req.is_multipart_form_data()) return refuse(res, 400, "Refused", "send the form as multipart/form-data", &*v);
        if (forged(*v, req.get_file_value("csrf").content, res)) return;
        if (v->instructor()) return refuse(res, 403, "Refused", "only a student's session submits work", &*v);
        std::vector<std::pair<std::string, std::string>> files;
        for (auto [it, end] = req.files.equal_range("files"); it != end; ++it)
            if (!it->second.filename.empty() || !it->second.content.empty())
                files.emplace_back(it->second.filename, it->second.content);
        // The same checks, limits and store as the API's upload.
        auto parsed = check_files(files, catalog);
        if (auto* why = std::get_if<std::string>(&parsed)) return student_home(store, catalog, api, *v, res, 400, *why);
        const SubmitOutcome out = store.submit(v->who.id, std::get<Upload>(parsed), api.per_hour);
        if (out.kind == SubmitOutcome::Kind::RateLimited)
            return student_home(store, catalog, api, *v, res, 429, "more than " + std::to_string(api.per_hour) +
                                                  " submissions in the past hour: wait, then submit again");
        workers.notify();
        std::cerr << "course-server: " << v->who.id << " submission " << out.id
                  << (out.kind == SubmitOutcome::Kind::Duplicate ? " (the same upload again)" : " stored") << " from the upload page\n";
        redirect(res, "/submissions/" + std::to_string(out.id));
    });

    server.Get(R"(/submissions/(\d{1,18}))", [&](const httplib::Request& req, httplib::Response& res) {
        const auto v = signed_in(store, tokens, req, res);
        if (!v) return;
        const long long id = std::stoll(req.matches[1].str());
        const auto s = store.submission(id, v->own());
        // Someone else's submission is answered as one that does not exist.
        if (!s) return refuse(res, 404, "Not found", "There is no submission " + std::to_string(id) + " of yours.", &*v);
        const std::string state = (*s)["state"];
        std::ostringstream b;
        b << "<div class=\"box\"><p>Submission #" << id;
        if (v->instructor()) b << " of <strong>" << xml_escape((*s)["student"].get<std::string>()) << "</strong>";
        b << ", sent " << when((*s)["created"].get<double>()) << ", labs " << labs_cell(*s) << ".</p>";
        if (!(*s)["labs_replaced"].empty()) {
            std::string r;
            for (const auto& l : (*s)["labs_replaced"]) r += (r.empty() ? "" : ", ") + l.get<std::string>();
            b << "<p>Labs " << xml_escape(r) << " were taken by a newer submission before this one was graded.</p>";
        }
        b << "<ol class=\"stages\">";
        const std::vector<std::string> stages = {"queued", "building", "grading", "done"};
        const auto now = std::find(stages.begin(), stages.end(), state);
        for (auto it = stages.begin(); it != stages.end(); ++it)
            b << "<li class=\"" << (it == now ? "now" : now != stages.end() && it < now ? "past" : "") << "\">"
              << (*it == "done" ? "graded" : *it) << "</li>";
        b << "</ol><p class=\"state\" id=\"state\">" << state_words(state);
        if (state == "queued" && s->contains("position"))
            b << ": number " << (*s)["position"].get<long long>() << " in the queue";
        b << "</p>";
        if (active(state)) b << "<p>This page refreshes itself every 2 seconds until the grading ends.</p>";
        if (state == "done") {
            b << "<p>Result: " << outcome(*s) << "</p>";
            if ((*s)["report"] == true)
                b << "<p><a id=\"report\" href=\"/submissions/" << id << "/report\">Open the report</a> (the table, each "
                  << "failure with its hint, and the speed plots)</p>";
        }
        if (!(*s)["reason"].is_null()) b << "<p>" << xml_escape((*s)["reason"].get<std::string>()) << "</p>";
        b << "</div>";
        if ((*s)["output"].is_string())
            b << "<h2>What the grader printed</h2><pre id=\"output\">" << xml_escape((*s)["output"].get<std::string>()) << "</pre>";
        if (v->instructor() && !(*s)["attempt_log"].empty()) {
            b << "<h2>Attempts</h2><table><tr><th>#</th><th>Worker</th><th>Started</th><th>Outcome</th></tr>";
            for (const auto& a : (*s)["attempt_log"])
                b << "<tr><td>" << a["attempt"].get<long long>() << "</td><td>" << xml_escape(a["worker"].get<std::string>())
                  << "</td><td>" << when(a["started"].get<double>()) << "</td><td>"
                  << xml_escape(a["outcome"].is_string() ? a["outcome"].get<std::string>() : "running") << "</td></tr>";
            b << "</table>";
        }
        send(res, 200, page("Submission #" + std::to_string(id), b.str(), &*v, active(state) ? 2 : 0));
    });

    server.Get(R"(/submissions/(\d{1,18})/report)", [&](const httplib::Request& req, httplib::Response& res) {
        const auto v = signed_in(store, tokens, req, res);
        if (!v) return;
        const long long id = std::stoll(req.matches[1].str());
        const auto report = store.report_html(id, v->own());
        if (!report)
            return refuse(res, 404, "Not found", "There is no report of a submission " + std::to_string(id) +
                                                     " of yours (a grading without a GPU writes none: its page shows "
                                                     "what the grader printed).", &*v);
        // The page grade wrote, as it wrote it; nothing in it may run.
        send(res, 200, *report);
        res.headers.erase("Content-Security-Policy");
        res.set_header("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox");
    });

    // --- The ranking -----------------------------------------------------------------------------------
    server.Get("/ranking", [&](const httplib::Request& req, httplib::Response& res) {
        const auto v = signed_in(store, tokens, req, res);
        if (!v) return;
        std::ostringstream b;
        b << "<p>The fastest correct kernel of each student who takes part, as a fraction of the library's speed "
             "measured in the same grading (1.00x: as fast as the library). Only pseudonyms are shown.</p>";
        if (!v->instructor()) {
            const auto mine = store.pseudonym(v->who.id);
            b << "<form class=\"box\" method=\"post\" action=\"/ranking\">" << hidden_csrf(*v);
            if (mine)
                b << "<p>You take part as <strong id=\"pseudonym\">" << xml_escape(*mine) << "</strong>.</p>"
                  << "<input type=\"hidden\" name=\"choice\" value=\"out\"><button>Leave the ranking</button>";
            else
                b << "<p>You do not take part. Taking part shows your best figures under a pseudonym chosen at "
                     "random; you can leave at any time.</p>"
                  << "<input type=\"hidden\" name=\"choice\" value=\"in\"><button>Take part</button>";
            b << "</form>";
        }
        const auto entries = ranking(store.ranked_results());
        if (entries.empty()) b << "<p id=\"empty\">No graded kernel in the ranking yet.</p>";
        std::string heading;
        int rank = 0;
        for (std::size_t i = 0; i < entries.size(); ++i) {
            const auto& e = entries[i];
            const std::string h = e.lab_id + "\n" + e.check;
            if (h != heading) {
                if (!heading.empty()) b << "</table>";
                heading = h;
                rank = 0;
                const auto lab = std::find_if(catalog.begin(), catalog.end(), [&](const LabSource& l) { return l.id == e.lab_id; });
                b << "<h2>Lab " << xml_escape(e.lab_id) << (lab != catalog.end() ? " (" + xml_escape(lab->title) + ")" : "")
                  << ": " << xml_escape(e.check) << "</h2><table class=\"ranking\"><tr><th>#</th><th>Who</th><th>Speed</th></tr>";
            }
            const bool me = !v->instructor() && e.student == v->who.id;
            b << "<tr" << (me ? " class=\"me\"" : "") << "><td>" << ++rank << "</td><td>" << xml_escape(e.pseudonym)
              << (me ? " (you)" : "") << (v->instructor() ? " — " + xml_escape(e.student) : "") << "</td><td>"
              << grading::num(e.figure, 2) << xml_escape(e.unit) << "</td></tr>";
        }
        if (!heading.empty()) b << "</table>";
        send(res, 200, page("Ranking", b.str(), &*v));
    });

    server.Post("/ranking", [&](const httplib::Request& req, httplib::Response& res) {
        const auto v = signed_in(store, tokens, req, res);
        if (!v) return;
        const auto f = form_fields(req);
        if (forged(*v, f.count("csrf") ? f.at("csrf") : "", res)) return;
        if (v->instructor()) return refuse(res, 403, "Refused", "the ranking is the students'", &*v);
        const std::string choice = f.count("choice") ? f.at("choice") : "";
        if (choice == "out") store.set_ranked(v->who.id, std::nullopt);
        else if (choice == "in" && !store.pseudonym(v->who.id)) {
            bool placed = false;
            for (int tries = 0; tries < 20 && !placed; ++tries) placed = store.set_ranked(v->who.id, make_pseudonym());
            if (!placed) return refuse(res, 503, "Try again", "no free pseudonym was found; try again", &*v);
        } else if (choice != "in") return refuse(res, 400, "Refused", "choice is in or out", &*v);
        redirect(res, "/ranking");
    });

    // --- The instructor's pages ------------------------------------------------------------------------

    server.Get("/instructor", [&](const httplib::Request& req, httplib::Response& res) {
        const auto v = instructor_only(store, tokens, req, res);
        if (!v) return;
        std::ostringstream b;
        b << "<p>Each student's latest graded submission of each lab. The gradebook, in <code>grade --roster</code>'s "
             "format: <a id=\"gradebook-csv\" href=\"/instructor/gradebook.csv\">CSV</a> · "
             "<a href=\"/instructor/gradebook.json\">JSON</a>.</p><table class=\"results\"><tr><th>Student</th><th>Status</th>"
             "<th>Points</th>";
        for (const auto& l : catalog) b << "<th>Lab " << xml_escape(l.id) << "</th>";
        b << "</tr>";
        for (const auto& r : class_rows(store, tokens, catalog)) {
            b << "<tr><td>" << xml_escape(r["student"].get<std::string>()) << "</td><td>" << xml_escape(r["status"].get<std::string>())
              << "</td><td>" << grading::points_str(r["points"].get<double>()) << "/" << grading::points_str(r["max_points"].get<double>())
              << "</td>";
            for (const auto& l : catalog) {
                b << "<td>";
                for (const auto& lab : r["labs"])
                    if (lab["id"] == l.id)
                        b << "<a href=\"/submissions/" << lab["submission"].get<long long>() << "\">"
                          << xml_escape(lab["class"].get<std::string>()) << "</a> "
                          << grading::points_str(lab["points"].get<double>()) << "/" << grading::points_str(lab["max_points"].get<double>());
                b << "</td>";
            }
            b << "</tr>";
        }
        b << "</table>";
        send(res, 200, page("Results", b.str(), &*v));
    });

    server.Get(R"(/instructor/gradebook\.(csv|json))", [&](const httplib::Request& req, httplib::Response& res) {
        const auto v = instructor_only(store, tokens, req, res);
        if (!v) return;
        const auto r = class_rows(store, tokens, catalog);
        const bool csv = req.matches[1] == "csv";
        res.set_header("Content-Disposition", std::string("attachment; filename=\"gradebook.") + (csv ? "csv" : "json") + "\"");
        res.set_header("Cache-Control", "no-store");
        if (csv) res.set_content(grading::gradebook_csv(r, rubric), "text/csv");
        else res.set_content(nlohmann::json({{"students", r}}).dump(2) + "\n", "application/json");
    });

    server.Get("/instructor/queue", [&](const httplib::Request& req, httplib::Response& res) {
        const auto v = instructor_only(store, tokens, req, res);
        if (!v) return;
        std::ostringstream b;
        b << "<p>This page refreshes itself every 5 seconds.</p><h2>Workers</h2><table class=\"workers\"><tr><th>Worker</th>"
             "<th>GPU</th><th>Current job</th><th>Jobs done</th><th>Failures</th></tr>";
        const auto records = store.worker_records();
        for (const auto& w : workers.info()) {
            WorkerRecord r;
            for (const auto& x : records)
                if (x.worker == w.name) r = x;
            b << "<tr><td>" << xml_escape(w.name) << "</td><td>" << xml_escape(w.gpu_model) << "</td><td>";
            if (r.current)
                b << "<a href=\"/submissions/" << r.current << "\">#" << r.current << "</a> of " << xml_escape(r.current_student)
                  << ", " << xml_escape(r.current_state) << " since " << when(r.current_since);
            else b << "idle";
            b << "</td><td>" << r.done << "</td><td>" << r.failures;
            if (!r.last_failure.empty()) b << " (last: " << xml_escape(r.last_failure) << ")";
            b << "</td></tr>";
        }
        b << "</table><h2>Queue</h2>";
        const auto all = store.list(std::nullopt);
        std::vector<nlohmann::json> waiting;
        for (const auto& s : all)
            if (s["state"] == "queued") waiting.push_back(s);
        std::reverse(waiting.begin(), waiting.end());  // the list is newest first; the queue, oldest
        if (waiting.empty()) b << "<p id=\"queue-empty\">Nothing is waiting.</p>";
        else {
            b << "<table class=\"queue\"><tr><th>Position</th><th>Submission</th><th>Student</th><th>Sent</th></tr>";
            for (std::size_t i = 0; i < waiting.size(); ++i) {
                const long long id = waiting[i]["id"].get<long long>();
                b << "<tr><td>" << i + 1 << "</td><td><a href=\"/submissions/" << id << "\">#" << id << "</a></td><td>"
                  << xml_escape(waiting[i]["student"].get<std::string>()) << "</td><td>" << when(waiting[i]["created"].get<double>())
                  << "</td></tr>";
            }
            b << "</table>";
        }
        b << "<h2>Latest submissions</h2><table class=\"recent\"><tr><th>Submission</th><th>Student</th><th>Sent</th><th>State</th>"
             "<th>Exit</th></tr>";
        int shown = 0;
        for (const auto& s : all) {
            if (++shown > 30) break;
            const long long id = s["id"].get<long long>();
            b << "<tr><td><a href=\"/submissions/" << id << "\">#" << id << "</a></td><td>" << xml_escape(s["student"].get<std::string>())
              << "</td><td>" << when(s["created"].get<double>()) << "</td><td>" << state_words(s["state"]) << "</td><td>"
              << (s["exit_code"].is_null() ? "" : std::to_string(s["exit_code"].get<long long>())) << "</td></tr>";
        }
        b << "</table>";
        send(res, 200, page("Queue and workers", b.str(), &*v, 5));
    });
}

}  // namespace service
