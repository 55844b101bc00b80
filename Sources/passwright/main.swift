internal import CGlibc
import Foundation
import PasswrightCLI

// libzip converts archive timestamps with localtime(); with TZ unset glibc re-reads /etc/localtime on
// every call, which costs more than writing a pass archive. Pinning it (unless the user set TZ) keeps
// local-time behaviour and takes that file read off the hot path.
setenv("TZ", ":/etc/localtime", 0)
// Every deflated archive entry allocates zlib's ~256 KiB state; above glibc's default mmap threshold
// each pass would map, zero-fault and unmap fresh pages (about a fifth of batch time, measured with
// perf). Keeping such blocks in the heap costs a few MiB of resident memory at most.
passwright_keep_large_allocations_in_heap()
exit(await Passwright.main(Array(CommandLine.arguments.dropFirst())))
