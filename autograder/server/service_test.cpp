// The service's parts without a network: tokens, what an upload may hold, and the store's rules
// (a retry stored once, one queued submission a lab, the hourly limit, exactly one result a submission).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include "deadline.hpp"
#include "gradebook.hpp"
#include "store.hpp"
#include "submission.hpp"
#include "tokens.hpp"
#include "worker.hpp"

#include <doctest/doctest.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <thread>
#include <fstream>

namespace fs = std::filesystem;
using namespace service;

namespace {
const std::vector<LabSource>& catalog() {
    static const auto c = lab_catalog(RUBRIC_PATH, STARTERS_PATH);
    return c;
}

std::string body(const std::vector<std::pair<std::string, std::string>>& files) {
    nlohmann::json j = {{"files", nlohmann::json::array()}};
    for (const auto& [n, c] : files) j["files"].push_back({{"name", n}, {"content", c}});
    return j.dump();
}

Upload upload(const std::vector<std::pair<std::string, std::string>>& files) {
    auto r = parse_upload(body(files), catalog());
    REQUIRE(std::holds_alternative<Upload>(r));
    return std::get<Upload>(r);
}

std::string refusal(const std::string& b) {
    auto r = parse_upload(b, catalog());
    return std::holds_alternative<std::string>(r) ? std::get<std::string>(r) : "";
}

// A fresh database in a temporary folder, removed at the end.
struct TempDb {
    fs::path dir = fs::temp_directory_path() / ("service_test_" + make_token().substr(0, 12));
    TempDb() { fs::create_directories(dir); }
    ~TempDb() { fs::remove_all(dir); }
    std::string path() const { return (dir / "class.sqlite").string(); }
};
}  // namespace

// The store of a store test (here and in pages_test.cpp): the SQLite file @p sqlite_path, or, with
// COURSE_TEST_POSTGRES set to a database URL, that PostgreSQL database (tests/postgres_test.py runs the store
// tests so, one empty database a test case).
std::unique_ptr<Store> test_store(const std::string& sqlite_path) {
    if (const char* url = std::getenv("COURSE_TEST_POSTGRES")) return open_store(url);
    return std::make_unique<SqliteStore>(sqlite_path);
}

