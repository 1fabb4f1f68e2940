// The allocator behind DeviceBuffer (see device_memory.hpp).
#include "device_memory.hpp"

#include "cuda_check.hpp"

#include <cuda_runtime_api.h>

namespace course {

namespace {
void* cuda_malloc(std::size_t bytes) {
    void* p = nullptr;
    CUDA_CHECK(cudaMalloc(&p, bytes));
    return p;
}
void cuda_free(void* p) { cudaFree(p); }  // errors surface at the next checked call
DeviceAllocator g_allocator{cuda_malloc, cuda_free};
}  // namespace

void* device_allocate(std::size_t bytes) { return g_allocator.allocate(bytes); }
void device_release(void* ptr) noexcept {
    if (ptr) g_allocator.release(ptr);
}
void set_device_allocator(const DeviceAllocator& a) {
    if (a.allocate && a.release) g_allocator = a;
}

}  // namespace course
