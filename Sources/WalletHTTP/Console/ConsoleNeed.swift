import WalletCore

/// What a console route asks of the signed-in role: the API scope of the same action (so a role's
/// reach in the console is what its scopes give through the API), or the owner's user management.
enum ConsoleNeed: Sendable {
    /// Any signed-in session (signing out).
    case signedIn
    case scope(APIScope)
    /// Managing console users.
    case owner

    func allows(_ role: ConsoleRole) -> Bool {
        switch self {
        case .signedIn: true
        case .scope(let scope): role.scopes.contains(scope)
        case .owner: role.managesUsers
        }
    }

    /// Why a role is refused, for the 403 page.
    var refusal: String {
        switch self {
        case .signedIn: ""
        case .scope(let scope): "Your role cannot do this (it needs \(scope.rawValue)). Ask an owner to change your role."
        case .owner: "Only an owner manages console users."
        }
    }
}
