// Submissions from a folder, staged in grading slots (see staging.hpp).
#include "staging.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <optional>
#include <utility>

namespace fs = std::filesystem;

namespace grading {

namespace {
// The most a lab's file may hold: the course's sources are some 20 KiB.
constexpr off_t kMaxFileBytes = 1 << 20;

// An open descriptor, closed when it goes.
struct Fd {
    int fd = -1;
    explicit Fd(int f) : fd(f) {}
    Fd(Fd&& o) noexcept : fd(std::exchange(o.fd, -1)) {}
    Fd& operator=(Fd&& o) noexcept {
        std::swap(fd, o.fd);
        return *this;
    }
    ~Fd() {
        if (fd >= 0) ::close(fd);
    }
};

// A lab's file found in a submission: the path it is shown by, what it held when it was read, and which
// of the places looked in it was found in.
struct Found {
    fs::path path;
    std::string content;
    std::size_t place = 0;
};

// Where a submission keeps a lab's file: DIR/NN-name/, DIR/labs/NN-name/ or DIR/ itself (@p places, each a
// list of names below DIR, the file's last). Only a regular file that really lies inside the submission
// counts: a symbolic link (to the course's solutions, say, or another student's work), or a path through a
// linked folder, is refused, with the reason in @p refused. Each step is opened from the one before without
// following a link (openat, O_NOFOLLOW), and the file is read from the descriptor that was checked, so a
// submission changed while it is staged cannot swap a link in between the check and the read. Anything
// but a regular file (a FIFO, a folder) is passed over; a file over kMaxFileBytes is refused.
std::optional<Found> read_in_submission(const fs::path& dir, const std::vector<std::vector<std::string>>& places,
                                        std::string& refused) {
    for (std::size_t p = 0; p < places.size(); ++p) {
        const std::vector<std::string>& names = places[p];
        fs::path shown = dir;
        Fd at(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
        bool absent = at.fd < 0;
        for (std::size_t k = 0; !absent && k < names.size(); ++k) {
            shown /= names[k];
            const bool last = k + 1 == names.size();
            const int flags = O_RDONLY | O_NOFOLLOW | O_CLOEXEC | (last ? O_NONBLOCK | O_NOCTTY : O_DIRECTORY);
            Fd next(::openat(at.fd, names[k].c_str(), flags));
            if (next.fd < 0) {
                struct stat st{};
                if (::fstatat(at.fd, names[k].c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode)) {
                    refused = shown.string() + " is a symbolic link or lies outside the submission: submit the file "
                                               "itself";
                    return std::nullopt;
                }
                absent = true;  // not there, or not a folder where one is needed
                break;
            }
            at = std::move(next);
        }
        if (absent) continue;
        struct stat st{};
        if (::fstat(at.fd, &st) != 0 || !S_ISREG(st.st_mode)) continue;
        if (st.st_size > kMaxFileBytes) {
            refused = shown.string() + " holds " + std::to_string(st.st_size) + " bytes: a lab's file is at most " +
                      std::to_string(kMaxFileBytes) + " bytes";
            return std::nullopt;
        }
        Found f{shown, {}, p};
        char buf[65536];
        for (ssize_t got; (got = ::read(at.fd, buf, sizeof buf)) != 0;) {
            if (got < 0) {
                if (errno == EINTR) continue;
                refused = shown.string() + " could not be read (" + std::strerror(errno) + ")";
                return std::nullopt;
            }
            f.content.append(buf, static_cast<std::size_t>(got));
            if (f.content.size() > static_cast<std::size_t>(kMaxFileBytes)) {
                refused = shown.string() + " grew past " + std::to_string(kMaxFileBytes) + " bytes while it was read";
                return std::nullopt;
            }
        }
        return f;
    }
    return std::nullopt;
}

// Writes @p content to @p path, whole; false when it could not.
bool write_file(const fs::path& path, const std::string& content) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << content;
    return static_cast<bool>(out.flush());
}
// Removes what the last compile of @p target left where the next one may read (confined_compile's folders
// for it, autograder/CMakeLists.txt): the object and its dependency file in the object's folder (CMake's own
// files there stay), nvcc's intermediate files and the compile's temporary ones.
void forget_last_compile(const fs::path& build_dir, const RubricLab& lab, const std::string& target) {
    std::error_code ec;
    const fs::path objects = build_dir / "autograder" / "labs" / lab.dir / "CMakeFiles" / (target + "_code.dir");
    std::vector<fs::path> old;
    for (auto it = fs::recursive_directory_iterator(objects, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec)) {
        const std::string name = it->path().filename().string();
        const auto ends = [&](const std::string& tail) {
            return name.size() >= tail.size() && name.compare(name.size() - tail.size(), tail.size(), tail) == 0;
        };
        if (it->is_regular_file(ec) && (ends(".o") || ends(".o.d"))) old.push_back(it->path());
    }
    for (const auto& f : old) fs::remove(f, ec);
    for (const char* d : {"keep", "tmp"}) fs::remove_all(build_dir / "graded" / target / d, ec);
}
}  // namespace

LabFiles course_lab_files(const RubricLab& lab) {
    LabFiles f;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(fs::path(GRADER_COURSE_LABS) / lab.dir, ec)) {
        const std::string name = e.path().filename().string();
        if (e.path().extension() == ".cu") f.source = name;
        else if (e.path().extension() == ".cuh") f.headers.push_back(name);
    }
    return f;
}

std::vector<LabJob> stage_submission(const std::string& build_dir, const fs::path& submission, const Slot& slot,
                                     const std::vector<const RubricLab*>& labs) {
    std::vector<LabJob> jobs;
    const fs::path slot_dir = fs::path(build_dir) / "grading" / "slots" / std::to_string(slot.number);
    for (const RubricLab* lab : labs) {
        LabJob j;
        j.lab = lab;
        j.target = "lab" + lab->id + "_slot" + std::to_string(slot.number);
        j.tree_label = "submission";
        j.log_stem = "lab" + lab->id;
        const LabFiles files = course_lab_files(*lab);
        const fs::path dest = slot_dir / lab->dir;
        std::error_code ec;
        fs::remove_all(dest, ec);
        forget_last_compile(build_dir, *lab, j.target);
        fs::create_directories(dest);
        std::string refused;
        const std::vector<std::vector<std::string>> places = {
            {lab->dir, files.source}, {"labs", lab->dir, files.source}, {files.source}};
        const auto src = read_in_submission(submission, places, refused);
        if (!src) {
            j.missing = !refused.empty() ? refused
                                         : "the submission has no " + files.source + " (looked in " +
                                               (submission / lab->dir).string() + "/, " +
                                               (submission / "labs" / lab->dir).string() + "/ and " + submission.string() + "/)";
        } else if (!write_file(dest / files.source, src->content)) {
            j.missing = "the grader could not copy " + src->path.string() + " into " + dest.string();
        } else {
            // Messages name the student's own file, not this copy (assemble_lab --submission-name-file).
            std::ofstream(dest / "source-name.txt") << src->path.string() << "\n";
            // Headers only from the source's own folder (they are compared with the course's, never compiled).
            for (const auto& h : files.headers) {
                std::vector<std::string> beside = places[src->place];
                beside.back() = h;
                std::string ignored;
                if (const auto hp = read_in_submission(submission, {beside}, ignored)) write_file(dest / h, hp->content);
            }
        }
        jobs.push_back(std::move(j));
    }
    return jobs;
}

}  // namespace grading
