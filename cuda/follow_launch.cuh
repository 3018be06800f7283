// Programmatic dependent launch of the step kernels of layouts tplane, naive
// and block (launch_ctx::follow; tblock's ran slower so, item 62): on one GPU
// the step's launch may start its blocks while the kernel before it in the
// stream finishes. Its blocks then take the SMs that kernel's blocks leave
// and set up while its last blocks finish; every thread waits
// (follow_previous_launch) until that kernel has finished and its writes are
// visible before it touches the state. About 4 us a launch on an H100
// (docs/gpu-notebook.md, items 60 and 62). A kernel launched without the
// attribute returns from the wait at once; a launch after a kernel that does
// not let its dependents start early waits for it whole, as before.
#ifndef CARDIAC_CUDA_FOLLOW_LAUNCH_CUH
#define CARDIAC_CUDA_FOLLOW_LAUNCH_CUH
#include <utility>
#include <cuda_runtime.h>

// In the kernel, before the first access to the state: lets the next launch
// start its blocks, then waits for the launch before this one.
__device__ __forceinline__ void follow_previous_launch()
{
#if __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

// Whether the kernel waits (follow_previous_launch): compiled for compute
// capability 9.0 or above, which the launch's attribute needs too. A build
// for an earlier GPU (CMAKE_CUDA_ARCHITECTURES), or its PTX compiled for a
// later one by the driver, gets plain launches. Asked once: every kernel of
// a build is compiled for the same architectures.
template <class K>
bool follow_supported(K kernel)
{
    static const bool yes = [kernel] {
        cudaFuncAttributes fa;
        return cudaFuncGetAttributes(&fa, kernel) == cudaSuccess && fa.ptxVersion >= 90;
    }();
    return yes;
}

// kernel<<<grid, block, smem, stream>>>(args...), made a programmatic
// dependent launch where follow is set and the GPU supports it.
template <class... P, class... A>
void launch_following(void (*kernel)(P...), dim3 grid, dim3 block, size_t smem, cudaStream_t stream, bool follow,
                      A &&...args)
{
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = grid;
    cfg.blockDim = block;
    cfg.dynamicSmemBytes = smem;
    cfg.stream = stream;
    cudaLaunchAttribute at;
    at.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    at.val.programmaticStreamSerializationAllowed = 1;
    cfg.attrs = &at;
    cfg.numAttrs = follow && follow_supported(kernel) ? 1 : 0;
    cudaLaunchKernelEx(&cfg, kernel, std::forward<A>(args)...);
}

#endif
