import Testing
@testable import Drawing
