// Audit sample: a lab that catches a standard exception by type (allowed) beside a type of a library
// the labs may not use (Thrust's system_error), whose typeinfo it must define or import: refused.
#include <thrust/system_error.h>

#include <stdexcept>

namespace lab01 {
int run(int n) {
    try {
        if (n < 1) throw std::invalid_argument("n must be at least 1");
    } catch (const std::invalid_argument&) {
        return -1;
    } catch (const thrust::system_error&) {
        return -2;
    }
    return n;
}
}  // namespace lab01
