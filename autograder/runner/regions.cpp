// Student regions: comparison, checking and reassembly (see regions.hpp).
#include "regions.hpp"

#include "audit.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>

namespace grading {

namespace {
const std::string kBegin = "// BEGIN STUDENT REGION";
const std::string kEnd = "// END STUDENT REGION";

std::string rstrip(const std::string& s) {
    const auto e = s.find_last_not_of(" \t\r");
    return e == std::string::npos ? "" : s.substr(0, e + 1);
}
std::string strip(const std::string& s) {
    const auto b = s.find_first_not_of(" \t");
    return b == std::string::npos ? "" : rstrip(s.substr(b));
}
std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) lines.push_back(line);
    return lines;
}
// Identifiers as a region may spell them: ASCII letters, digits and underscores. '$' (a GNU extension) and
// bytes of UTF-8 letters are identifier characters to GCC but not here: a region holds neither outside its
// comments and literals (Lexer::run refuses them), so the two never read an identifier's end differently.
bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The reserved names (a leading underscore and a capital, or two leading underscores) a region may use: CUDA's
// qualifiers and the like. Every other reserved name is the compiler's or a library's, and many of those are
// macros whose expansion the region rules never see (an `extern "C" {`, a brace, an empty one that splits an
// attribute's brackets, an attribute). Names with two leading underscores and a lower-case letter after
// them that do not also end in two (__syncthreads, __shfl_down_sync, __ldg) are CUDA's functions, and allowed.
bool allowed_reserved(const std::string& id) {
    static const std::set<std::string> cuda = {
        "__global__",     "__device__",       "__host__",          "__shared__",   "__constant__",
        "__managed__",    "__restrict__",     "__forceinline__",   "__noinline__", "__launch_bounds__",
        "__align__",      "__grid_constant__", "__maxnreg__",       "__cluster_dims__", "__inline__",
        "__inline_hint__", "__local_maxnreg__",
        "__FILE__",       "__LINE__",         "__PRETTY_FUNCTION__", "__FUNCTION__", "__func__"};
    if (id.size() < 2 || id[0] != '_') return true;
    const bool upper = std::isupper(static_cast<unsigned char>(id[1])) != 0;
    const bool dunder = id[1] == '_';
    if (!upper && !dunder) return true;
    if (cuda.count(id)) return true;
    if (dunder && id.size() > 2 && !std::isupper(static_cast<unsigned char>(id[2])) && id[2] != '_' &&
        !(id.size() > 4 && id.compare(id.size() - 2, 2, "__") == 0))
        return true;
    return false;
}

// A small C++ lexer: just enough to see code apart from comments and literals, and to follow the
// nesting of (), [] and {}. It reports what check_region_body() refuses; for a skeleton it reports
// whether the end of the text lies inside a function body.
struct Lexer {
    const std::string& s;
    bool region;            // checking a region body (refusals) or scanning a skeleton (scope only)
    RegionScope scope = RegionScope::Function;
    std::string error;      // why the region is refused ("" when it is not)
    int error_line = 0;     // the line of the first problem, counted from 1 at the region's first line
    int line = 1;
    // For each open brace: whether it opened a namespace (or extern "C" block).
    std::vector<char> stack;                 // '(' '[' '{'
    std::vector<bool> brace_is_namespace;
    bool namespace_pending = false;          // `namespace` or `extern "C"` seen since the last ; { }
    std::string last_ident;

    Lexer(const std::string& text, bool is_region) : s(text), region(is_region) {}

    bool fail(const std::string& why) {
        if (error.empty()) {
            error = why;
            error_line = line;
        }
        return false;
    }

