/* png_check FILE W H MIN_COLORS: decodes an 8-bit RGB/RGBA PNG (what
 * Chromium writes for screenshots) and fails unless it is W x H, has at
 * least MIN_COLORS distinct colors and is at least 5% non-white: a blank
 * or broken rendering of the SVG fails. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int fail(const char *path, const char *msg)
{
    fprintf(stderr, "png_check: %s: %s\n", path, msg);
    return 1;
}

static int paeth(int a, int b, int c)
{
    int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

static void unfilter(unsigned char *img, uint32_t w, uint32_t h, int bpp)
{
    size_t stride = (size_t)w * bpp;
    for (uint32_t y = 0; y < h; y++) {
        unsigned char *row = img + y * (stride + 1), f = row[0];
        unsigned char *cur = row + 1, *prev = y ? row - stride : NULL;
        for (size_t x = 0; x < stride; x++) {
            int a = x >= (size_t)bpp ? cur[x - bpp] : 0, b = prev ? prev[x] : 0;
            int c = prev && x >= (size_t)bpp ? prev[x - bpp] : 0;
            int add = f == 1 ? a : f == 2 ? b : f == 3 ? (a + b) / 2 : f == 4 ? paeth(a, b, c) : 0;
            cur[x] = (unsigned char)(cur[x] + add);
        }
    }
}

int main(int argc, char **argv)
{
    if (argc != 5) return fprintf(stderr, "usage: png_check FILE W H MIN_COLORS\n"), 2;
    FILE *f = fopen(argv[1], "rb");
    if (!f) return fail(argv[1], "cannot open");
    static unsigned char buf[64 << 20];
    size_t n = fread(buf, 1, sizeof buf, f), nidat = 0;
    fclose(f);
    if (n < 33 || memcmp(buf, "\x89PNG\r\n\x1a\n", 8) != 0) return fail(argv[1], "not a PNG");
    uint32_t w = be32(buf + 16), h = be32(buf + 20);
    int depth = buf[24], ctype = buf[25], bpp = ctype == 6 ? 4 : 3;
    if (depth != 8 || (ctype != 2 && ctype != 6)) return fail(argv[1], "not 8-bit RGB(A)");
    unsigned char *idat = malloc(n);
    for (size_t off = 8; idat && off + 12 <= n;) {
        uint32_t len = be32(buf + off);
        if (memcmp(buf + off + 4, "IDAT", 4) == 0)
            memcpy(idat + nidat, buf + off + 8, len), nidat += len;
        off += 12 + (size_t)len;
    }
    uLongf rawlen = (uLongf)h * ((uLongf)w * bpp + 1);
    unsigned char *img = malloc(rawlen);
    if (!idat || !img || uncompress(img, &rawlen, idat, nidat) != Z_OK)
        return fail(argv[1], "cannot inflate the image data");
    unfilter(img, w, h, bpp);
    uint8_t *seen = calloc(1 << 21, 1);
    size_t colors = 0, nonwhite = 0;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            unsigned char *p = img + y * ((size_t)w * bpp + 1) + 1 + (size_t)x * bpp;
            uint32_t rgb = (uint32_t)p[0] << 16 | p[1] << 8 | p[2];
            if (!(seen[rgb >> 3] & (1 << (rgb & 7)))) seen[rgb >> 3] |= 1 << (rgb & 7), colors++;
            nonwhite += rgb != 0xffffff;
        }
    printf("%s: %ux%u, %zu colors, %.1f%% non-white\n", argv[1], w, h, colors,
           100.0 * nonwhite / ((double)w * h));
    if (w != (uint32_t)atoi(argv[2]) || h != (uint32_t)atoi(argv[3]))
        return fail(argv[1], "wrong size");
    if (colors < (size_t)atoi(argv[4])) return fail(argv[1], "too few colors");
    if (nonwhite * 20 < (size_t)w * h) return fail(argv[1], "almost blank");
    free(seen), free(img), free(idat);
    return 0;
}
