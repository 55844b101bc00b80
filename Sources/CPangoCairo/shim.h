#pragma once
/* Cairo draws and Pango lays out text onto Cairo through PangoCairo, so the two libraries meet in
   one module and one wrapper target (Drawing) owns both. */
#include <cairo.h>
#include <cairo-svg.h>
#include <pango/pangocairo.h>

static inline void passwright_g_object_unref(void *object) { g_object_unref(object); }
