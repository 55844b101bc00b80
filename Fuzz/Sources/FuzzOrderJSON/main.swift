// Fuzzes order.json decoding and validation (Apple's Wallet Orders `Order`): any bytes must either
// decode into an `Order` or throw an `OrderDecodingError`; never crash. The lenient decoding the
// server uses (every problem reported at once) must not crash either. An order that decodes must
// survive its own round trip: encoding it and decoding the result gives the same order.
import FuzzSupport
import OrderModel
import PassModel

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = FuzzDriver.data(bytes, count)
    if let json = try? JSONValue.parse(data), let (lenient, _) = try? Order.decodeAll(json) {
        _ = lenient.validate()
    }
    guard let (order, _) = try? Order.decode(data) else { return 0 }
    _ = order.validate()
    let encoded = order.encoded()
    guard let (again, _) = try? Order.decode(encoded) else {
        fatalError("an encoded order does not decode again: \(String(decoding: encoded, as: UTF8.self))")
    }
    precondition(again == order, "the order changed in an encode/decode round trip")
    return 0
}

FuzzDriver.run(testOneInput)
