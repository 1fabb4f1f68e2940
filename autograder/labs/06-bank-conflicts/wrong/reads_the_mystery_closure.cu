// Known-wrong Lab 06 (a cheat): the detector times nothing; it reads the mystery's stride out of the
// run_mystery closure it is given (a small lambda is stored inside the std::function itself, and the
// grader's first capture was once the stride). The detector runs in the student's own process, whose
// closures only call the check program back: the mystery's kernel, and its stride, stay in the check
// program, so what is read back is not the stride. (Built without isolation, the grader's closures hold
// the stride only masked with an odd secret, which never has the right conflict degree.)
// Expected: wrong_result.

// BEGIN STUDENT REGION detect
    (void)run_known;
    const int stride = *reinterpret_cast<const int*>(&run_mystery);  // BUG (cheat): peeks at the closure
    return conflict_ways(stride < 1 ? 1 : stride, word_bytes);
// END STUDENT REGION