    // What the compiler reads as a line end or a line splice where this lexer would not, anywhere in a
    // region (code, comments and literals alike): a CR not followed by LF (GCC ends a line there, a `//`
    // comment included); a backslash before the line end, after any spaces, tabs or a CR (GCC splices the
    // lines, in a comment too); and control characters (GCC drops a NUL with a warning, so a backslash, a
    // NUL and a line feed splice the lines as well). Any of them lets the compiler see code the lexer took
    // for a comment or a literal: one rule for every context, so no context is missed.
    bool line_ends_agree() {
        const std::size_t n = s.size();
        for (std::size_t k = 0; k < n; ++k) {
            line += s[k] == '\n';
            const unsigned char u = static_cast<unsigned char>(s[k]);
            if ((u < 0x20 && u != '\t' && u != '\n' && u != '\r' && u != '\f' && u != '\v') || u == 0x7f) {
                char hex[8];
                std::snprintf(hex, sizeof hex, "0x%02x", u);
                return fail(std::string("a control character (byte ") + hex + ") is not allowed in a region: the "
                            "compiler and the grader's rules would read the line differently (save the file as "
                            "plain text)");
            }
            if (s[k] == '\r' && (k + 1 >= n || s[k + 1] != '\n'))
                return fail("a carriage return (CR) may end a line only before a line feed: the compiler ends a line "
                            "at a CR alone (save the file with LF or CRLF line ends)");
            if (s[k] != '\\') continue;
            std::size_t j = k + 1;
            while (j < n && (s[j] == ' ' || s[j] == '\t' || s[j] == '\f' || s[j] == '\v')) ++j;
            if (j < n && (s[j] == '\n' || s[j] == '\r'))
                return fail(j > k + 1 ? "a backslash followed by spaces at the end of a line joins the next line to it "
                                        "for the compiler: remove them"
                                      : "a line may not end with a backslash, in a comment or a literal too (it would "
                                        "join the next line to it)");
        }
        line = 1;
        return true;
    }

