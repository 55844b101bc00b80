#pragma once
#include <malloc.h>

/* Keeps blocks up to 4 MiB in the heap instead of fresh mmap()s: zlib's ~256 KiB state for every
   deflated archive entry would otherwise be mapped, zero-faulted and unmapped once per pass. */
static inline void passwright_keep_large_allocations_in_heap(void) {
    mallopt(M_MMAP_THRESHOLD, 4 << 20);
    mallopt(M_TRIM_THRESHOLD, 8 << 20);
    mallopt(M_TOP_PAD, 4 << 20);
}
