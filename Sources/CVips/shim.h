#pragma once
#include <vips/vips.h>

/* libvips' operations are variadic (name/value option lists ending in NULL), which Swift cannot
   call: each call Passwright makes gets a fixed-argument wrapper here. */

/* Starts libvips with its operation cache off: buffers are read in place, and a cached result keyed
   on a buffer that has since been freed and reused must never be handed back. */
static inline int passwright_vips_init(void) {
    int result = vips_init("passwright");
    if (result == 0) vips_cache_set_max(0);
    return result;
}
static inline void passwright_vips_unref(VipsImage *image) { g_object_unref(image); }
static inline void passwright_g_free(void *pointer) { g_free(pointer); }

/* Opens the header of an in-memory image; pixels are decoded only when an operation needs them. */
static inline VipsImage *passwright_vips_open_buffer(const void *bytes, size_t length) {
    return vips_image_new_from_buffer(bytes, length, "", NULL);
}

/* Decodes and resizes in one step: vector masters (SVG) are rendered at the target size, JPEGs are
   shrunk while decoding, EXIF orientation is applied and embedded profiles are converted to sRGB.
   crop != 0 fills width x height exactly (centre crop); else the result fits inside it. */
static inline int passwright_vips_thumbnail_buffer(void *bytes, size_t length, VipsImage **out, int width, int height, int crop) {
    return vips_thumbnail_buffer(bytes, length, out, width, "height", height, "size", VIPS_SIZE_BOTH,
                                 "crop", crop ? VIPS_INTERESTING_CENTRE : VIPS_INTERESTING_NONE, NULL);
}

static inline int passwright_vips_to_srgb(VipsImage *in, VipsImage **out) {
    return vips_colourspace(in, out, VIPS_INTERPRETATION_sRGB, NULL);
}

static inline int passwright_vips_flatten_white(VipsImage *in, VipsImage **out) {
    double white[3] = {255.0, 255.0, 255.0};
    VipsArrayDouble *background = vips_array_double_new(white, 3);
    int result = vips_flatten(in, out, "background", background, NULL);
    vips_area_unref(VIPS_AREA(background));
    return result;
}

static inline int passwright_vips_add_alpha(VipsImage *in, VipsImage **out) { return vips_addalpha(in, out, NULL); }

/* Centres the image on a width x height canvas; new pixels are transparent when the image has an
   alpha channel (black with alpha 0), white otherwise. */
static inline int passwright_vips_centre_on_canvas(VipsImage *in, VipsImage **out, int width, int height) {
    VipsExtend extend = vips_image_hasalpha(in) ? VIPS_EXTEND_BLACK : VIPS_EXTEND_WHITE;
    return vips_gravity(in, out, VIPS_COMPASS_DIRECTION_CENTRE, width, height, "extend", extend, NULL);
}

static inline int passwright_vips_png_buffer(VipsImage *in, void **bytes, size_t *length) {
    return vips_pngsave_buffer(in, bytes, length, "strip", TRUE, NULL);
}

/* Wraps straight (not premultiplied) 8-bit RGBA pixels in place as an sRGB image; the pixels must
   outlive the image. */
static inline VipsImage *passwright_vips_from_rgba(const void *pixels, size_t length, int width, int height) {
    VipsImage *image = vips_image_new_from_memory(pixels, length, width, height, 4, VIPS_FORMAT_UCHAR);
    if (image) image->Type = VIPS_INTERPRETATION_sRGB;
    return image;
}

/* A PNG written for speed: zlib level 1 and no row filters. For flat-coloured pictures (previews)
   this is ten times faster than libpng's adaptive filtering at level 6 and about 20 % larger. */
static inline int passwright_vips_png_buffer_fast(VipsImage *in, void **bytes, size_t *length) {
    return vips_pngsave_buffer(in, bytes, length, "compression", 1, "filter", VIPS_FOREIGN_PNG_FILTER_NONE, "strip", TRUE, NULL);
}
