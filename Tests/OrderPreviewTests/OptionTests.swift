import OrderPreview
import Testing

/// Options outside what the previewer draws are refused with the parameter's name and its range.
@Suite struct OptionTests {
    @Test(arguments: [0, 4, -2])
    func scaleOutsideOneToThreeIsRefused(_ scale: Int) throws {
        let source = try OrderFixtures.shop()
        do {
            _ = try OrderPreviewer().render(source.order, files: source.files, options: OrderPreviewOptions(scale: scale))
            Issue.record("scale \(scale) was drawn")
        } catch {
            guard case .invalidOption(let name, _) = error else {
                Issue.record("scale \(scale): \(error)")
                return
            }
            #expect(name == "scale")
            #expect(error.description.hasPrefix("scale:") && error.description.contains("\(scale)") && error.description.contains("1...3"),
                    "\(error.description)")
        }
    }
}
