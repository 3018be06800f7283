/* What the core and the shell know about GPUs. Implemented by cuda/ when the
 * build has the CUDA backend, by core/engine/gpu_none.c otherwise. */
#ifndef CARDIAC_GPU_H
#define CARDIAC_GPU_H
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct backend_ops;

/* The CUDA backend's operation table, or NULL when this build has none. */
const struct backend_ops *backend_cuda_ops(void);

/* Number of usable CUDA devices; 0 without a GPU or without the CUDA backend,
 * with the reason in why (may be NULL). */
int cuda_device_count(char *why, size_t len);

typedef struct {
    char name[256];
    double memory_bytes, free_bytes, l2_bytes;
    int sms, cc_major, cc_minor;
    char driver[32], runtime[32];
} gpu_info;

/* Properties of the current device; 0, or -1 with the reason in err. */
int cuda_gpu_info(gpu_info *info, char *err, size_t errlen);

/* Measured device-to-device copy bandwidth in GB/s (bytes read plus written),
 * median of reps copies of a buffer of the given size; -1 with err on failure. */
double cuda_copy_bandwidth(size_t bytes, int reps, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
