#include "tokens.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

namespace service {
namespace {
std::vector<std::string> csv_fields(const std::string& line) {
    std::vector<std::string> out;
    std::string field;
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') field += '"', ++i;
            else if (c == '"') quoted = false;
            else field += c;
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            out.push_back(field);
            field.clear();
        } else if (c != '\r') {
            field += c;
        }
    }
    out.push_back(field);
    for (auto& f : out) {
        const auto b = f.find_first_not_of(" \t"), e = f.find_last_not_of(" \t");
        f = b == std::string::npos ? "" : f.substr(b, e - b + 1);
    }
    return out;
}

std::string hex(const unsigned char* bytes, std::size_t n) {
    static const char* digits = "0123456789abcdef";
    std::string s;
    for (std::size_t i = 0; i < n; ++i) s += digits[bytes[i] >> 4], s += digits[bytes[i] & 15];
    return s;
}
}  // namespace

const char* role_name(Role role) {
    return role == Role::Instructor ? "instructor" : role == Role::Forwarder ? "forwarder" : "student";
}

bool valid_student_id(const std::string& id) {
    if (id.empty() || id.size() > 64 || id[0] == '.') return false;
    for (unsigned char c : id)
        if (!std::isalnum(c) && c != '.' && c != '_' && c != '-') return false;
    return true;
}

std::vector<std::string> read_roster(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read the roster " + path);
    std::vector<std::string> ids;
    std::set<std::string> seen;
    std::string line;
    std::size_t column = 0;
    for (int n = 1; std::getline(in, line); ++n) {
        const auto f = csv_fields(line);
        if (f.size() == 1 && f[0].empty()) continue;
        if (n == 1) {  // a header names the id's column ("student" or "id"), or starts with what is not an id
            const auto named = std::find_if(f.begin(), f.end(), [](const std::string& h) { return h == "student" || h == "id"; });
            if (named != f.end()) column = static_cast<std::size_t>(named - f.begin());
            if (named != f.end() || !valid_student_id(f[0])) continue;
        }
        const std::string id = column < f.size() ? f[column] : "";
        if (!valid_student_id(id) || id == "instructor")
            throw std::runtime_error(path + ":" + std::to_string(n) + ": '" + id +
                                     "' is not a student id (1 to 64 of A-Z a-z 0-9 . _ -, not 'instructor')");
        if (!seen.insert(id).second) throw std::runtime_error(path + ":" + std::to_string(n) + ": " + id + " is listed twice");
        ids.push_back(id);
    }
    if (ids.empty()) throw std::runtime_error("the roster " + path + " lists no student");
    return ids;
}

std::string make_token() {
    unsigned char bytes[32];
    if (RAND_bytes(bytes, sizeof bytes) != 1) throw std::runtime_error("OpenSSL's random generator failed");
    return hex(bytes, sizeof bytes);
}

std::string sha256_hex(const std::string& text) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    if (EVP_Digest(text.data(), text.size(), digest, &n, EVP_sha256(), nullptr) != 1)
        throw std::runtime_error("SHA-256 failed");
    return hex(digest, n);
}

std::vector<Identity> read_tokens(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read the tokens file " + path);
    std::vector<Identity> ids;
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
        const auto f = csv_fields(line);
        if (n == 1 && f.size() == 3 && f[0] == "id") continue;
        if (f.size() == 1 && f[0].empty()) continue;
        const bool ok = f.size() == 3 && valid_student_id(f[0]) &&
                        (f[1] == "student" || f[1] == "instructor" || f[1] == "forwarder") && f[2].size() == 64 &&
                        f[2].find_first_not_of("0123456789abcdef") == std::string::npos;
        if (!ok)
            throw std::runtime_error(path + ":" + std::to_string(n) +
                                     ": expected id,role,sha256 (role student, instructor or forwarder)");
        ids.push_back({f[0], f[1] == "instructor" ? Role::Instructor : f[1] == "forwarder" ? Role::Forwarder : Role::Student, f[2]});
    }
    return ids;
}

void write_tokens(const std::string& path, const std::vector<Identity>& ids) {
    const mode_t old = ::umask(077);
    std::ofstream out(path, std::ios::trunc);
    ::umask(old);
    if (!out) throw std::runtime_error("cannot write " + path);
    out << "id,role,sha256\n";
    for (const auto& i : ids) out << i.id << "," << role_name(i.role) << "," << i.hash << "\n";
    if (!out.flush()) throw std::runtime_error("cannot write " + path);
}

std::optional<Identity> TokenTable::who(const std::string& token) const {
    const std::string h = sha256_hex(token);
    std::optional<Identity> found;
    // Every entry is compared, whether or not one has matched already.
    for (const auto& i : ids_)
        if (i.hash.size() == h.size() && CRYPTO_memcmp(i.hash.data(), h.data(), h.size()) == 0) found = i;
    return found;
}

bool TokenTable::is_student(const std::string& id) const {
    return std::any_of(ids_.begin(), ids_.end(), [&](const Identity& i) { return i.role == Role::Student && i.id == id; });
}

}  // namespace service
