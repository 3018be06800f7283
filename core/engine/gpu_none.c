/* GPU entry points of a build without the CUDA backend (CMakeLists.txt says
 * when it is built). */
#include <stdio.h>
#include "gpu.h"
#include "version.h"

const struct backend_ops *backend_cuda_ops(void) { return NULL; }

int cuda_device_count(char *why, size_t len)
{
    if (why)
        snprintf(why, len, "this build has no CUDA backend (%s); rebuild with "
                 "make CMAKE_FLAGS=-DCARDIAC_CUDA=ON for it", CARDIAC_CPU_WHY);
    return 0;
}

int cuda_gpu_info(gpu_info *info, char *err, size_t errlen)
{
    (void)info;
    cuda_device_count(err, errlen);
    return -1;
}

double cuda_copy_bandwidth(size_t bytes, int reps, char *err, size_t errlen)
{
    (void)bytes; (void)reps;
    cuda_device_count(err, errlen);
    return -1;
}
