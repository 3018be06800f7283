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

/* A 3 x 5 pixel font for the colour bar's numbers: each glyph is five rows
 * of three bits, the high bit on the left. */
static const char glyph_chars[] = "0123456789.-+e";
static const uint8_t glyphs[][5] = {
    {7, 5, 5, 5, 7}, {2, 6, 2, 2, 7}, {7, 1, 7, 4, 7}, {7, 1, 7, 1, 7}, {5, 5, 7, 1, 1},
    {7, 4, 7, 1, 7}, {7, 4, 7, 5, 7}, {7, 1, 1, 1, 1}, {7, 5, 7, 5, 7}, {7, 5, 7, 1, 7},
    {0, 0, 0, 0, 2}, {0, 0, 7, 0, 0}, {0, 2, 7, 2, 0}, {7, 4, 7, 4, 7},
};

/* Is pixel (x, y) of text drawn at font size f (pixels per font pixel) ink? */
static int text_ink(const char *text, int f, int x, int y)
{
    int ch = x / (4 * f), gx = (x % (4 * f)) / f, gy = y / f;
    if (ch >= (int)strlen(text) || gx > 2 || gy > 4) return 0;
    const char *q = strchr(glyph_chars, text[ch]);
    return q && (glyphs[q - glyph_chars][gy] >> (2 - gx) & 1);
}

/* The colour bar's labels: the maximum at its top, the minimum at its
 * bottom, the middle value between them where the bar is tall enough. */
typedef struct {
    char text[3][24];
    int top[3], n, f, width;
} bar_labels;

static void labels_layout(bar_labels *b, float vmin, float vmax, int H)
{
    memset(b, 0, sizeof *b);
    b->f = H >= 240 ? 3 : H >= 64 ? 2 : 1;
    const int th = 5 * b->f;
    if (H < 2 * th + 2) return;   /* a picture a few pixels high: no room */
    const double v[3] = {vmax, vmin, 0.5 * ((double)vmin + vmax)};
    const int top[3] = {0, H - th, (H - th) / 2};
    b->n = H >= 4 * th ? 3 : 2;
    for (int q = 0; q < b->n; q++) {
        snprintf(b->text[q], sizeof b->text[q], "%.4g", v[q]);
        b->top[q] = top[q];
        int wq = 4 * b->f * (int)strlen(b->text[q]);
        if (wq > b->width) b->width = wq;
    }
}

static int labels_ink(const bar_labels *b, int x, int y)
{
    for (int q = 0; q < b->n; q++)
        if (y >= b->top[q] && y < b->top[q] + 5 * b->f && text_ink(b->text[q], b->f, x, y - b->top[q])) return 1;
    return 0;
}

/* Pixel row py of the picture: the field (y upwards), a white gap, the
 * colour bar (vmax at its top) and its labels. Not inlined: its loop
 * counters would then live in the function that calls setjmp. */
static __attribute__((noinline)) void draw_row(uint8_t *row, int py, const float *field, const uint8_t *mask, int w, int h, int scale,
                     float vmin, float vmax, int x_bar, int bar, const bar_labels *lab, int x_text, int W)
{
    const double span = vmax > vmin ? vmax - vmin : 1;
    const int H = h * scale;
    int j = h - 1 - py / scale;
    for (int px = 0; px < w * scale; px++) {
        size_t c = (size_t)j * w + px / scale;
        uint8_t *p = row + 3 * px;
        if (mask && !mask[c]) { p[0] = p[1] = p[2] = 128; continue; }
        picture_colormap((field[c] - vmin) / span, p);
    }
    memset(row + 3 * (w * scale), 255, (size_t)(W - w * scale) * 3);
    uint8_t rgb[3];
    picture_colormap(1.0 - (double)py / (H > 1 ? H - 1 : 1), rgb);
    for (int px = x_bar; px < x_bar + bar; px++) memcpy(row + 3 * px, rgb, 3);
    for (int px = x_text; px < W; px++)
        if (labels_ink(lab, px - x_text, py)) memset(row + 3 * px, 0, 3);
}

/* Writes to a temporary file beside path and renames it into place, so a
 * failure (a full disk, a picture too large) leaves neither a partial file
 * nor a lost earlier picture. */
int picture_write_png(const char *path, const float *field, const uint8_t *mask, int w, int h,
                      float vmin, float vmax, int scale, char *err, size_t errlen)
{
    if (scale < 1) scale = 1;
    const int bar = 16 * (h * scale >= 64 ? 1 : 0) + 8, gap = 6, pad = 4;
    const int H = h * scale;
    bar_labels lab;
    labels_layout(&lab, vmin, vmax, H);
    const int x_bar = w * scale + gap, x_text = x_bar + bar + pad;
    const int W = x_bar + bar + (lab.n ? pad + lab.width + pad : 0);
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.partial", path);
    FILE *fp = fopen(tmp, "wb");
    if (!fp) { snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno)); return -1; }
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    uint8_t *row = malloc((size_t)W * 3);
    if (!row || setjmp(png_jmpbuf(png))) {
        snprintf(err, errlen, "%s writing '%s'", row ? "libpng failed" : "out of memory", path);
        png_destroy_write_struct(&png, &info);
        fclose(fp); free(row);
        remove(tmp);
        return -1;
    }
    png_init_io(png, fp);
    png_set_IHDR(png, info, W, H, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (int py = 0; py < H; py++) {
        draw_row(row, py, field, mask, w, h, scale, vmin, vmax, x_bar, bar, &lab, x_text, W);
        png_write_row(png, row);
    }
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    free(row);
    if (fclose(fp) != 0 || rename(tmp, path) != 0) {
        snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
        remove(tmp);
        return -1;
    }
    return 0;
}
