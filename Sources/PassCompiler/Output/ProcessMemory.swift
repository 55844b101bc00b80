internal import CGlibc

/// How the process allocates, set once at start-up by the `passwright` executable.
public enum ProcessMemory {
    /// Keeps blocks up to 4 MiB in glibc's heap instead of fresh `mmap`s. Every deflated archive
    /// entry allocates zlib's state (a few hundred KiB); above glibc's default mmap threshold each pass
    /// would map, zero-fault and unmap fresh pages (about a fifth of batch time, measured with perf).
    /// It costs a few MiB of resident memory at most.
    public static func keepLargeAllocationsInHeap() {
        passwright_keep_large_allocations_in_heap()
    }
}
