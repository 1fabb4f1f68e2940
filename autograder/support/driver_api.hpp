/// @file driver_api.hpp
/// @brief The few CUDA driver functions the shared buffers need (isolation.hpp, launch_host.hpp), taken
/// from the driver at run time through the runtime (cudaGetDriverEntryPointByVersion), so that no program
/// links libcuda: a check program still starts, and reports that there is no GPU, where no driver is.
#pragma once

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>
#include <type_traits>

namespace grading {

/// @brief The driver's virtual-memory functions (names as in cuda.h).
struct DriverApi {
    decltype(&::cuGetErrorName) GetErrorName = nullptr;                                  ///< cuGetErrorName
    decltype(&::cuMemGetAllocationGranularity) MemGetAllocationGranularity = nullptr;    ///< cuMemGetAllocationGranularity
    decltype(&::cuMemCreate) MemCreate = nullptr;                                        ///< cuMemCreate
    decltype(&::cuMemRelease) MemRelease = nullptr;                                      ///< cuMemRelease
    decltype(&::cuMemAddressReserve) MemAddressReserve = nullptr;                        ///< cuMemAddressReserve
    decltype(&::cuMemAddressFree) MemAddressFree = nullptr;                              ///< cuMemAddressFree
    decltype(&::cuMemMap) MemMap = nullptr;                                              ///< cuMemMap
    decltype(&::cuMemUnmap) MemUnmap = nullptr;                                          ///< cuMemUnmap
    decltype(&::cuMemSetAccess) MemSetAccess = nullptr;                                  ///< cuMemSetAccess
    decltype(&::cuMemExportToShareableHandle) MemExportToShareableHandle = nullptr;      ///< cuMemExportToShareableHandle
    decltype(&::cuMemImportFromShareableHandle) MemImportFromShareableHandle = nullptr;  ///< cuMemImportFromShareableHandle

    /// @brief cuGetErrorName of @p r, or its number.
    std::string error_name(CUresult r) const {
        const char* name = nullptr;
        if (GetErrorName) GetErrorName(r, &name);
        return name ? name : "CUresult " + std::to_string(static_cast<int>(r));
    }
};

/// @brief The driver's functions, loaded on first use (throws where the driver lacks one).
inline const DriverApi& driver() {
    static const DriverApi api = [] {
        DriverApi a;
        auto load = [](const char* name, auto& fn) {
            void* p = nullptr;
            cudaDriverEntryPointQueryResult found{};
            if (cudaGetDriverEntryPointByVersion(name, &p, 12000, cudaEnableDefault, &found) != cudaSuccess ||
                found != cudaDriverEntryPointSuccess || !p)
                throw std::runtime_error(std::string("the CUDA driver has no ") + name);
            fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(p);
        };
        load("cuGetErrorName", a.GetErrorName);
        load("cuMemGetAllocationGranularity", a.MemGetAllocationGranularity);
        load("cuMemCreate", a.MemCreate);
        load("cuMemRelease", a.MemRelease);
        load("cuMemAddressReserve", a.MemAddressReserve);
        load("cuMemAddressFree", a.MemAddressFree);
        load("cuMemMap", a.MemMap);
        load("cuMemUnmap", a.MemUnmap);
        load("cuMemSetAccess", a.MemSetAccess);
        load("cuMemExportToShareableHandle", a.MemExportToShareableHandle);
        load("cuMemImportFromShareableHandle", a.MemImportFromShareableHandle);
        return a;
    }();
    return api;
}

}  // namespace grading
