import Drawing

/// The step bar of a fulfilment: a track with a dot per stage and its name under it, filled in the
/// status's tone as far as the status has come.
extension OrderPainter {
    static let dotRadius = 7.0
    static let trackWidth = 4.0

    /// Draws the bar at `y` across the column and records it as `role`. Without a position (an
    /// issue, a cancellation) the whole track is a wash of the tone and no stage is reached:
    /// the shipment is off the way, not somewhere along it.
    func progress(_ progress: FulfillmentProgress, tone: StatusTone, role: String) {
        let radius = Self.dotRadius, column = Self.column
        let start = column.x + radius, length = column.width - 2 * radius
        let middle = y + radius, steps = Double(progress.stages.count - 1)
        // A shipment not yet moving is still on its way: the bar takes the accent, not the plain text colour.
        let color = palette.color(tone == .neutral ? .progress : tone)
        let unreached = progress.position == nil ? palette.wash(color) : palette.track
        func x(_ stage: Double) -> Double { start + length * stage / steps }
        func bar(to end: Double, _ color: RGBA) {
            let half = Self.trackWidth / 2
            canvas.fill(Rect(x: start, y: middle - half, width: end - start, height: Self.trackWidth), color: color, cornerRadius: half)
        }
        func dot(at stage: Int, radius: Double, _ color: RGBA) {
            let centre = x(Double(stage))
            canvas.fill(Rect(x: centre - radius, y: middle - radius, width: 2 * radius, height: 2 * radius), color: color, cornerRadius: radius)
        }
        bar(to: x(steps), unreached)
        if let position = progress.position, position > 0 { bar(to: x(position), color) }
        let reached = progress.stages.indices.map { Double($0) <= progress.position ?? -1 }
        for stage in progress.stages.indices {
            if reached[stage] { dot(at: stage, radius: radius, color) } else { dot(at: stage, radius: radius - 2, unreached) }
        }
        record(role, Rect(x: column.x, y: y, width: column.width, height: 2 * radius))
        y += 2 * radius + 6

        // Names under their dots: the first flush left, the last flush right, the others centred.
        let slot = length / steps
        var bottom = y
        for (stage, name) in progress.stages.enumerated() {
            let (left, alignment): (Double, TextStyle.Alignment)
            switch stage {
            case 0: (left, alignment) = (column.x, .left)
            case progress.stages.count - 1: (left, alignment) = (column.x + column.width - slot, .right)
            default: (left, alignment) = (x(Double(stage)) - slot / 2, .centre)
            }
            let block = canvas.layout(name, style: TextStyle(size: 11, weight: .medium, alignment: alignment), width: slot)
            canvas.draw(block, at: Point(x: left, y: y), color: reached[stage] ? palette.label : palette.secondary)
            bottom = max(bottom, y + block.size.height)
        }
        y = bottom
    }
}