    bool run() {
        std::size_t i = 0;
        bool line_start = true;  // only whitespace so far on this line (in code)
        std::size_t literal_end = std::string::npos;  // where the last string or character literal ended
        const std::size_t n = s.size();
        if (region && !line_ends_agree()) return false;
        while (i < n) {
            const char c = s[i];
            const char d = i + 1 < n ? s[i + 1] : '\0';
            if (c == '\\' && (d == '\n' || (d == '\r' && i + 2 < n && s[i + 2] == '\n')))
                if (region) return fail("a line may not end with a backslash (it would join the next line to it)");
            if (c == '\n') {
                ++line;
                line_start = true;
                ++i;
                continue;
            }
            if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
                ++i;
                continue;
            }
            if (c == '/' && d == '/') {  // line comment
                while (i < n && s[i] != '\n') {
                    if (s[i] == '\\' && i + 1 < n && s[i + 1] == '\n' && region)
                        return fail("a line may not end with a backslash (it would join the next line to it)");
                    ++i;
                }
                continue;
            }
            if (c == '/' && d == '*') {  // block comment
                const std::size_t e = s.find("*/", i + 2);
                if (e == std::string::npos) return fail("a /* comment is never closed");
                for (std::size_t k = i; k < e; ++k) line += s[k] == '\n';
                i = e + 2;
                continue;
            }
            const bool was_line_start = line_start;
            line_start = false;
            if (region && (c == '$' || static_cast<unsigned char>(c) >= 0x80))
                return fail(c == '$' ? "'$' is not allowed in a region's code (only in comments and literals)"
                                     : "a character outside ASCII is allowed in a region only in comments and literals "
                                       "(names are ASCII letters, digits and underscores)");
            if (c == '#' && was_line_start && region && unroll_pragma(i)) continue;
            if (c == '#' || (c == '%' && d == ':')) {
                if (region)
                    return fail(was_line_start ? "preprocessor lines (#include, #define, #if, ...) are not allowed in a region; "
                                                    "`#pragma unroll [N]` is the only one a region may hold"
                                               : "'#' is not allowed in a region");
                // In a skeleton: skip the directive.
                while (i < n && s[i] != '\n') ++i;
                continue;
            }
            if (region && ((c == '<' && d == '%') || (c == '%' && d == '>') || (c == ':' && d == '>') ||
                           (c == '<' && d == ':' && !(i + 2 < n && (s[i + 2] == ':'))))) {
                return fail("digraphs (<% %> <: :> %:) are not allowed in a region");
            }
            if (region && c == '\\')  // C++ has no use for one outside a literal: a splice, or a \u name
                return fail("a backslash is allowed only inside a string or character literal");
            if (c == '"' || c == '\'') {
                if (!literal(i, c, false)) return false;
                literal_end = i;
                continue;
            }
            if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && std::isdigit(static_cast<unsigned char>(d)))) {
                // A pp-number, digit separators included: 1'000'000, 0x1p-3f.
                ++i;
                while (i < n) {
                    const char e = s[i];
                    // GCC takes '$' and UTF-8 letters into a number too (1'$ is not 1 then '$'): none here.
                    if (region && (e == '$' || static_cast<unsigned char>(e) >= 0x80 ||
                                   (e == '\'' && i + 1 < n && (s[i + 1] == '$' || static_cast<unsigned char>(s[i + 1]) >= 0x80))))
                        return fail("a number may hold only ASCII letters, digits, '.', digit separators and signs "
                                    "in a region");
                    if ((e == 'e' || e == 'E' || e == 'p' || e == 'P') && i + 1 < n && (s[i + 1] == '+' || s[i + 1] == '-')) i += 2;
                    else if (ident_char(e) || e == '.') ++i;
                    else if (e == '\'' && i + 1 < n && ident_char(s[i + 1])) i += 2;
                    else break;
                }
                continue;
            }
            if (ident_start(c)) {
                std::size_t e = i;
                while (e < n && ident_char(s[e])) ++e;
                const std::string id = s.substr(i, e - i);
                // Right after a literal, an identifier is its suffix (""_R, a user-defined literal), never the
                // prefix of the next one: the compiler reads ""_R"(" as ""_R then the ordinary string "(".
                const bool suffix = i == literal_end;
                i = e;
                if (!suffix && i < n && (s[i] == '"' || s[i] == '\'')) {
                    // Exactly the standard's prefixes, as the compiler knows them: an identifier that merely
                    // ends in R (_R, xR) does not start a raw string.
                    const bool raw = s[i] == '"' && (id == "R" || id == "u8R" || id == "uR" || id == "UR" || id == "LR");
                    if (id == "u8" || id == "u" || id == "U" || id == "L" || raw) {
                        if (!literal(i, s[i], raw)) return false;
                        literal_end = i;
                        continue;
                    }
                }
                // A literal's suffix is part of the literal's token: no macro expands there, so the reserved
                // names' rule has nothing to guard (operator""_KiB, 16_KiB). Except one that starts with two
                // underscores: GCC reads a suffix that names a macro as that macro (for "%"PRId64), unless it
                // starts with one underscore alone.
                if (suffix && (id.size() == 1 || id[1] != '_') && id[0] == '_') continue;
                if (!identifier(id)) return false;
                continue;
            }
            if (!punctuation(c, i)) return false;
            ++i;
        }
        if (region && !stack.empty())
            return fail(std::string("a '") + stack.back() + "' opened in the region is never closed in it");
        return true;
    }

    // `#pragma unroll` with an optional constant (letters, digits, spaces, operators, member access and
    // subscripts: `kShape.tm`, `sizeof...(Words)`, `kCounts[2]`; parentheses), and
    // a // comment after it, is the one directive a region may hold: the loop hint every tiled kernel
    // needs. On a match, skips it. No /* */ comment on its line: one left open would run on past the line
    // for the compiler (the directive with it), not for this lexer, hiding the code that follows.
    bool unroll_pragma(std::size_t& i) {
        std::size_t e = s.find('\n', i);
        if (e == std::string::npos) e = s.size();
        const std::string line_text = s.substr(i + 1, e - i - 1);
        if (!line_text.empty() && (line_text.back() == '\\' || (line_text.back() == '\r' && line_text.size() > 1 &&
                                                                 line_text[line_text.size() - 2] == '\\')))
            return false;
        const std::string text = line_text.substr(0, line_text.find("//"));
        if (text.find("/*") != std::string::npos || text.find("*/") != std::string::npos) return false;
        std::istringstream words(text);
        std::string pragma, unroll, rest, w;
        words >> pragma >> unroll;
        if (pragma != "pragma" || unroll != "unroll") return false;
        while (words >> w) rest += w;
        for (char ch : rest)
            if (!(ident_char(ch) || std::string("+-*/%()<>=!?:&|^~, .[]").find(ch) != std::string::npos)) return false;
        i = e;
        return true;
    }

    // A string or character literal starting at s[i] (the quote); raw strings R"delim( ... )delim".
    bool literal(std::size_t& i, char quote, bool raw) {
        const std::size_t n = s.size();
        // extern followed by any string literal, raw or prefixed, names a linkage: extern R"(C)" is extern "C".
        if (region && last_ident == "extern" && quote == '"') {
            if (scope == RegionScope::Namespace)
                return fail("extern \"C\" is not allowed in a region: everything a lab defines stays in its namespace");
            namespace_pending = true;
        }
        if (raw) {
            const std::size_t open = s.find('(', i + 1);
            if (open == std::string::npos || open - i - 1 > 16) return fail("a malformed raw string literal");
            const std::string close = ")" + s.substr(i + 1, open - i - 1) + "\"";
            const std::size_t e = s.find(close, open + 1);
            if (e == std::string::npos) return fail("a raw string literal is never closed");
            // One line, as every other literal: what follows a line break in a raw string is read as code by
            // a line-by-line reading (the audit's of the preprocessed source, say) though it is the literal's.
            if (s.find('\n', i) < e) return fail("a raw string literal that spans lines: close it on the line it opens");
            i = e + close.size();
            last_ident.clear();
            return true;
        }
        std::size_t k = i + 1;
        while (k < n && s[k] != quote) {
            if (s[k] == '\n') return fail("a string or character literal is never closed on its line");
            if (s[k] == '\\') ++k;
            ++k;
        }
        if (k >= n) return fail("a string or character literal is never closed");
        if (last_ident == "extern") namespace_pending = true;  // extern "C" { ... } opens no function
        i = k + 1;
        last_ident.clear();
        return true;
    }

    bool identifier(const std::string& id) {
        if (!region) {
            if (id == "namespace") namespace_pending = true;
            last_ident = id;
            return true;
        }
        if (id == "_Pragma") return fail("_Pragma is a preprocessor operator and is not allowed in a region");
        // asm can name any symbol and hold any instruction; attributes can make a function run before
        // main, alias another symbol or move code between sections. The labs need none of them (the
        // warp and block intrinsics cover what inline PTX would do).
        if (id == "asm" || id == "__asm__" || id == "__asm")
            return fail("asm is not allowed in a region (use the CUDA intrinsics instead of inline assembly)");
        // The GPU's global timer is the same on every SM: read in device code (cuda::std::chrono's clocks,
        // cuda::ptx's %globaltimer), it tells a launch that follows another back to back (a timed batch's)
        // from one that does not (a profiled or checked one). The grader times the lab; clock64() stays.
        if (id == "chrono" || id.find("globaltimer") != std::string::npos)
            return fail(id + " is not allowed in a region: it reads a timer, and the grader times the lab (clock() and "
                             "clock64() are fine)");
        // GCC's builtins that reach the stack of the function's callers or leave a function by another way
        // than its return: a lab's code has no use for its caller's frame (the launch host's), and a jump
        // or a trap past the grader's code is not an answer.
        static const std::set<std::string> kStackBuiltins = {
            "__builtin_frame_address", "__builtin_return_address", "__builtin_extract_return_addr",
            "__builtin_frob_return_addr", "__builtin_dwarf_cfa", "__builtin_stack_address", "__builtin_setjmp",
            "__builtin_longjmp", "__builtin_apply", "__builtin_apply_args", "__builtin_return",
            "__builtin_eh_return", "__builtin_eh_return_data_regno", "__builtin_unwind_init", "__builtin_trap"};
        if (kStackBuiltins.count(id))
            return fail(id + " is not allowed in a region: it reaches the stack of the function's callers or leaves "
                             "a function by another way than its return (__builtin_expect, __builtin_popcount and the "
                             "other builtins that compute are fine)");
        if (id == "__attribute__" || id == "__attribute" || id == "__declspec")
            return fail(id + " is not allowed in a region (__launch_bounds__, __restrict__ and __align__ are fine)");
        if (!allowed_reserved(id))
            return fail("the name " + id + " is reserved for the compiler and its libraries (a leading underscore "
                        "and a capital letter, or two underscores), and a region may not use it: many such names "
                        "are macros whose expansion the grader's rules cannot see (CUDA's __global__, __device__, "
                        "__shared__, __restrict__, __launch_bounds__ and its __functions such as __syncthreads are "
                        "fine)");
        if (id == "namespace") namespace_pending = true;
        last_ident = id;
        return true;
    }

    // Only the harmless attributes may stand in a region, as the preprocessed-source scan reads them
    // (harmless_attribute: the standard's, and GCC's that inline, warn, align or describe), each plain or
    // in GCC's namespace (gnu::always_inline), with arguments or without ([[nodiscard("why")]]); never
    // `using` a namespace. The arguments are read as code after this, like the rest of the region.
    bool attribute_list(std::size_t i) {
        // Its end: the first "]]" outside a string or character literal (`[[deprecated("a ]] b")]]`). Only
        // plain literals: a prefixed or raw one (R"x(...)x", u8"...") has no place in an attribute, and a
        // reading of it here would have to match the compiler's exactly.
        std::size_t close = i + 2;
        for (; close < s.size() && s.compare(close, 2, "]]") != 0; ++close)
            if ((s[close] == '"' || s[close] == '\'') && ident_char(s[close - 1])) {
                return fail("a prefixed or raw string literal in an attribute [[ ]]: write a plain \"...\" there");
            } else if (s[close] == '"' || s[close] == '\'') {
                const char quote = s[close];
                for (++close; close < s.size() && s[close] != quote && s[close] != '\n'; ++close)
                    if (s[close] == '\\') ++close;
            }
        if (close >= s.size()) return fail("an attribute [[ is never closed");
        const std::string inside = s.substr(i + 2, close - i - 2);
        const auto refuse = [&](const std::string& what) {
            return fail("the attribute [[" + what + "]] is not allowed in a region (the standard's, such as "
                        "[[likely]], [[nodiscard]] and [[noreturn]], and GCC's that inline, warn, align or describe, "
                        "such as [[gnu::always_inline]], are)");
        };
        std::size_t k = 0;
        const auto blank = [&] {
            while (k < inside.size() && std::isspace(static_cast<unsigned char>(inside[k]))) ++k;
        };
        for (;;) {
            blank();
            if (k >= inside.size()) return true;
            if (inside[k] == ',') {  // an empty item
                ++k;
                continue;
            }
            std::size_t e = k;
            while (e < inside.size() && ident_char(inside[e])) ++e;
            if (e == k) return refuse(inside.substr(k));
            std::string name = inside.substr(k, e - k);
            k = e;
            blank();
            if (inside.compare(k, 2, "::") == 0) {
                if (name != "gnu" && name != "__gnu__") return refuse(name + "::");
                k += 2;
                blank();
                e = k;
                while (e < inside.size() && ident_char(inside[e])) ++e;
                if (e == k) return refuse(name + "::");
                name = inside.substr(k, e - k);
                k = e;
                blank();
            }
            std::string bare = name;
            if (bare.size() > 4 && bare.compare(0, 2, "__") == 0 && bare.compare(bare.size() - 2, 2, "__") == 0)
                bare = bare.substr(2, bare.size() - 4);
            if (!harmless_attribute(bare)) return refuse(name);
            if (k < inside.size() && inside[k] == '(') {  // its arguments, to the parenthesis that closes them
                int depth = 0;
                for (; k < inside.size(); ++k) {
                    const char c = inside[k];
                    if (c == '"' || c == '\'') {
                        for (++k; k < inside.size() && inside[k] != c; ++k)
                            if (inside[k] == '\\') ++k;
                        continue;
                    }
                    if (c == '(') ++depth;
                    if (c == ')' && --depth == 0) break;
                }
                if (k >= inside.size()) return refuse(name + "(");
                ++k;
                blank();
            }
            if (k >= inside.size()) return true;
            if (inside[k] != ',') return refuse(inside.substr(k));
            ++k;
        }
    }

    bool punctuation(char c, std::size_t i) {
        last_ident.clear();
        if (region && c == '[') {
            // The next token, past spaces and comments (`[/**/[gnu::constructor]/**/]` is an attribute too).
            std::size_t k = i + 1;
            for (;;) {
                while (k < s.size() && std::isspace(static_cast<unsigned char>(s[k]))) ++k;
                if (s.compare(k, 2, "/*") == 0) {
                    const std::size_t e = s.find("*/", k + 2);
                    if (e == std::string::npos) break;
                    k = e + 2;
                } else if (s.compare(k, 2, "//") == 0) {
                    while (k < s.size() && s[k] != '\n') ++k;
                } else {
                    break;
                }
            }
            if (k < s.size() && s[k] == '[') {
                if (k != i + 1) return fail("an attribute's brackets [[ ]] must stand together in a region");
                if (!attribute_list(i)) return false;
            }
        }
        switch (c) {
        case '(':
        case '[':
        case '{':
            stack.push_back(c);
            if (c == '{') {
                brace_is_namespace.push_back(namespace_pending);
                namespace_pending = false;
            }
            return true;
        case ')':
        case ']':
        case '}': {
            const char open = c == ')' ? '(' : c == ']' ? '[' : '{';
            if (stack.empty()) {
                if (region) return fail(std::string("this '") + c + "' closes one opened outside the region: a region "
                                        "cannot close its function or namespace");
                return true;  // a skeleton fragment: nothing to match
            }
            if (stack.back() != open) return fail(std::string("this '") + c + "' does not match the '" + stack.back() + "' before it");
            stack.pop_back();
            if (c == '}') {
                brace_is_namespace.pop_back();
                namespace_pending = false;
            }
            return true;
        }
        case ';':
            namespace_pending = false;
            return true;
        default:
            return true;
        }
    }

    // After scanning a skeleton prefix: is the end inside a function body?
    RegionScope scope_here() const {
        for (bool ns : brace_is_namespace)
            if (!ns) return RegionScope::Function;
        return RegionScope::Namespace;
    }
};