TEST_CASE("a token is recognised by its hash alone, and a wrong one is not") {
    const std::string t = make_token();
    CHECK(t.size() == 64);
    CHECK(t != make_token());
    const TokenTable table({{"alice", Role::Student, sha256_hex(t)}, {"instructor", Role::Instructor, sha256_hex("x")}});
    REQUIRE(table.who(t));
    CHECK(table.who(t)->id == "alice");
    CHECK_FALSE(table.who(t.substr(1)));
    CHECK_FALSE(table.who(""));
    CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST_CASE("a roster's ids are read from its 'student' column; a bad or repeated id names its line") {
    TempDb d;
    const auto write = [&](const std::string& text) {
        std::ofstream(d.dir / "roster.csv") << text;
        return (d.dir / "roster.csv").string();
    };
    CHECK(read_roster(write("name,student\nAda Lovelace,ada\n\"Hopper, Grace\",grace\n")) ==
          std::vector<std::string>{"ada", "grace"});
    CHECK(read_roster(write("ada\nbob\n")) == std::vector<std::string>{"ada", "bob"});
    CHECK_THROWS_WITH(read_roster(write("student\nada\nada\n")), doctest::Contains(":3: ada is listed twice"));
    CHECK_THROWS_WITH(read_roster(write("student\n../x\n")), doctest::Contains("is not a student id"));
    CHECK_THROWS_WITH(read_roster(write("student\ninstructor\n")), doctest::Contains("is not a student id"));
    write_tokens((d.dir / "tokens.csv").string(), {{"ada", Role::Student, sha256_hex("t")}});
    CHECK(read_tokens((d.dir / "tokens.csv").string()).at(0).hash == sha256_hex("t"));
    CHECK((fs::status(d.dir / "tokens.csv").permissions() & fs::perms::others_read) == fs::perms::none);
}

TEST_CASE("UTF-8 is checked strictly") {
    CHECK(is_utf8("plain ascii"));
    CHECK(is_utf8("\xC3\xA9t\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"));
    CHECK_FALSE(is_utf8("\xC3"));              // cut short
    CHECK_FALSE(is_utf8("\xC0\xAF"));          // overlong '/'
    CHECK_FALSE(is_utf8("\xED\xA0\x80"));      // a surrogate
    CHECK_FALSE(is_utf8("\xF4\x90\x80\x80"));  // past U+10FFFF
    CHECK_FALSE(is_utf8("\xFF"));
}

TEST_CASE("an upload takes only the labs' own source files, as UTF-8 text") {
    const auto up = upload({{"max_reduce.cu", "b"}, {"sum_reduction.cu", "a"}});
    REQUIRE(up.files.size() == 2);
    CHECK(up.files[0].lab->id == "01");  // sorted by lab
    CHECK(up.content_hash == upload({{"sum_reduction.cu", "a"}, {"max_reduce.cu", "b"}}).content_hash);
    CHECK(up.content_hash != upload({{"sum_reduction.cu", "a"}, {"max_reduce.cu", "c"}}).content_hash);

    CHECK(refusal("not json").find("not JSON") != std::string::npos);
    CHECK(refusal("{\"files\": []}").find("at least one file") != std::string::npos);
    CHECK(refusal(body({{"../sum_reduction.cu", "x"}})).find("path separator") != std::string::npos);
    CHECK(refusal(body({{"..sum_reduction.cu", "x"}})).find("'..'") != std::string::npos);
    CHECK(refusal(body({{std::string("sum_reduction.cu\0x", 18), "x"}})).find("NUL") != std::string::npos);
    CHECK(refusal(body({{"evil.cu", "x"}})).find("not a lab's source") != std::string::npos);
    CHECK(refusal(body({{"sum_reduction.cuh", "x"}})).find("not a lab's source") != std::string::npos);
    CHECK(refusal(body({{"sum_reduction.cu", "x"}, {"sum_reduction.cu", "y"}})).find("twice") != std::string::npos);
    CHECK(refusal(body({{"sum_reduction.cu", std::string("a\0b", 3)}})).find("NUL") != std::string::npos);
    // Raw bytes that are not UTF-8 inside a JSON string: refused by the parser or by the check.
    CHECK_FALSE(refusal("{\"files\": [{\"name\": \"sum_reduction.cu\", \"content\": \"\xFF\"}]}").empty());
}

TEST_CASE("the store keeps a retry once, one queued submission a lab, and the hourly limit") {
    TempDb d;
    const auto store = test_store(d.path());
    Store& s = *store;
    const auto a = s.submit("ada", upload({{"sum_reduction.cu", "v1"}, {"max_reduce.cu", "v1"}}), 3);
    CHECK(a.kind == SubmitOutcome::Kind::Stored);
    const auto again = s.submit("ada", upload({{"sum_reduction.cu", "v1"}, {"max_reduce.cu", "v1"}}), 3);
    CHECK(again.kind == SubmitOutcome::Kind::Duplicate);
    CHECK(again.id == a.id);
    // Another student's identical upload is theirs.
    CHECK(s.submit("bob", upload({{"sum_reduction.cu", "v1"}, {"max_reduce.cu", "v1"}}), 3).kind == SubmitOutcome::Kind::Stored);

    // A newer Lab 01 takes Lab 01 from the queued one, which keeps Lab 02.
    const auto b = s.submit("ada", upload({{"sum_reduction.cu", "v2"}}), 3);
    auto first = s.submission(a.id, std::string("ada"));
    REQUIRE(first);
    CHECK((*first)["state"] == "queued");
    CHECK((*first)["labs"] == nlohmann::json::array({"02"}));
    // And a newer one of Lab 02 empties it: replaced, never graded.
    const auto c = s.submit("ada", upload({{"max_reduce.cu", "v2"}}), 3);
    CHECK((*s.submission(a.id, std::nullopt))["state"] == "replaced");
    CHECK(s.submit("ada", upload({{"max_reduce.cu", "v3"}}), 3).kind == SubmitOutcome::Kind::RateLimited);
    CHECK(s.list(std::string("ada")).size() == 3);
    CHECK_FALSE(s.submission(b.id, std::string("bob")));  // someone else's
    CHECK(c.kind == SubmitOutcome::Kind::Stored);
}

TEST_CASE("workers take a fair share between students before the order of arrival") {
    TempDb d;
    auto s = test_store(d.path());
    // ada queues three labs, then bob one: FIFO would grade all of ada's first.
    const long long a1 = s->submit("ada", upload({{"sum_reduction.cu", "a"}}), 10).id;
    const long long a2 = s->submit("ada", upload({{"max_reduce.cu", "a"}}), 10).id;
    const long long a3 = s->submit("ada", upload({{"tiled_matmul.cu", "a"}}), 10).id;
    const long long b1 = s->submit("bob", upload({{"sum_reduction.cu", "b"}}), 10).id;
    // Claims and finishes every queued submission, in the order a worker takes them.
    const auto drain = [&] {
        std::vector<long long> order;
        while (const auto job = s->claim("w1")) {
            order.push_back(job->id);
            CHECK(s->finish(job->id, job->claim, 0, "table", ""));
            std::this_thread::sleep_for(std::chrono::milliseconds(5));  // each grading starts after the last
        }
        return order;
    };
    std::vector<long long> order = drain();
    // ada's oldest (nobody served yet: by arrival), then bob's (never served), then ada's others in turn.
    CHECK(order == std::vector<long long>{a1, b1, a2, a3});
    // A student served longest ago goes first: carol, new, before ada's next; then ada (served before bob).
    const long long a4 = s->submit("ada", upload({{"transpose.cu", "a"}}), 10).id;
    const long long b2 = s->submit("bob", upload({{"max_reduce.cu", "b"}}), 10).id;
    const long long c1 = s->submit("carol", upload({{"sum_reduction.cu", "c"}}), 10).id;
    order = drain();
    CHECK(order == std::vector<long long>{c1, b2, a4});
}

TEST_CASE("a submission is finished (and its claim renewed) by its current claim only; two interruptions leave it not graded") {
    TempDb d;
    const long long id = [&] {
        SqliteStore s(d.path());
        return s.submit("ada", upload({{"sum_reduction.cu", "x"}}), 10).id;
    }();
    {
        SqliteStore s(d.path());
        const auto j1 = s.claim("w1");
        REQUIRE(j1);
        CHECK(j1->id == id);
        CHECK(j1->files.size() == 1);
        CHECK_FALSE(s.claim("w2"));  // nothing else queued
        // The server stops here without a word: the next start finds the claim.
    }
    SqliteStore s(d.path());
    CHECK(s.recover(2) == 1);
    auto j2 = s.claim("w2");
    REQUIRE(j2);
    CHECK(j2->attempt == 2);
    CHECK(s.renew(id, j2->claim));           // still this worker's
    CHECK_FALSE(s.renew(id, "w1:1:stale"));  // the claim a restart took back
    CHECK_FALSE(s.finish(id, "w1:1:stale", 0, "out", ""));
    CHECK(s.finish(id, j2->claim, 1, "table", ""));
    CHECK_FALSE(s.finish(id, j2->claim, 1, "table", ""));
    const auto v = *s.submission(id, std::nullopt);
    CHECK(v["state"] == "done");
    CHECK(v["exit_code"] == 1);
    CHECK(v["attempt_log"].size() == 2);
    CHECK(v["attempt_log"][1]["outcome"] == "graded");
    CHECK_FALSE(s.renew(id, j2->claim));  // finished: nothing left to renew

    const long long other = s.submit("bob", upload({{"sum_reduction.cu", "y"}}), 10).id;
    auto k1 = s.claim("w1");
    s.interrupted(other, k1->claim, "killed", 2);
    CHECK((*s.submission(other, std::nullopt))["state"] == "queued");
    auto k2 = s.claim("w1");
    s.interrupted(other, k2->claim, "killed again", 2);
    const auto n = *s.submission(other, std::nullopt);
    CHECK(n["state"] == "not_graded");
    CHECK(n["reason"].get<std::string>().find("killed again") != std::string::npos);
    CHECK_FALSE(s.claim("w1"));
}

TEST_CASE("the gradebook reads a build-only grading's lines and a graded run's results.json") {
    const LabSource& lab01 = catalog().at(0);
    GradedLab built{"ada", "01", 1, 0, "Lab 01 (Sum reduction): compiles\n  passed: ...\n", ""};
    CHECK(lab_row(built, lab01)["class"] == "compiles");
    GradedLab broken{"bob", "01", 2, 1, "Lab 01 (Sum reduction): DOES NOT COMPILE: error\n", ""};
    CHECK(lab_row(broken, lab01)["class"] == "does_not_compile");
    const nlohmann::json results = {{"tests",
                                     {{{"number", "01"}, {"score", 2}, {"max_score", 2}, {"status", "passed"}, {"tags", {"lab01", "none"}}},
                                      {{"number", "01"}, {"score", 0}, {"max_score", 3}, {"status", "failed"}, {"tags", {"lab01", "wrong_result"}}}}}};
    GradedLab graded{"cy", "01", 3, 1, "", results.dump()};
    const auto row = lab_row(graded, lab01);
    CHECK(row["points"] == 2);
    CHECK(row["max_points"] == 5);
    CHECK(row["class"] == "wrong_result");
    const auto rows = gradebook_rows({"ada", "dan"}, {built}, catalog());
    CHECK(rows[0]["status"] == "built");
    CHECK(rows[1]["status"] == "not graded");
}

TEST_CASE("a forwarder's token is stored with its role, and only the roster's students are students") {
    TempDb d;
    const std::string path = (d.dir / "tokens.csv").string();
    write_tokens(path, {{"ada", Role::Student, sha256_hex("a")}, {"instructor", Role::Instructor, sha256_hex("i")},
                        {"gradescope", Role::Forwarder, sha256_hex("g")}});
    const TokenTable table(read_tokens(path));
    REQUIRE(table.who("g"));
    CHECK(table.who("g")->role == Role::Forwarder);
    CHECK(table.is_student("ada"));
    CHECK_FALSE(table.is_student("gradescope"));
    CHECK_FALSE(table.is_student("instructor"));
    CHECK_FALSE(table.is_student("bob"));
    std::ofstream(path, std::ios::app) << "x,superuser," << sha256_hex("x") << "\n";
    CHECK_THROWS_WITH(read_tokens(path), doctest::Contains(":5: expected id,role,sha256"));
}

TEST_CASE("the same files after a submission was not graded are a new try, not the old failure") {
    TempDb d;
    const auto store = test_store(d.path());
    Store& s = *store;
    const auto files = upload({{"sum_reduction.cu", "v1"}});
    const long long first = s.submit("ada", files, 10).id;
    for (int i = 0; i < 2; ++i) {
        auto job = s.claim("w1");
        REQUIRE(job);
        s.interrupted(first, job->claim, "killed", 2);
    }
    CHECK((*s.submission(first, std::nullopt))["state"] == "not_graded");
    const auto retry = s.submit("ada", files, 10);
    CHECK(retry.kind == SubmitOutcome::Kind::Stored);
    CHECK(retry.id != first);
    CHECK(s.submit("ada", files, 10).id == retry.id);  // and that one is kept once, as any
}

namespace {
// A TCP socket connected to 127.0.0.1:@p port (-1 on failure).
int connect_to(int port) {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<std::uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

// Whether the peer of @p fd ended the connection within @p ms (a read returns 0 or an error).
bool ended_within(int fd, int ms) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, ms) <= 0) return false;
    char byte = 0;
    return recv(fd, &byte, 1, MSG_DONTWAIT) <= 0;
}
// The watcher counts a shutdown right after making it, so its client may see the end first: waits up to
// @p ms for the count to reach @p n.
long long shut_down_count(const ConnectionDeadline& deadline, long long n, int ms) {
    for (int waited = 0; deadline.shut_down() < n && waited < ms; waited += 10)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    return deadline.shut_down();
}

}  // namespace

