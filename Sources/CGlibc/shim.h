#pragma once
#include <malloc.h>

/* Keeps blocks up to 4 MiB in the heap instead of fresh mmap()s: zlib's ~256 KiB state for every
   deflated archive entry would otherwise be mapped, zero-faulted and unmapped once per pass. */
static inline void passwright_keep_large_allocations_in_heap(void) {
    mallopt(M_MMAP_THRESHOLD, 4 << 20);
    mallopt(M_TRIM_THRESHOLD, 8 << 20);
    mallopt(M_TOP_PAD, 4 << 20);
}

#include <fcntl.h>
#include <unistd.h>
#include <stdio.h>

/* A new file with no name yet in `folder` (O_TMPFILE), for writing and then linking into place; -1
   with errno set where the file system cannot (EOPNOTSUPP, or EISDIR from kernels before 3.11).
   O_TMPFILE is a macro Swift cannot import, and glibc defines it only for _GNU_SOURCE; __O_TMPFILE
   is the same value, always defined. */
static inline int passwright_open_unnamed(const char *folder, mode_t mode) {
    return open(folder, __O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);
}

/* Gives the unnamed file open as `descriptor` the name `path`, failing with EEXIST if it is taken:
   linkat through /proc/self/fd, which needs no privilege (AT_EMPTY_PATH needs CAP_DAC_READ_SEARCH). */
static inline int passwright_link_unnamed(int descriptor, const char *path) {
    char self[32];
    snprintf(self, sizeof self, "/proc/self/fd/%d", descriptor);
    return linkat(AT_FDCWD, self, AT_FDCWD, path, AT_SYMLINK_FOLLOW);
}