std::string escape_path(const std::string& p) {
    std::string out;
    for (char c : p) {
        if (c == '"' || c == '\\') out += '\\';
        if (c == '\n') continue;
        out += c;
    }
    return out;
}

}  // namespace

Skeleton skeleton_of(const std::string& text) {
    Skeleton sk;
    std::istringstream in(text);
    std::string line;
    int number = 0;
    bool inside = false;
    std::string body;
    while (std::getline(in, line)) {
        ++number;
        const std::string t = strip(line);
        if (t.rfind(kBegin, 0) == 0) {
            if (inside) {
                sk.error = "line " + std::to_string(number) + ": a region begins inside another";
                return sk;
            }
            inside = true;
            const std::string name = strip(t.substr(kBegin.size()));
            sk.regions.push_back(name);
            sk.lines.push_back("<region " + name + ">");
            sk.line_numbers.push_back(number);
            sk.body_first_line.push_back(number + 1);
            body.clear();
        } else if (t.rfind(kEnd, 0) == 0) {
            if (!inside) {
                sk.error = "line " + std::to_string(number) + ": END STUDENT REGION without a BEGIN";
                return sk;
            }
            inside = false;
            if (!body.empty()) body.pop_back();  // the last '\n'
            if (!body.empty() && body.back() == '\r') body.pop_back();  // and its CR, in a file with CRLF line ends
            sk.bodies.push_back(body);
        } else if (!inside) {
            sk.lines.push_back(rstrip(line));
            sk.line_numbers.push_back(number);
        } else {
            body += line + "\n";
        }
    }
    if (inside) sk.error = "the last student region (" + sk.regions.back() + ") is never closed";
    return sk;
}

