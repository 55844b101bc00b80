// Fuzzes pass.json decoding and validation: any bytes must either decode into a `Pass` or throw a
// `PassDecodingError`; never crash. A pass that decodes must survive its own round trip: encoding it
// and decoding the result gives the same pass (what `passwright build` writes is what it validated).
import FuzzSupport
import PassModel

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = FuzzDriver.data(bytes, count)
    guard let (pass, _) = try? Pass.decode(data) else { return 0 }
    _ = pass.validate()
    let encoded = pass.encoded()
    guard let (again, _) = try? Pass.decode(encoded) else {
        fatalError("an encoded pass does not decode again: \(String(decoding: encoded, as: UTF8.self))")
    }
    precondition(again == pass, "the pass changed in an encode/decode round trip")
    return 0
}

FuzzDriver.run(testOneInput)
