/// @file compare.hpp
/// @brief Comparing a result with its reference: tolerance atol + rtol·|ref|, first mismatches
/// reported with their indices, NaN never passes.
#pragma once

#include <cmath>
#include <cstring>
#include <cstddef>
#include <sstream>
#include <string>
#include <vector>

namespace course {

/// @brief An element is close when |got - ref| <= atol + rtol * |ref|.
struct Tolerance {
    double atol = 0.0;  ///< absolute part
    double rtol = 0.0;  ///< relative part, scaled by |ref|
    /// @brief Exact equality (both parts zero).
    static Tolerance exact() { return {0.0, 0.0}; }
};

/// @brief One element that did not match.
struct Mismatch {
    std::size_t index;  ///< flat index into the output
    double got;         ///< the value computed
    double expected;    ///< the reference value
};

/// @brief The outcome of a comparison.
struct Comparison {
    std::size_t checked = 0;           ///< elements compared
    std::size_t mismatches = 0;        ///< elements outside the tolerance (NaN counts)
    std::size_t unwritten = 0;         ///< mismatches that still hold the poison pattern (never written)
    std::vector<Mismatch> first;       ///< the first few mismatches, in index order
    double max_abs_error = 0.0;        ///< largest |got - ref| among finite pairs
    std::size_t row_width = 0;         ///< when non-zero, indices print as [row][col]

    /// @brief True when nothing mismatched.
    bool ok() const { return mismatches == 0; }

    /// @brief Formats an index as "[i]" or "[row][col]".
    std::string index_string(std::size_t i) const {
        if (row_width == 0) return "[" + std::to_string(i) + "]";
        return "[" + std::to_string(i / row_width) + "][" + std::to_string(i % row_width) + "]";
    }

    /// @brief "3 of 1000 elements differ; first: out[5] = 1 (expected 2), ..." or "all 1000 elements match".
    std::string summary(const std::string& name = "out") const {
        std::ostringstream s;
        s.precision(9);
        if (ok()) {
            s << "all " << checked << " elements match";
            return s.str();
        }
        s << mismatches << " of " << checked << " elements differ";
        if (unwritten > 0) s << " (" << unwritten << " never written)";
        s << "; first:";
        for (const auto& m : first) s << " " << name << index_string(m.index) << " = " << m.got << " (expected " << m.expected << ")";
        return s.str();
    }
};

/// @brief True when @p f holds the poison pattern (all bytes 0xFF), i.e. was never written.
inline bool is_poison(float f) {
    unsigned u;
    static_assert(sizeof u == sizeof f);
    std::memcpy(&u, &f, sizeof u);
    return u == 0xFFFFFFFFu;
}

/// @brief Compares @p got with @p expected element by element within @p tol.
/// NaN in @p got never passes, even against a NaN reference; use @p nan_matches_nan = true only
/// where the lab's stated policy says a NaN result is required.
template <class Got, class Ref>
Comparison compare(const Got* got, const Ref* expected, std::size_t n, Tolerance tol, std::size_t max_report = 5,
                   bool nan_matches_nan = false) {
    Comparison c;
    c.checked = n;
    for (std::size_t i = 0; i < n; ++i) {
        const double g = static_cast<double>(got[i]);
        const double e = static_cast<double>(expected[i]);
        bool close;
        if (std::isnan(g) || std::isnan(e)) {
            close = nan_matches_nan && std::isnan(g) && std::isnan(e);
        } else if (std::isinf(g) || std::isinf(e)) {
            close = g == e;
        } else {
            const double err = std::fabs(g - e);
            c.max_abs_error = std::max(c.max_abs_error, err);
            close = err <= tol.atol + tol.rtol * std::fabs(e);
        }
        if (!close) {
            ++c.mismatches;
            if constexpr (sizeof(Got) == sizeof(float)) {
                if (is_poison(static_cast<float>(got[i]))) ++c.unwritten;
            }
            if (c.first.size() < max_report) c.first.push_back({i, g, e});
        }
    }
    return c;
}

/// @brief compare() for whole vectors (sizes must agree; a size mismatch counts every element).
template <class Got, class Ref>
Comparison compare(const std::vector<Got>& got, const std::vector<Ref>& expected, Tolerance tol, std::size_t max_report = 5) {
    if (got.size() != expected.size()) {
        Comparison c;
        c.checked = c.mismatches = std::max(got.size(), expected.size());
        return c;
    }
    return compare(got.data(), expected.data(), got.size(), tol, max_report);
}

}  // namespace course
