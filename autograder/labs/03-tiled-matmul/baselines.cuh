/// @file baselines.cuh
/// @brief What Lab 03 is measured and checked against, in the same run: a naive kernel and cuBLAS.
#pragma once

/// @brief Lab 03 baselines.
namespace lab03::baseline {

/// @brief The textbook first step: one thread per element of C, every operand read from global
/// memory (no shared memory). Correct, and the floor the graded kernel must clearly beat.
/// Same interface as lab03::tiled_matmul (row-major, device pointers, default stream).
void naive_matmul(const float* A, const float* B, float* C, int M, int N, int K);

/// @brief `cublasSgemm` in pedantic FP32 (`CUBLAS_PEDANTIC_MATH`: no TF32, no reduced precision),
/// the library peer of the speed checks and the reference for the large sizes.
class CublasSgemm {
public:
    /// @brief Creates the cuBLAS handle (on the default stream) and sets the pedantic math mode.
    CublasSgemm();
    ~CublasSgemm();
    CublasSgemm(const CublasSgemm&) = delete;
    CublasSgemm& operator=(const CublasSgemm&) = delete;
    /// @brief Row-major `C = A·B` (A is M x K, B is K x N) on the default stream.
    void operator()(const float* A, const float* B, float* C, int M, int N, int K);

private:
    void* handle_ = nullptr;  // cublasHandle_t, kept opaque so that this header needs no cuBLAS
};

}  // namespace lab03::baseline
