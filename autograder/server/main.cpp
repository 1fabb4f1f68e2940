// course-server — the grading service: students without an NVIDIA GPU submit their labs over HTTP, and the
// course's GPUs grade them exactly as `grade --labs-dir` does.
//
//   course-server tokens --roster roster.csv --out tokens.csv
//       one token a student of the roster and one for the instructor: printed once (id,role,token),
//       stored only as hashes in tokens.csv
//   course-server tokens --forwarder gradescope --out tokens.csv
//       adds (or renews) a forwarder's token, which submits for the student it names (Gradescope's bundle)
//   course-server --db class.sqlite --tokens tokens.csv --listen 127.0.0.1:8080 [--allow-no-gpu] [--workers N] [--gpus 0,1]
//       serves the API (api.hpp) and the web pages (pages.hpp), keeps everything in the SQLite database,
//       grades with one worker a GPU
//   course-server --db postgresql://... --tokens tokens.csv --listen ... [--workers 0]
//   course-server worker --db postgresql://... [--allow-no-gpu]
//       several GPU hosts: the server and the workers of every host share one PostgreSQL database as their
//       queue; `worker` grades on this host's GPUs and serves nothing
//
// Plain HTTP is served on loopback only, unless --allow-remote-http says a TLS reverse proxy is in front.
// Exit status: 0 stopped by SIGINT or SIGTERM; 1 could not start; 2 bad command line.
#include "api.hpp"
#include "deadline.hpp"
#include "pages.hpp"
#include "process.hpp"
#include "results.hpp"

#include <CLI/CLI.hpp>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>
#include <thread>

namespace fs = std::filesystem;
using namespace service;

