/// @file tokens.hpp
/// @brief Who may use the grading service: one secret token per student and one for the instructor.
///
/// Only SHA-256 hashes of the tokens are kept (tokens.csv: `id,role,sha256`); the tokens themselves are
/// printed once, when they are made, for the instructor to hand out. A presented token is hashed and
/// compared with every stored hash in constant time, so neither the answer's timing nor the server's
/// files tell anything about a token.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace service {

/// A forwarder (Gradescope's autograder, say) submits and reads on behalf of the student it names; it
/// cannot read the gradebook or list everyone's submissions, and it is not a student itself.
enum class Role { Student, Instructor, Forwarder };

/// @brief The role's name in tokens.csv ("student", "instructor", "forwarder").
const char* role_name(Role role);

/// @brief One identity of tokens.csv.
struct Identity {
    std::string id;  ///< the student's id (the roster's), "instructor", or a forwarder's name
    Role role = Role::Student;
    std::string hash;  ///< lower-case hex SHA-256 of the token
};

/// @brief A student id the service accepts: 1 to 64 of [A-Za-z0-9._-], not starting with '.'.
bool valid_student_id(const std::string& id);

/// @brief The student ids of a roster CSV: the column headed "student" or "id", else the first column (a
/// first row that names such a column, or whose first field is not a valid id, is a header). Throws std::runtime_error
/// naming the line of an id that is not valid, or of one given twice.
std::vector<std::string> read_roster(const std::string& path);

/// @brief A new token: 32 bytes from OpenSSL's random generator, as 64 hex digits.
std::string make_token();

/// @brief Lower-case hex SHA-256 of @p text.
std::string sha256_hex(const std::string& text);

/// @brief The identities of a tokens.csv; throws std::runtime_error naming a malformed line.
std::vector<Identity> read_tokens(const std::string& path);

/// @brief Writes @p ids to @p path as tokens.csv (only hashes), readable by its owner alone.
void write_tokens(const std::string& path, const std::vector<Identity>& ids);

/// @brief The identities of a tokens.csv, and who presents a token.
class TokenTable {
public:
    explicit TokenTable(std::vector<Identity> ids) : ids_(std::move(ids)) {}
    /// @brief The identity whose token is @p token; every stored hash is compared, in constant time.
    std::optional<Identity> who(const std::string& token) const;
    /// @brief True when @p id is a student's (a forwarder may act only for one).
    bool is_student(const std::string& id) const;
    const std::vector<Identity>& identities() const { return ids_; }

private:
    std::vector<Identity> ids_;
};

}  // namespace service
