import PassModel

/// Why an `order.json` could not be read, and where: every problem at once, each with its JSON path
/// (`lineItems[1].price.amount`) and what was expected.
///
/// The same type as for `pass.json`: orders are read by PassModel's JSON parser and schema machinery,
/// whose errors already carry paths and messages for any JSON document, so a second type would only
/// copy it.
public typealias OrderDecodingError = PassDecodingError
