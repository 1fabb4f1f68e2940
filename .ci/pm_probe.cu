// Probe of the GPU's PM sampling (CUPTI), as autograder/support/timed_counters.cpp uses it: whether one process
// samples the shared-memory traffic of kernels in another (conflicted, conflict-free, a spin, memsets, its own),
// and, with --greedy, which metrics fit one pass. Run by .ci/gpu-pm-probe.sh on a GPU machine.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti_pmsampling.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_target.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#define CK(x)                                                                                   \
    do {                                                                                        \
        CUptiResult r_ = (x);                                                                   \
        if (r_ != CUPTI_SUCCESS) {                                                              \
            const char* s_ = nullptr;                                                           \
            cuptiGetResultString(r_, &s_);                                                      \
            std::fprintf(stderr, "%s:%d %s -> %d %s\n", __FILE__, __LINE__, #x, r_, s_ ? s_ : ""); \
            return 1;                                                                           \
        }                                                                                       \
    } while (0)

__global__ void loads(int stride, int iters, float* sink) {
    __shared__ float w[32 * 33];
    for (int i = threadIdx.x; i < 32 * 33; i += blockDim.x) w[i] = i;
    __syncthreads();
    const volatile float* m = w + (threadIdx.x % 32) * stride % (32 * 32);
    float a = 0;
    for (int i = 0; i < iters; ++i) a += m[(i & 7) * 0];
    if (a < 0) *sink = a;
}
__global__ void spin(int iters, float* sink) {
    float x = threadIdx.x;
    for (int i = 0; i < iters; ++i) x = fmaf(x, 0.999f, 0.5f);
    if (x < 0) *sink = x;
}

int work(const char* mode) {
    float* sink;
    cudaMalloc(&sink, 4);
    cudaDeviceSynchronize();
    auto t0 = std::chrono::steady_clock::now();
    int n = 0;
    while (std::chrono::steady_clock::now() - t0 < std::chrono::milliseconds(300)) {
        if (!std::strcmp(mode, "conflict")) loads<<<132 * 8, 256>>>(32, 4096, sink);
        else if (!std::strcmp(mode, "free")) loads<<<132 * 8, 256>>>(1, 4096, sink);
        else if (!std::strcmp(mode, "spin")) spin<<<132 * 8, 256>>>(4096, sink);
        else if (!std::strcmp(mode, "memset")) {
            static void* big = nullptr;
            if (!big) cudaMalloc(&big, 256 << 20);
            cudaMemset(big, 1, 256 << 20);
        } else break;
        cudaDeviceSynchronize();
        ++n;
    }
    std::printf("child %s: %d launches, %s\n", mode, n, cudaGetErrorString(cudaGetLastError()));
    return 0;
}

int main(int argc, char** argv) {
    if (argc > 2 && !std::strcmp(argv[1], "--work")) return work(argv[2]);
    cudaFree(nullptr);
    CUpti_Profiler_Initialize_Params ip{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    CK(cuptiProfilerInitialize(&ip));
    CUpti_Device_GetChipName_Params cn{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
    cn.deviceIndex = 0;
    CK(cuptiDeviceGetChipName(&cn));
    std::printf("chip %s\n", cn.pChipName);
    CUpti_PmSampling_GetCounterAvailability_Params ca{CUpti_PmSampling_GetCounterAvailability_Params_STRUCT_SIZE};
    ca.deviceIndex = 0;
    CK(cuptiPmSamplingGetCounterAvailability(&ca));
    std::vector<uint8_t> avail(ca.counterAvailabilityImageSize);
    ca.pCounterAvailabilityImage = avail.data();
    CK(cuptiPmSamplingGetCounterAvailability(&ca));
    CUpti_Profiler_Host_Initialize_Params hi{CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
    hi.profilerType = CUPTI_PROFILER_TYPE_PM_SAMPLING;
    hi.pChipName = cn.pChipName;
    hi.pCounterAvailabilityImage = avail.data();
    CK(cuptiProfilerHostInitialize(&hi));
    auto* host = hi.pHostObject;
    for (auto type : {CUPTI_METRIC_TYPE_COUNTER, CUPTI_METRIC_TYPE_THROUGHPUT}) {
        CUpti_Profiler_Host_GetBaseMetrics_Params bm{CUpti_Profiler_Host_GetBaseMetrics_Params_STRUCT_SIZE};
        bm.pHostObject = host;
        bm.metricType = type;
        CK(cuptiProfilerHostGetBaseMetrics(&bm));
        std::printf("base metrics (type %d): %zu\n", int(type), bm.numMetrics);
        for (size_t i = 0; i < bm.numMetrics; ++i) {
            std::string m = bm.ppMetricNames[i];
            if (m.find("shared") != std::string::npos || m.find("tensor") != std::string::npos ||
                m.find("lsu") != std::string::npos || m.find("cycles_active") != std::string::npos ||
                m.find("inst_executed") != std::string::npos || m.find("dram__") != std::string::npos)
                std::printf("  %s\n", m.c_str());
        }
    }
    if (argc > 1 && !std::strcmp(argv[1], "--greedy")) {
        std::vector<const char*> kept;
        for (int i = 2; i < argc; ++i) {
            std::vector<const char*> trial = kept;
            trial.push_back(argv[i]);
            CUpti_Profiler_Host_Initialize_Params h2{CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
            h2.profilerType = CUPTI_PROFILER_TYPE_PM_SAMPLING;
            h2.pChipName = cn.pChipName;
            h2.pCounterAvailabilityImage = avail.data();
            if (cuptiProfilerHostInitialize(&h2) != CUPTI_SUCCESS) { std::printf("host init failed\n"); return 1; }
            CUpti_Profiler_Host_ConfigAddMetrics_Params a2{CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
            a2.pHostObject = h2.pHostObject;
            a2.ppMetricNames = trial.data();
            a2.numMetrics = trial.size();
            size_t passes = 99;
            if (cuptiProfilerHostConfigAddMetrics(&a2) == CUPTI_SUCCESS) {
                CUpti_Profiler_Host_GetConfigImageSize_Params s2{CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
                s2.pHostObject = h2.pHostObject;
                cuptiProfilerHostGetConfigImageSize(&s2);
                std::vector<uint8_t> img(s2.configImageSize);
                CUpti_Profiler_Host_GetConfigImage_Params g2{CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
                g2.pHostObject = h2.pHostObject;
                g2.configImageSize = img.size();
                g2.pConfigImage = img.data();
                cuptiProfilerHostGetConfigImage(&g2);
                CUpti_Profiler_Host_GetNumOfPasses_Params p2{CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE};
                p2.configImageSize = img.size();
                p2.pConfigImage = img.data();
                cuptiProfilerHostGetNumOfPasses(&p2);
                passes = p2.numOfPasses;
            }
            std::printf("GREEDY %s -> passes %zu%s\n", argv[i], passes, passes == 1 ? " kept" : "");
            if (passes == 1) kept = trial;
            CUpti_Profiler_Host_Deinitialize_Params d2{CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
            d2.pHostObject = h2.pHostObject;
            cuptiProfilerHostDeinitialize(&d2);
        }
        return 0;
    }
    std::vector<const char*> metrics;
    for (int i = 1; i < argc; ++i) metrics.push_back(argv[i]);
    CUpti_Profiler_Host_ConfigAddMetrics_Params am{CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
    am.pHostObject = host;
    am.ppMetricNames = metrics.data();
    am.numMetrics = metrics.size();
    CK(cuptiProfilerHostConfigAddMetrics(&am));
    CUpti_Profiler_Host_GetConfigImageSize_Params cs{CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
    cs.pHostObject = host;
    CK(cuptiProfilerHostGetConfigImageSize(&cs));
    std::vector<uint8_t> config(cs.configImageSize);
    CUpti_Profiler_Host_GetConfigImage_Params gc{CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
    gc.pHostObject = host;
    gc.configImageSize = config.size();
    gc.pConfigImage = config.data();
    CK(cuptiProfilerHostGetConfigImage(&gc));
    CUpti_Profiler_Host_GetNumOfPasses_Params np{CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE};
    np.configImageSize = config.size();
    np.pConfigImage = config.data();
    CK(cuptiProfilerHostGetNumOfPasses(&np));
    std::printf("passes %zu\n", np.numOfPasses);

    CUpti_PmSampling_Enable_Params en{CUpti_PmSampling_Enable_Params_STRUCT_SIZE};
    en.deviceIndex = 0;
    CK(cuptiPmSamplingEnable(&en));
    auto* pm = en.pPmSamplingObject;
    CUpti_PmSampling_SetConfig_Params sc{CUpti_PmSampling_SetConfig_Params_STRUCT_SIZE};
    sc.pPmSamplingObject = pm;
    sc.configSize = config.size();
    sc.pConfig = config.data();
    sc.hardwareBufferSize = 256 << 20;
    sc.samplingInterval = 1000000;  // 1 ms
    sc.triggerMode = CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_TIME_INTERVAL;
    sc.hwBufferAppendMode = CUPTI_PM_SAMPLING_HARDWARE_BUFFER_APPEND_MODE_KEEP_OLDEST;
    CK(cuptiPmSamplingSetConfig(&sc));
    CUpti_PmSampling_GetCounterDataSize_Params ds{CUpti_PmSampling_GetCounterDataSize_Params_STRUCT_SIZE};
    ds.pPmSamplingObject = pm;
    ds.pMetricNames = metrics.data();
    ds.numMetrics = metrics.size();
    ds.maxSamples = 4000;
    CK(cuptiPmSamplingGetCounterDataSize(&ds));
    std::vector<uint8_t> data(ds.counterDataSize);

    // "after-work": conflicted loads in this process just before the window starts, nothing inside it; any
    // count seen then leaked in from before the start (what may have put the check program's own
    // fingerprint kernels into Labs 01 and 02's windows).
    for (const char* mode : {"none", "conflict", "free", "spin", "memset", "self-conflict", "after-work", "none"}) {
        if (!std::strcmp(mode, "after-work")) {
            float* sink;
            cudaMalloc(&sink, 4);
            for (int i = 0; i < 20; ++i) loads<<<132 * 8, 256>>>(32, 4096, sink);
            cudaDeviceSynchronize();
        }
        CUpti_PmSampling_CounterDataImage_Initialize_Params di{CUpti_PmSampling_CounterDataImage_Initialize_Params_STRUCT_SIZE};
        di.pPmSamplingObject = pm;
        di.counterDataSize = data.size();
        di.pCounterData = data.data();
        CK(cuptiPmSamplingCounterDataImageInitialize(&di));
        CUpti_PmSampling_Start_Params st{CUpti_PmSampling_Start_Params_STRUCT_SIZE};
        st.pPmSamplingObject = pm;
        CK(cuptiPmSamplingStart(&st));
        if (!std::strcmp(mode, "after-work")) {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        } else if (!std::strcmp(mode, "self-conflict")) {
            float* sink;
            cudaMalloc(&sink, 4);
            for (int i = 0; i < 100; ++i) loads<<<132 * 8, 256>>>(32, 4096, sink);
            cudaDeviceSynchronize();
        } else {
            pid_t pid = fork();
            if (pid == 0) {
                execl("/proc/self/exe", argv[0], "--work", mode, (char*)nullptr);
                _exit(127);
            }
            int status = 0;
            waitpid(pid, &status, 0);
        }
        CUpti_PmSampling_Stop_Params sp{CUpti_PmSampling_Stop_Params_STRUCT_SIZE};
        sp.pPmSamplingObject = pm;
        CK(cuptiPmSamplingStop(&sp));
        CUpti_PmSampling_DecodeData_Params dd{CUpti_PmSampling_DecodeData_Params_STRUCT_SIZE};
        dd.pPmSamplingObject = pm;
        dd.pCounterDataImage = data.data();
        dd.counterDataImageSize = data.size();
        CK(cuptiPmSamplingDecodeData(&dd));
        CUpti_PmSampling_GetCounterDataInfo_Params info{CUpti_PmSampling_GetCounterDataInfo_Params_STRUCT_SIZE};
        info.pCounterDataImage = data.data();
        info.counterDataImageSize = data.size();
        CK(cuptiPmSamplingGetCounterDataInfo(&info));
        std::vector<double> sum(metrics.size(), 0.0), v(metrics.size());
        uint64_t first = 0, last = 0;
        for (size_t s = 0; s < info.numCompletedSamples; ++s) {
            CUpti_PmSampling_CounterData_GetSampleInfo_Params si{CUpti_PmSampling_CounterData_GetSampleInfo_Params_STRUCT_SIZE};
            si.pPmSamplingObject = pm;
            si.pCounterDataImage = data.data();
            si.counterDataImageSize = data.size();
            si.sampleIndex = s;
            CK(cuptiPmSamplingCounterDataGetSampleInfo(&si));
            if (s == 0) first = si.startTimestamp;
            last = si.endTimestamp;
            CUpti_Profiler_Host_EvaluateToGpuValues_Params ev{CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
            ev.pHostObject = host;
            ev.pCounterDataImage = data.data();
            ev.counterDataImageSize = data.size();
            ev.rangeIndex = s;
            ev.ppMetricNames = metrics.data();
            ev.numMetrics = metrics.size();
            ev.pMetricValues = v.data();
            CK(cuptiProfilerHostEvaluateToGpuValues(&ev));
            for (size_t m = 0; m < v.size(); ++m) sum[m] += v[m];
            if (s == 0) std::printf("  > first sample of %s: %s=%.4g\n", mode, metrics[0], v[0]);
        }
        std::printf("%-14s samples %zu/%zu over %.1f ms, overflow %d:", mode, info.numCompletedSamples,
                    info.numPopulatedSamples, (last - first) / 1e6, int(dd.overflow));
        for (size_t m = 0; m < sum.size(); ++m) std::printf(" %s=%.4g", metrics[m], sum[m]);
        std::printf("\n");
    }
    CUpti_PmSampling_Disable_Params dis{CUpti_PmSampling_Disable_Params_STRUCT_SIZE};
    dis.pPmSamplingObject = pm;
    CK(cuptiPmSamplingDisable(&dis));
    return 0;
}
