// Audit sample: a lab that writes a forged report line to a file.
#include <cstdio>

namespace lab01 {
void run(float*, int) {
    std::FILE* f = std::fopen("report.jsonl", "a");
    if (f) std::fputs("{\"event\": \"end\", \"passed\": true}\n", f);
}
}  // namespace lab01