TEST_CASE("a connection accepted on the server's port is shut down at its deadline, and no other socket") {
    const int listener = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(bind(listener, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
    REQUIRE(listen(listener, 8) == 0);
    socklen_t size = sizeof a;
    REQUIRE(getsockname(listener, reinterpret_cast<sockaddr*>(&a), &size) == 0);
    const int port = ntohs(a.sin_port);

    const int old_client = connect_to(port);
    REQUIRE(old_client >= 0);
    const int old_conn = accept(listener, nullptr, nullptr);
    REQUIRE(old_conn >= 0);
    // A socket of this process that is not the server's: a connection it made to the server is local to an
    // ephemeral port (old_client), and stays open.
    ConnectionDeadline deadline(port, std::chrono::milliseconds(300), std::chrono::milliseconds(50));
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    const int young_client = connect_to(port);
    const int young_conn = accept(listener, nullptr, nullptr);
    REQUIRE(young_conn >= 0);
    // The first is past its deadline at about 300 ms: its client sees the end.
    CHECK(ended_within(old_client, 1000));
    CHECK(shut_down_count(deadline, 1, 1000) == 1);
    // The second, 200 ms younger, is not yet; the listening socket never is.
    CHECK_FALSE(ended_within(young_client, 0));
    CHECK(ended_within(young_client, 1000));
    CHECK(shut_down_count(deadline, 2, 1000) == 2);
    const int late_client = connect_to(port);  // the listener still accepts
    CHECK(late_client >= 0);
    for (int fd : {old_client, old_conn, young_client, young_conn, late_client, listener}) close(fd);
}

TEST_CASE("while the shared programs do not build, a worker claims nothing: the submissions wait, uncharged") {
    TempDb d;
    SqliteStore store(d.path());
    const long long id = store.submit("ada", upload({{"sum_reduction.cu", "x"}}), 10).id;
    const fs::path course = d.dir / "course", scratch = d.dir / "scratch";
    fs::create_directories(course / "labs");
    fs::create_directories(scratch);
    std::ofstream(course / "labs" / "a.cu") << "x";
    std::atomic<int> builds{0};
    std::atomic<bool> builds_ok{false};
    WorkerOptions o;
    o.grade = "/bin/false";
    o.build_dir = (d.dir / "build").string();
    o.course_dir = course.string();
    o.scratch = scratch.string();
    o.no_gpu = true;
    o.sandbox = true;  // the shared programs are rebuilt only for sandboxed gradings
    o.shared_built_at = fs::file_time_type::min();  // never built: built before the first grading
    o.rebuild_shared = [&] {
        ++builds;
        return builds_ok.load();
    };
    Workers workers(store, o, {}, 1);
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    CHECK(builds == 1);  // tried once, not again until the course changes
    auto v = *store.submission(id, std::nullopt);
    CHECK(v["state"] == "queued");
    CHECK(v["attempt_log"].empty());  // never claimed, no attempt charged
    // The course is mended: a newer source, and the build succeeds. The next look takes the submission.
    builds_ok = true;
    fs::last_write_time(course / "labs" / "a.cu", fs::file_time_type::clock::now() + std::chrono::seconds(5));
    bool claimed = false;
    for (int i = 0; i < 100 && !claimed; ++i) {
        workers.notify();
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        claimed = !(*store.submission(id, std::nullopt))["attempt_log"].empty();
    }
    workers.stop();
    CHECK(builds == 2);
    CHECK(claimed);
}

TEST_CASE("a grading names its GPU to CUDA by the UUID the driver gives it, not by its device file's number") {
    // As the driver writes /proc/driver/nvidia/gpus/<PCI address>/information.
    const std::string information =
        "Model: \t\t NVIDIA H200\nIRQ:   \t\t 165\nGPU UUID: \t GPU-da34f456-c85c-f953-dad8-76ec09cec4e5\n"
        "Video BIOS: \t 96.00.af.00.01\nBus Type: \t PCIe\nBus Location: \t 0000:2a:00.0\nDevice Minor: \t 1\n";
    CHECK(uuid_from_information(information) == "GPU-da34f456-c85c-f953-dad8-76ec09cec4e5");
    CHECK(uuid_from_information("Model: \t\t NVIDIA H200\nDevice Minor: \t 1\n").empty());
    // In the sandbox only /dev/nvidia1 is there: CUDA sees one GPU, numbered 0, so "1" would name none.
    CHECK(cuda_visible_devices(1, uuid_from_information(information)) == "GPU-da34f456-c85c-f953-dad8-76ec09cec4e5");
    CHECK(cuda_visible_devices(1, "") == "1");  // no UUID: the number, as before
    WorkerOptions o;
    const auto env = grading_env(o, "/tmp/job", -1);
    CHECK(std::find(env.begin(), env.end(), "CUDA_VISIBLE_DEVICES=") != env.end());  // no GPU: none visible
}

namespace {
// A stand-in for grade that writes @p marker when it runs, prints @p output and exits with @p status.
std::string grade_stub(const fs::path& dir, const std::string& output, int status) {
    const fs::path script = dir / "grade-stub.sh", marker = dir / "ran";
    std::ofstream(script) << "#!/bin/sh\ntouch '" << marker.string() << "'\nprintf '%s\\n' '" << output << "'\nexit " << status
                          << "\n";
    fs::permissions(script, fs::perms::owner_all);
    return script.string();
}
}  // namespace

TEST_CASE("a grader that finds no usable GPU before any check gives the submission back uncharged; after a check began, "
          "the attempt counts") {
    for (const bool checks_began : {false, true}) {
        CAPTURE(checks_began);
        TempDb d;
        SqliteStore store(d.path());
        const long long id = store.submit("ada", upload({{"sum_reduction.cu", "x"}}), 10).id;
        WorkerOptions o;
        o.grade = grade_stub(d.dir, std::string(checks_began ? "checking...\n" : "") +
                                        "grade: cannot grade on this machine: no CUDA GPU is visible", 77);
        o.build_dir = (d.dir / "build").string();
        o.course_dir = (d.dir / "course").string();
        o.scratch = (d.dir / "scratch").string();
        fs::create_directories(o.scratch);
        o.no_gpu = true;
        o.sandbox = false;
        Workers workers(store, o, {}, 1);
        nlohmann::json v;
        bool done = false;
        for (int i = 0; i < 100 && !done; ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            v = *store.submission(id, std::nullopt);
            done = fs::exists(d.dir / "ran") && (checks_began ? !v["attempt_log"].empty() : v["state"] == "queued");
        }
        CHECK(fs::exists(d.dir / "ran"));
        const auto stop_began = std::chrono::steady_clock::now();
        workers.stop();  // a worker that waits after such a grading stops at once
        CHECK(std::chrono::steady_clock::now() - stop_began < std::chrono::seconds(5));
        v = *store.submission(id, std::nullopt);
        if (checks_began) {
            CHECK(!v["attempt_log"].empty());  // the student's code may have run: an attempt, as any interruption
        } else {
            CHECK(v["state"] == "queued");
            CHECK(v["attempt_log"].empty());  // given back, charged nothing
        }
    }
}
