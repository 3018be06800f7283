// Which GPU there is, and what it can move: device count, properties, and the
// measured device-to-device copy bandwidth that benchmarks quote against.
#include <algorithm>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
#include "gpu.h"
#include "launch.h"   // smem_limit

extern "C" int cuda_device_count(char *why, size_t len)
{
    static int count = -1;
    static cudaError_t err = cudaSuccess;
    if (count < 0) {
        err = cudaGetDeviceCount(&count);
        if (err != cudaSuccess) { count = 0; cudaGetLastError(); }
    }
    if (count == 0 && why) {
        // The runtime says "CUDA driver version is insufficient" also where
        // there is no driver at all (a machine without a GPU): say which.
        int drv = 0, rt = 0;
        cudaDriverGetVersion(&drv);
        cudaRuntimeGetVersion(&rt);
        if (err == cudaErrorInsufficientDriver && drv == 0)
            snprintf(why, len, "no CUDA GPU is usable here: there is no NVIDIA driver on this machine (no GPU, "
                     "or its driver is not installed); use backend = \"cpu\"");
        else if (err == cudaErrorInsufficientDriver)
            snprintf(why, len, "no CUDA GPU is usable here: the NVIDIA driver supports CUDA %d.%d, older than the "
                     "CUDA %d.%d this build needs (update the driver)", drv / 1000, drv % 1000 / 10, rt / 1000,
                     rt % 1000 / 10);
        else
            snprintf(why, len, "no CUDA GPU is usable here (%s)",
                     err != cudaSuccess ? cudaGetErrorString(err) : "no device found");
    }
    return count;
}

extern "C" int cuda_gpu_info(gpu_info *info, char *err, size_t errlen)
{
    if (cuda_device_count(err, errlen) == 0) return -1;
    int dev = 0, drv = 0, rt = 0;
    cudaDeviceProp p;
    size_t fr = 0, tot = 0;
    cudaError_t e;
    if ((e = cudaGetDevice(&dev)) != cudaSuccess || (e = cudaGetDeviceProperties(&p, dev)) != cudaSuccess ||
        (e = cudaMemGetInfo(&fr, &tot)) != cudaSuccess) {
        snprintf(err, errlen, "CUDA error reading the device properties: %s", cudaGetErrorString(e));
        return -1;
    }
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    snprintf(info->name, sizeof info->name, "%s", p.name);
    info->memory_bytes = (double)tot;
    info->free_bytes = (double)fr;
    info->l2_bytes = p.l2CacheSize;
    info->sms = p.multiProcessorCount;
    info->cc_major = p.major;
    info->cc_minor = p.minor;
    snprintf(info->driver, sizeof info->driver, "%d.%d", drv / 1000, drv % 1000 / 10);
    snprintf(info->runtime, sizeof info->runtime, "%d.%d", rt / 1000, rt % 1000 / 10);
    return 0;
}

extern "C" double cuda_copy_bandwidth(size_t bytes, int reps, char *err, size_t errlen)
{
    if (cuda_device_count(err, errlen) == 0) return -1;
    void *a = nullptr, *b = nullptr;
    cudaEvent_t t0, t1;
    if (cudaMalloc(&a, bytes) != cudaSuccess || cudaMalloc(&b, bytes) != cudaSuccess) {
        cudaFree(a);
        cudaGetLastError();
        snprintf(err, errlen, "cannot allocate two buffers of %zu bytes on the GPU", bytes);
        return -1;
    }
    cudaEventCreate(&t0);
    cudaEventCreate(&t1);
    cudaMemset(a, 1, bytes);
    cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice);    // warm-up
    std::vector<float> ms(std::max(1, reps));
    for (float &m : ms) {
        cudaEventRecord(t0);
        cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice);
        cudaEventRecord(t1);
        cudaEventSynchronize(t1);
        cudaEventElapsedTime(&m, t0, t1);
    }
    std::sort(ms.begin(), ms.end());
    cudaEventDestroy(t0);
    cudaEventDestroy(t1);
    cudaFree(a);
    cudaFree(b);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) { snprintf(err, errlen, "CUDA error timing a copy: %s", cudaGetErrorString(e)); return -1; }
    return 2.0 * bytes / (ms[ms.size() / 2] * 1e-3) / 1e9;   // read + write
}

// Shared memory a block may have once its kernel opts in (227 KB on Hopper).
size_t smem_limit()
{
    static int lim = 0;
    if (!lim) {
        int dev = 0;
        cudaGetDevice(&dev);
        if (cudaDeviceGetAttribute(&lim, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess || lim < 1)
            lim = 48 * 1024;
    }
    return (size_t)lim;
}
