// region_sync — proves a starter and its solution are the same file outside the student regions.
//   region_sync STARTER SOLUTION    exit 0 when they agree, 1 (with the first difference) when not
#include "process.hpp"
#include "regions.hpp"

#include <fstream>
#include <iostream>
#include <sstream>

int main(int argc, char** argv) {
    if (argc != 3) {
        std::cerr << "usage: region_sync STARTER SOLUTION\n";
        return 2;
    }
    const auto a = grading::read_text_file(argv[1]), b = grading::read_text_file(argv[2]);
    if (!a || !b) {
        std::cerr << "region_sync: cannot read " << (!a ? argv[1] : argv[2]) << "\n";
        return 2;
    }
    const std::string diff = grading::compare_skeletons(*a, *b, argv[1], argv[2]);
    if (!diff.empty()) {
        std::cout << diff << "\n";
        return 1;
    }
    std::cout << argv[1] << " and " << argv[2] << " agree outside their "
              << grading::skeleton_of(*a).regions.size() << " student region(s)\n";
    return 0;
}
