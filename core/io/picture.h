/* PNG pictures of 2D fields (or z-slices of 3D fields) with a colour bar. */
#ifndef CARDIAC_PICTURE_H
#define CARDIAC_PICTURE_H
#include <stddef.h>
#include <stdint.h>

/* The largest picture side the shell accepts from a 'scale' (pixels). */
#define PICTURE_MAX_SIDE 8192

/* field: w x h values (x fastest, y upwards in the picture); mask may be NULL
 * (cells with mask 0 are drawn grey). scale: pixels per cell (>= 1).
 * Returns 0 or -1 with err. */
int picture_write_png(const char *path, const float *field, const uint8_t *mask, int w, int h,
                      float vmin, float vmax, int scale, char *err, size_t errlen);

/* Colour of value t in [0, 1] on the colour map (perceptually ordered). */
void picture_colormap(double t, uint8_t rgb[3]);

#endif