namespace {
// Adds the forwarder @p name to the tokens file @p out, or gives it a new token; every other token stays.
int add_forwarder(const std::string& name, const std::string& out) {
    std::vector<Identity> ids;
    try {
        ids = read_tokens(out);
    } catch (const std::exception& e) {
        std::cerr << "course-server tokens: " << e.what() << " (make it first, with --roster)\n";
        return 2;
    }
    for (const auto& i : ids)
        if (i.id == name && i.role != Role::Forwarder) {
            std::cerr << "course-server tokens: " << name << " is the " << role_name(i.role) << "'s id: name the forwarder otherwise\n";
            return 2;
        }
    ids.erase(std::remove_if(ids.begin(), ids.end(), [&](const Identity& i) { return i.id == name; }), ids.end());
    const std::string token = make_token();
    ids.push_back({name, Role::Forwarder, sha256_hex(token)});
    write_tokens(out, ids);
    std::cout << "id,role,token\n" << name << ",forwarder," << token << "\n";
    std::cerr << "course-server tokens: the forwarder " << name << " has a new token (" << out
              << " holds its hash; restart the server to use it). It submits for any student: keep it out of students' hands.\n";
    return 0;
}

int make_tokens(const std::string& roster, const std::string& out, bool force) {
    if (fs::exists(out) && !force) {
        std::cerr << "course-server tokens: " << out << " exists (its tokens are in use); --force replaces them all\n";
        return 2;
    }
    std::vector<std::string> students;
    try {
        students = read_roster(roster);
    } catch (const std::exception& e) {
        std::cerr << "course-server tokens: " << e.what() << "\n";
        return 2;
    }
    std::vector<Identity> ids;
    std::ostringstream handout;
    handout << "id,role,token\n";
    auto add = [&](const std::string& id, Role role) {
        const std::string token = make_token();
        ids.push_back({id, role, sha256_hex(token)});
        handout << id << "," << role_name(role) << "," << token << "\n";
    };
    for (const auto& s : students) add(s, Role::Student);
    add("instructor", Role::Instructor);
    write_tokens(out, ids);
    // The only time the tokens exist outside their owners' hands: give each student theirs.
    std::cout << handout.str();
    std::cerr << "course-server tokens: " << students.size() << " student tokens and one instructor token; " << out
              << " holds only their hashes. Hand each student their token (a file for --token-file).\n";
    return 0;
}

// @p name as a path that can be executed: itself when it holds a '/', else found on PATH.
std::optional<std::string> program_path(const std::string& name) {
    if (name.find('/') != std::string::npos) return ::access(name.c_str(), X_OK) == 0 ? std::optional<std::string>(name) : std::nullopt;
    std::istringstream path(std::getenv("PATH") ? std::getenv("PATH") : "/usr/bin:/bin");
    for (std::string dir; std::getline(path, dir, ':');)
        if (!dir.empty() && ::access((dir + "/" + name).c_str(), X_OK) == 0) return dir + "/" + name;
    return std::nullopt;
}

// course-server sandbox-run: one grading's sandbox around the grader on @p labs, or around @p command,
// its output on stdout; the exit status is the command's (128 + N: killed by signal N).
int sandbox_run(WorkerOptions& o, const std::string& labs, const std::vector<std::string>& command) {
    fs::create_directories(o.scratch);
    if (const std::string why = prepare_build_view(o); !why.empty()) {
        std::cerr << "course-server: " << why << "\n";
        return 1;
    }
    std::cerr << "course-server: limits of a grading: " << limits_at_start(o) << "\n";
    const std::string job = (fs::path(o.scratch) / "sandbox-run").string();
    prepare_job(o, job);
    std::vector<std::string> ids;
    std::error_code ec;
    for (const auto& lab : fs::directory_iterator(labs.empty() ? fs::path(job) / "labs" : fs::path(labs), ec)) {
        const std::string dir = lab.path().filename().string();
        if (!lab.is_directory() || dir.size() < 3 || dir[2] != '-') continue;
        ids.push_back(dir.substr(0, 2));
        fs::create_directories(fs::path(job) / "labs" / dir);
        for (const auto& f : fs::directory_iterator(lab.path()))
            if (f.path().extension() == ".cu") fs::copy_file(f.path(), fs::path(job) / "labs" / dir / f.path().filename());
    }
    std::sort(ids.begin(), ids.end());
    const RunEnd end = run_sandboxed(
        o, job, -1, "sandbox-run", command.empty() ? grader_command(o, job, ids) : command, grading_env(o, job, -1),
        [](const char* data, std::size_t n) { std::cout.write(data, static_cast<std::streamsize>(n)) << std::flush; },
        [] { return false; });
    for (const auto& root : o.cgroup_roots) {
        fs::remove(fs::path(root) / "sandbox-run", ec);
        fs::remove(root, ec);
    }
    if (!end.started || end.timed_out) return 124;
    if (command.empty()) std::cout << "results.json: " << read_report(job, "results.json").size() << " bytes\n";
    return WIFSIGNALED(end.status) ? 128 + WTERMSIG(end.status) : WEXITSTATUS(end.status);
}

bool is_loopback(const std::string& host) {
    return host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0;
}

bool inside(const fs::path& p, const fs::path& dir) {
    const fs::path a = fs::weakly_canonical(p), d = fs::weakly_canonical(dir);
    const auto [i, j] = std::mismatch(d.begin(), d.end(), a.begin(), a.end());
    return i == d.end();
}

// Builds once what every grading's programs share (grade --roster does the same), so that gradings side by
// side never build the same target at once. Only the targets this build folder has.
bool prepare_build(const std::string& build_dir, const std::vector<LabSource>& catalog) {
    double s = 0;
    const std::string listing = (fs::path(build_dir) / "grading" / "targets.txt").string();
    fs::create_directories(fs::path(build_dir) / "grading");
    fs::remove(listing);
    grading::run_with_timeout({COURSE_SERVER_CMAKE, "--build", build_dir, "--target", "help"}, 300, listing, s);
    const std::string known = grading::read_text_file(listing).value_or("");
    std::vector<std::string> wanted = {"grade", "assemble_lab", "audit_lab", "grading_main", "course_common", "launch_host_main"};
    for (const auto& l : catalog)
        for (const char* t : {"_checks", "_baselines", "_peer_host", "_interface_checks", "_interface_student"})
            wanted.push_back("lab" + l.id + t);
    std::vector<std::string> cmd = {COURSE_SERVER_CMAKE, "--build", build_dir, "--parallel",
                                    std::to_string(std::max(1u, std::thread::hardware_concurrency())), "--target"};
    for (const auto& t : wanted)
        if (known.find("... " + t + "\n") != std::string::npos) cmd.push_back(t);
    const std::string log = (fs::path(build_dir) / "grading" / "service-prepare.log").string();
    fs::remove(log);
    std::cerr << "course-server: building what every grading shares (log: " << log << ")\n";
    const auto b = grading::run_with_timeout(cmd, 3600, log, s);
    return b.kind == grading::ProcessOutcome::Kind::Exited && b.code == 0;
}
}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"The course's grading service: submissions over HTTP, graded on this machine's GPUs."};
    std::string db, tokens_path, listen = "127.0.0.1:8080", scratch, sandbox = "auto";
    std::string roster, tokens_out;
    bool allow_no_gpu = false, allow_remote_http = false, force = false, no_prepare = false;
    int cpu_workers = 1;
    WorkerOptions wo;
    wo.grade = COURSE_SERVER_GRADE;
    wo.build_dir = COURSE_SERVER_BUILD_DIR;
    wo.course_dir = COURSE_SERVER_SOURCE_DIR;
    std::string rubric_dir = COURSE_SERVER_RUBRIC, course_labs = COURSE_SERVER_STARTERS;
    ApiOptions ao;
    PagesOptions po;

    auto* tokens_cmd = app.add_subcommand("tokens", "make one token a student of a roster, and an instructor token");
    std::string forwarder;
    tokens_cmd->add_option("--roster", roster, "the roster: a CSV whose column 'student' (or 'id', or the first) names each student");
    tokens_cmd->add_option("--forwarder", forwarder,
                           "without --roster: add (or renew) a forwarder token of this name in --out, e.g. gradescope")
        ->check([](const std::string& n) { return valid_student_id(n) ? "" : "a name of 1 to 64 of A-Z a-z 0-9 . _ -"; });
    tokens_cmd->add_option("--out", tokens_out, "the tokens file to write (hashes only)")->required();
    tokens_cmd->add_flag("--force", force, "replace an existing tokens file (every earlier token stops working)");

    app.add_option("--db", db, "the SQLite database (made when missing), or postgresql://USER@HOST/DB, which the workers "
                               "of other hosts (course-server worker) share");
    double lease_s = 60;
    double request_deadline_s = 120;
    app.add_option("--lease", lease_s, "with PostgreSQL: seconds a worker's claim lasts unless renewed (every third of "
                                       "it): a host lost for longer gives its submission back to the queue")
        ->check(CLI::Range(2.0, 3600.0));
    app.add_option("--tokens", tokens_path, "the tokens file made by 'course-server tokens'");
    app.add_option("--listen", listen, "HOST:PORT to serve on (port 0: any free port, printed)");
    app.add_flag("--allow-remote-http", allow_remote_http,
                 "serve plain HTTP on an address other than loopback (only behind a TLS reverse proxy)");
    app.add_flag("--allow-no-gpu", allow_no_gpu, "without a GPU, workers build and audit only (grade --allow-no-gpu)");
    app.add_option("--workers", cpu_workers, "workers without a GPU (with GPUs: one a GPU); 0 with PostgreSQL: none here, "
                                             "the workers run on the GPU hosts")->check(CLI::Range(0, 64));
    app.add_option("--grade", wo.grade, "the grader program");
    app.add_option("--build-dir", wo.build_dir, "the grader's build folder");
    app.add_option("--course", wo.course_dir, "the course's source folder (read-only in the sandbox)");
    app.add_option("--rubric", rubric_dir, "the rubric's folder (autograder/labs)");
    app.add_option("--course-labs", course_labs, "the course's starters: which file each lab takes");
    app.add_option("--scratch", scratch, "where gradings' folders are made (default: the database's path + .work)");
    app.add_option("--max-body", ao.max_body, "the largest upload, in bytes")->check(CLI::Range(1024, 64 << 20));
    app.add_option("--per-hour", ao.per_hour, "submissions a student may make in an hour")->check(CLI::Range(1, 100000));
    app.add_option("--timeout", wo.timeout_s, "seconds a grading may take")->check(CLI::PositiveNumber);
    app.add_option("--request-deadline", request_deadline_s,
                   "seconds a connection may stay open, however slowly its client sends (0: no deadline)")
        ->check(CLI::Range(0.0, 86400.0));
    app.add_option("--sandbox", sandbox, "run gradings under bubblewrap: auto (when bwrap is found), bwrap, none")
        ->check(CLI::IsMember({"auto", "bwrap", "none"}));
    app.add_option("--bwrap", wo.bwrap, "the bubblewrap program");
    app.add_option("--memory-mb", wo.memory_mb,
                   "a grading's memory: its cgroup's limit (with a GPU too); without a cgroup, an address-space limit "
                   "without a GPU only (0: none)");
    app.add_option("--max-procs", wo.max_procs,
                   "a grading's processes (and threads): its cgroup's pids.max; without a cgroup, RLIMIT_NPROC (which "
                   "does not hold root)")->check(CLI::Range(16, 1 << 20));
    app.add_option("--grade-arg", wo.grade_args, "one more option for every grading (repeat it), e.g. --profile=require");
    app.add_option("--session-hours", po.session_hours, "how long a sign-in on the web pages lasts")
        ->check(CLI::Range(0.01, 24.0 * 30));
    app.add_flag("--no-prepare", no_prepare, "do not build the gradings' shared programs at start");
    std::vector<int> only_gpus;
    app.add_option("--gpus", only_gpus, "the GPUs to grade on, by the numbers of their device files (/dev/nvidiaN), "
                                        "comma-separated (default: every one), one worker each")
        ->delimiter(',')
        ->check(CLI::NonNegativeNumber);
    // For the sandbox's own test (tests/sandbox_test.py): one grading's sandbox, limits and folder exactly
    // as a worker makes them, around the grader on the submission in --labs (or around COMMAND).
    auto* sandbox_cmd = app.add_subcommand("sandbox-run", "")->group("");
    std::string probe_labs;
    std::vector<std::string> probe_command;
    sandbox_cmd->add_option("--labs", probe_labs, "a submission folder (NN-name/*.cu) copied into the grading's labs/");
    sandbox_cmd->add_option("command", probe_command, "what to run instead of the grader");
    auto* worker_cmd = app.add_subcommand("worker", "grade on this host's GPUs, for a server whose --db is the same "
                                                    "PostgreSQL database; serves nothing (the options above apply)");
    worker_cmd->fallthrough();
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
        std::cout << app.help();
        return 0;
    } catch (const CLI::ParseError& e) {
        std::cerr << "course-server: " << e.what() << "\nRun 'course-server --help' for the options.\n";
        return 2;
    }
    if (*tokens_cmd) {
        if (roster.empty() == forwarder.empty()) {
            std::cerr << "course-server tokens: give --roster (every student's token) or --forwarder NAME (one more token)\n";
            return 2;
        }
        return forwarder.empty() ? make_tokens(roster, tokens_out, force) : add_forwarder(forwarder, tokens_out);
    }

    auto usage = [](const std::string& m) {
        std::cerr << "course-server: " << m << "\n";
        return 2;
    };
    if (*sandbox_cmd) {
        if (scratch.empty()) return usage("sandbox-run needs --scratch");
        const auto found = program_path(wo.bwrap);
        if (!found) return usage("sandbox-run: " + wo.bwrap + " was not found");
        wo.bwrap = *found;
        wo.scratch = fs::absolute(scratch).string();
        wo.build_dir = fs::absolute(wo.build_dir).string();
        wo.course_dir = fs::absolute(wo.course_dir).string();
        wo.grade = fs::absolute(wo.grade).string();
        wo.no_gpu = allow_no_gpu;
        // As at the server's start: what gradings share is built outside the sandbox, which cannot.
        if (!no_prepare && !prepare_build(wo.build_dir, lab_catalog(rubric_dir, course_labs))) {
            std::cerr << "course-server: the grader's shared programs do not build\n";
            return 1;
        }
        return sandbox_run(wo, probe_labs, probe_command);
    }
    const bool worker_only = worker_cmd->parsed();
    if (worker_only) {
        if (!is_postgres_url(db))
            return usage("worker needs --db postgresql://... (the database the server and every host's workers share)");
        if (cpu_workers < 1) return usage("worker: --workers must be at least 1");
        if (scratch.empty()) return usage("worker needs --scratch (a folder of this host's for its gradings)");
    } else if (db.empty() || tokens_path.empty()) {
        return usage("--db and --tokens are needed (course-server --help)");
    }
    if (cpu_workers == 0 && !is_postgres_url(db))
        return usage("--workers 0 (no worker on this host) needs --db postgresql://..., which workers of other hosts share");
    std::string host;
    int port = -1;
    if (!worker_only) {
        const auto colon = listen.rfind(':');
        host = colon == std::string::npos ? "" : listen.substr(0, colon);
        try {
            port = std::stoi(listen.substr(colon + 1));
        } catch (const std::exception&) {}
        if (host.empty() || port < 0 || port > 65535) return usage("--listen takes HOST:PORT, e.g. 127.0.0.1:8080");
        if (!is_loopback(host) && !allow_remote_http)
            return usage("refusing plain HTTP on " + host + ": tokens would cross the network in clear. Serve on loopback behind "
                         "a TLS reverse proxy (the instructors' page shows one), and pass --allow-remote-http only then");
    }
    if (scratch.empty()) scratch = db + ".work";
    wo.renew_s = lease_s / 3;
    if (worker_only) {
        char name[256] = {};
        ::gethostname(name, sizeof name - 1);
        wo.name_prefix = std::string(name) + "." + std::to_string(::getpid()) + "/";
    }
    wo.scratch = fs::absolute(scratch).string();
    wo.build_dir = fs::absolute(wo.build_dir).string();
    wo.course_dir = fs::absolute(wo.course_dir).string();
    wo.grade = fs::absolute(wo.grade).string();  // gradings start in their own folder
    wo.no_gpu = allow_no_gpu;

    if (sandbox != "none") {
        const auto found = program_path(wo.bwrap);
        if (!found && sandbox == "bwrap") return usage("--sandbox bwrap: " + wo.bwrap + " was not found (Debian: bubblewrap)");
        wo.sandbox = found.has_value();
        if (found) wo.bwrap = *found;
        else std::cerr << "course-server: WARNING: bubblewrap not found: gradings run without a sandbox\n";
        // Found but unable to sandbox (no user namespaces, say): every grading would fail; say so now.
        if (found && std::system(("'" + *found + "' --unshare-all --ro-bind / / true > /dev/null 2>&1").c_str()) != 0)
            return usage(*found + " cannot make a sandbox on this machine (are user namespaces allowed?): fix that, or "
                         "start with --sandbox none");
    } else {
        wo.sandbox = false;
        std::cerr << "course-server: WARNING: --sandbox none: students' code runs with the server's rights\n";
    }
    // The sandbox shows the course and the build folder: the class's data must lie elsewhere.
    for (const auto& [what, p] : {std::pair<std::string, std::string>{"--db", is_postgres_url(db) ? "" : db},
                                  {"--tokens", tokens_path}, {"--scratch", scratch}})
        for (const auto& shown : {wo.course_dir, wo.build_dir})
            if (!p.empty() && inside(p, shown))
                return usage(what + " " + p + " lies inside " + shown + ", which gradings can see: keep the class's data outside it");

    std::vector<Identity> ids;
    std::vector<LabSource> catalog;
    grading::Rubric rubric;
    try {
        if (!worker_only) ids = read_tokens(tokens_path);
        rubric = grading::load_rubric(rubric_dir);
        catalog = lab_catalog(rubric_dir, course_labs);
    } catch (const std::exception& e) {
        std::cerr << "course-server: " << e.what() << "\n";
        return 1;
    }
    if (!fs::exists(wo.grade)) return usage("no grader at " + wo.grade + " (build it: cmake --build BUILD --target grade)");
    std::vector<int> gpus = visible_gpus();
    if (!only_gpus.empty()) {
        for (int g : only_gpus)
            if (std::find(gpus.begin(), gpus.end(), g) == gpus.end())
                return usage("--gpus " + std::to_string(g) + ": there is no /dev/nvidia" + std::to_string(g) + " here");
        std::sort(only_gpus.begin(), only_gpus.end());
        only_gpus.erase(std::unique(only_gpus.begin(), only_gpus.end()), only_gpus.end());
        gpus = only_gpus;
    }
    if (gpus.empty() && !allow_no_gpu && cpu_workers > 0)
        return usage("no GPU here (/dev/nvidia*): --allow-no-gpu starts workers that build and audit only");
    fs::create_directories(wo.scratch);

    // SIGINT and SIGTERM are taken by one thread (blocked everywhere else, before any thread starts).
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGINT);
    sigaddset(&stop_signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
    ::signal(SIGPIPE, SIG_IGN);

    std::unique_ptr<Store> store;
    try {
        store = open_store(db, lease_s);
        if (const int n = store->recover(wo.max_attempts))
            std::cerr << "course-server: " << n << " submission(s) were being graded when the server last stopped\n";
    } catch (const std::exception& e) {
        std::cerr << "course-server: " << e.what() << "\n";
        return 1;
    }
    if (!no_prepare && !prepare_build(wo.build_dir, catalog)) {
        std::cerr << "course-server: the grader's shared programs do not build; see " << wo.build_dir
                  << "/grading/service-prepare.log\n";
        return 1;
    }

    if (wo.sandbox) {
        // Gradings cannot build what they share (the build folder is read-only to them): the worker does,
        // when the course changed since it was last built (with --no-prepare: by the server last started).
        wo.rebuild_shared = [build = wo.build_dir, catalog] { return prepare_build(build, catalog); };
        std::error_code ec;
        if (no_prepare) wo.shared_built_at = fs::last_write_time(fs::path(wo.build_dir) / "grading" / "service-prepare.log", ec);
        if (ec) wo.shared_built_at = fs::file_time_type::min();  // never built: built before the first grading
        if (const std::string why = prepare_build_view(wo); !why.empty()) {
            std::cerr << "course-server: " << why << "\n";
            return 1;
        }
    }
    std::cerr << "course-server: limits of a grading: " << limits_at_start(wo) << "\n";

    if (worker_only) {
        // No server here: the workers grade what the shared database queues, until SIGINT or SIGTERM.
        Workers workers(*store, wo, gpus, cpu_workers);
        std::cerr << "course-server worker: " << workers.info().size() << (gpus.empty() ? " build-only" : " GPU")
                  << " worker(s) on the shared database" << (wo.sandbox ? ", gradings sandboxed by bubblewrap" : ", gradings NOT sandboxed")
                  << "\n";
        std::cout << "worker ready" << std::endl;
        int sig = 0;
        sigwait(&stop_signals, &sig);
        std::cerr << "course-server worker: stopping (gradings in progress go back to the queue)\n";
        workers.stop();
        return 0;
    }
    httplib::Server server;
    // Request threads: each is held by a connection for as long as its client takes to send a request (a
    // read waits up to set_read_timeout for each piece), and at most --request-deadline (deadline.hpp); the
    // buffering proxy in front (instructors.md) keeps slow clients off them.
    server.new_task_queue = [] { return new httplib::ThreadPool(64); };
    server.set_read_timeout(30, 0);
    const TokenTable tokens(ids);
    Workers workers(*store, wo, cpu_workers == 0 ? std::vector<int>{} : gpus, cpu_workers);
    add_routes(server, *store, tokens, catalog, rubric, workers, ao);
    add_pages(server, *store, tokens, catalog, rubric, workers, ao, po);
    if (port == 0) port = server.bind_to_any_port(host);
    else if (!server.bind_to_port(host, port)) port = -1;
    if (port < 0) {
        std::cerr << "course-server: cannot listen on " << listen << "\n";
        workers.stop();
        return 1;
    }
    std::optional<ConnectionDeadline> deadline;
    if (request_deadline_s > 0)
        deadline.emplace(port, std::chrono::milliseconds(static_cast<long long>(request_deadline_s * 1000)));
    std::thread stopper([&] {
        int sig = 0;
        sigwait(&stop_signals, &sig);
        std::cerr << "course-server: stopping (gradings in progress go back to the queue)\n";
        server.stop();
    });
    std::cerr << "course-server: " << ids.size() << " tokens, " << catalog.size() << " labs, "
              << (cpu_workers == 0 ? std::string("no worker here (the GPU hosts' course-server worker grade)")
                  : gpus.empty()   ? std::to_string(cpu_workers) + " build-only worker(s)"
                                   : std::to_string(gpus.size()) + " GPU worker(s)")
              << (wo.sandbox ? ", gradings sandboxed by bubblewrap" : ", gradings NOT sandboxed") << "\n";
    std::cout << "listening on http://" << host << ":" << port << std::endl;
    server.listen_after_bind();
    workers.stop();
    stopper.join();
    return 0;
}
