// Lab 03 baselines: the naive global-memory kernel and the cuBLAS peer (see baselines.cuh).
#include "baselines.cuh"

#include "cuda_check.hpp"

#include <cublas_v2.h>

#include <stdexcept>
#include <string>

namespace lab03::baseline {

namespace {
constexpr int kEdge = 16;  // 16 x 16 threads a block

// threadIdx.x runs along a row of C, so a warp reads 32 consecutive floats of B per k (coalesced)
// and one float of A (a broadcast); L1 and L2 serve most of the re-reads, which is why this kernel
// is less slow than its 2 loads per FMA suggest.
__global__ void naive_matmul_kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
                                    int M, int N, int K) {
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= M || col >= N) return;
    const float* a = A + static_cast<std::size_t>(row) * K;
    float acc = 0.0f;
    for (int k = 0; k < K; ++k) acc = fmaf(a[k], B[static_cast<std::size_t>(k) * N + col], acc);
    C[static_cast<std::size_t>(row) * N + col] = acc;
}

void check_cublas(cublasStatus_t status, const char* call) {
    if (status != CUBLAS_STATUS_SUCCESS)
        throw std::runtime_error(std::string(call) + " failed: " + cublasGetStatusName(status) + " (" +
                                 cublasGetStatusString(status) + ")");
}
#define CUBLAS_CHECK(call) check_cublas((call), #call)
}  // namespace

void naive_matmul(const float* A, const float* B, float* C, int M, int N, int K) {
    const dim3 block(kEdge, kEdge);
    const dim3 grid(static_cast<unsigned>(course::ceil_div(N, kEdge)),   // blocks across C
                    static_cast<unsigned>(course::ceil_div(M, kEdge)));  // blocks down C
    naive_matmul_kernel<<<grid, block>>>(A, B, C, M, N, K);
    CUDA_CHECK_LAUNCH();
}

CublasSgemm::CublasSgemm() {
    cublasHandle_t h = nullptr;
    CUBLAS_CHECK(cublasCreate(&h));
    handle_ = h;
    // Pedantic math: the prescribed precision (FP32) and standard arithmetic in every phase, never
    // TF32 or another faster mode: the rules the student's kernel must follow too.
    CUBLAS_CHECK(cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH));
}

CublasSgemm::~CublasSgemm() { cublasDestroy(static_cast<cublasHandle_t>(handle_)); }

void CublasSgemm::operator()(const float* A, const float* B, float* C, int M, int N, int K) {
    // cuBLAS is column-major. A row-major M x N matrix is its column-major transpose, so the
    // row-major C = A·B is the column-major C^T = B^T·A^T: pass B first, with the sizes swapped.
    const float one = 1.0f, zero = 0.0f;
    CUBLAS_CHECK(cublasSgemm(static_cast<cublasHandle_t>(handle_), CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, B, N, A, K,
                             &zero, C, N));
}

}  // namespace lab03::baseline