namespace {
// The first place two skeletons differ outside their regions: an index into both's lines, or the end of
// the shorter (index == its size) when one has extra lines. nullopt when they agree.
std::optional<std::size_t> first_difference(const Skeleton& a, const Skeleton& b) {
    const std::size_t n = std::min(a.lines.size(), b.lines.size());
    for (std::size_t i = 0; i < n; ++i)
        if (a.lines[i] != b.lines[i]) return i;
    if (a.lines.size() != b.lines.size()) return n;
    return std::nullopt;
}
}  // namespace

std::string compare_skeletons(const std::string& starter, const std::string& solution, const std::string& starter_name,
                              const std::string& solution_name) {
    const Skeleton a = skeleton_of(starter), b = skeleton_of(solution);
    if (!a.error.empty()) return starter_name + ": " + a.error;
    if (!b.error.empty()) return solution_name + ": " + b.error;
    if (a.regions != b.regions) {
        auto join = [](const std::vector<std::string>& v) {
            std::string s;
            for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
            return "[" + s + "]";
        };
        return "student regions differ: " + starter_name + " has " + join(a.regions) + ", " + solution_name + " has " +
               join(b.regions);
    }
    const auto i = first_difference(a, b);
    if (!i) return "";
    if (*i < a.lines.size() && *i < b.lines.size())
        return "outside the student regions, " + starter_name + ":" + std::to_string(a.line_numbers[*i]) + " reads\n  " +
               a.lines[*i] + "\nbut " + solution_name + ":" + std::to_string(b.line_numbers[*i]) + " reads\n  " + b.lines[*i];
    return (a.lines.size() > b.lines.size() ? starter_name : solution_name) + " has extra lines after the last common one";
}

