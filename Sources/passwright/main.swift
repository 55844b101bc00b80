import Foundation
import PassCompiler
import PasswrightCLI

// libzip converts archive timestamps with localtime(); with TZ unset glibc re-reads /etc/localtime on
// every call, which costs more than writing a pass archive. Pinning it (unless the user set TZ) keeps
// local-time behaviour and takes that file read off the hot path.
setenv("TZ", ":/etc/localtime", 0)
ProcessMemory.keepLargeAllocationsInHeap()
exit(await Passwright.main(Array(CommandLine.arguments.dropFirst())))
