// Fuzzes `.strings` parsing (the `xx.lproj/pass.strings` files of templates and passes): any bytes
// must parse or throw a `PassCompilerError`; never crash. What parses must survive a round trip
// through the UTF-16 form the compiler writes into passes.
import FuzzSupport
import PassCompiler

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let strings = try? StringsFile(bytes: FuzzDriver.data(bytes, count), file: "fuzz.strings") else { return 0 }
    let written = strings.encodedUTF16()
    guard let again = try? StringsFile(bytes: written, file: "written.strings") else {
        fatalError("a written .strings file does not parse again")
    }
    precondition(again == strings, "a .strings file changed in a write/parse round trip")
    return 0
}

FuzzDriver.run(testOneInput)