std::string check_region_body(const std::string& body, RegionScope scope, int first_line) {
    Lexer lex(body, /*is_region=*/true);
    lex.scope = scope;
    lex.run();
    if (lex.error.empty()) return "";
    return first_line > 0 ? "line " + std::to_string(first_line + lex.error_line - 1) + ": " + lex.error
                          : "line " + std::to_string(lex.error_line) + " of the region: " + lex.error;
}

Assembly assemble(const SourceText& skeleton, const SourceText& submission, const SourceText* fill) {
    Assembly out;
    const Skeleton sk = skeleton_of(skeleton.text);
    if (!sk.error.empty()) throw std::runtime_error(skeleton.name + ": " + sk.error);
    const Skeleton sub = skeleton_of(submission.text);
    if (!sub.error.empty()) {
        out.refusal = submission.name + ": " + sub.error + " (each region must keep its BEGIN and END marker lines)";
        return out;
    }
    Skeleton filler;
    if (fill) {
        filler = skeleton_of(fill->text);
        if (!filler.error.empty()) throw std::runtime_error(fill->name + ": " + filler.error);
    }
    for (std::size_t i = 0; i < sub.regions.size(); ++i) {
        bool known = false;
        for (std::size_t j = 0; j < sub.regions.size(); ++j)
            if (j != i && sub.regions[j] == sub.regions[i]) {
                out.refusal = submission.name + ": the student region '" + sub.regions[i] + "' appears twice";
                return out;
            }
        for (const auto& r : sk.regions) known |= r == sub.regions[i];
        if (!known) out.notes.push_back("ignored: '" + sub.regions[i] + "' is not a student region of this lab");
    }

    // What the submission changed outside its regions has no effect; say so, once, with the first line of
    // the student's file that differs from the course's.
    const std::string no_effect = "only the student regions are graded, so edits outside them have no effect";
    if (sub.regions == sk.regions) {
        if (const auto i = first_difference(sub, sk)) {
            if (*i < sub.lines.size() && *i < sk.lines.size())
                out.notes.push_back("line " + std::to_string(sub.line_numbers[*i]) + " of your " + submission.name +
                                    " differs from the course's file (" + no_effect + "; the course's line " +
                                    std::to_string(sk.line_numbers[*i]) + " is used). Yours reads\n  " + sub.lines[*i] +
                                    "\nthe course's reads\n  " + sk.lines[*i]);
            else if (*i < sub.lines.size())
                out.notes.push_back("your " + submission.name + " has lines the course's file does not, from line " +
                                    std::to_string(sub.line_numbers[*i]) + " (" + no_effect + ")");
            else
                out.notes.push_back("your " + submission.name + " ends before the course's file does, at line " +
                                    std::to_string(sub.line_numbers.empty() ? 0 : sub.line_numbers.back()) + " (" +
                                    no_effect + ")");
        }
    } else if (!fill) {
        out.notes.push_back("your " + submission.name + " has other student regions than the course's file (" + no_effect +
                            ")");
    }

    // Each region's scope, from the skeleton's nesting where its BEGIN marker stands.
    const std::vector<std::string> lines = split_lines(skeleton.text);
    std::ostringstream src;
    src << "#line 1 \"" << escape_path(skeleton.name) << "\"\n";
    std::size_t region = 0;
    std::string prefix;  // the skeleton's text before the current line (outside regions)
    for (std::size_t li = 0; li < lines.size(); ++li) {
        const std::string t = strip(lines[li]);
        if (t.rfind(kBegin, 0) != 0) {
            if (t.rfind(kEnd, 0) == 0) continue;  // written with its region below
            src << lines[li] << "\n";
            prefix += lines[li] + "\n";
            continue;
        }
        const std::string& name = sk.regions[region];
        Lexer scan(prefix, /*is_region=*/false);
        scan.run();
        const RegionScope scope = scan.scope_here();

        const SourceText* from = &submission;
        const Skeleton* parts = &sub;
        std::size_t k = 0;
        while (k < sub.regions.size() && sub.regions[k] != name) ++k;
        if (k == sub.regions.size()) {
            if (!fill) {
                out.refusal = submission.name + ": the student region '" + name +
                              "' is missing (keep its '// BEGIN STUDENT REGION " + name + "' and '" + kEnd + "' lines)";
                return out;
            }
            from = fill;
            parts = &filler;
            for (k = 0; k < filler.regions.size() && filler.regions[k] != name; ++k) {}
            if (k == filler.regions.size()) throw std::runtime_error(fill->name + ": no region " + name);
        }
        const std::string& body = parts->bodies[k];
        const std::string problem = check_region_body(body, scope, parts->body_first_line[k]);
        if (!problem.empty()) {
            out.refusal = from->name + ", student region '" + name + "', " + problem;
            return out;
        }
        // The region's END marker in the skeleton.
        std::size_t end = li + 1;
        while (end < lines.size() && strip(lines[end]).rfind(kEnd, 0) != 0) ++end;
        src << lines[li] << "\n";
        src << "#line " << parts->body_first_line[k] << " \"" << escape_path(from->name) << "\"\n";
        if (!body.empty()) src << body << "\n";
        src << "#line " << end + 1 << " \"" << escape_path(skeleton.name) << "\"\n";
        src << lines[end] << "\n";
        // The region stands for code at its scope; for the scope of later regions, an empty body will do.
        prefix += lines[li] + "\n" + lines[end] + "\n";
        li = end;
        ++region;
    }
    out.source = src.str();
    return out;
}

}  // namespace grading
