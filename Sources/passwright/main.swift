import Foundation
import PasswrightCLI

exit(await Passwright.main(Array(CommandLine.arguments.dropFirst())))
