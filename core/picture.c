#include <errno.h>
#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "picture.h"
#include "output_paths.h"

/* Anchor colours of a dark-blue -> red -> yellow map ("inferno"-like), interpolated linearly. */
static const double anchors[][3] = {
    {0.001, 0.000, 0.014}, {0.160, 0.043, 0.360}, {0.416, 0.094, 0.431}, {0.659, 0.198, 0.373},
    {0.868, 0.318, 0.227}, {0.978, 0.557, 0.035}, {0.988, 0.998, 0.645},
};

void picture_colormap(double t, uint8_t rgb[3])
{
    const int n = sizeof anchors / sizeof anchors[0];
    if (!(t > 0)) t = 0;
    if (t > 1) t = 1;
    double f = t * (n - 1);
    int a = (int)f;
    if (a >= n - 1) a = n - 2;
    double w = f - a;
    for (int c = 0; c < 3; c++)
        rgb[c] = (uint8_t)lround(255 * ((1 - w) * anchors[a][c] + w * anchors[a + 1][c]));
}

int picture_write_png(const char *path, const float *field, const uint8_t *mask, int w, int h,
                      float vmin, float vmax, int scale, char *err, size_t errlen)
{
    if (scale < 1) scale = 1;
    const int bar = 16 * (h * scale >= 64 ? 1 : 0) + 8, gap = 6;
    int W = w * scale + gap + bar, H = h * scale;
    FILE *fp = fopen(path, "wb");
    if (!fp) { snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno)); return -1; }
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    uint8_t *row = malloc((size_t)W * 3);
    if (setjmp(png_jmpbuf(png))) {
        snprintf(err, errlen, "libpng failed writing '%s'", path);
        png_destroy_write_struct(&png, &info);
        fclose(fp); free(row);
        return -1;
    }
    png_init_io(png, fp);
    png_set_IHDR(png, info, W, H, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    double span = vmax > vmin ? vmax - vmin : 1;
    for (int py = 0; py < H; py++) {
        int j = h - 1 - py / scale;          /* y upwards */
        for (int px = 0; px < w * scale; px++) {
            size_t c = (size_t)j * w + px / scale;
            uint8_t *p = row + 3 * px;
            if (mask && !mask[c]) { p[0] = p[1] = p[2] = 128; continue; }
            picture_colormap((field[c] - vmin) / span, p);
        }
        memset(row + 3 * (w * scale), 255, (size_t)gap * 3);
        uint8_t rgb[3];
        picture_colormap(1.0 - (double)py / (H > 1 ? H - 1 : 1), rgb);  /* colour bar: vmax at top */
        for (int px = w * scale + gap; px < W; px++) memcpy(row + 3 * px, rgb, 3);
        png_write_row(png, row);
    }
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    free(row);
    return fclose(fp) == 0 ? 0 : -1;
}
