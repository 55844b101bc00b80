import Foundation

/// The holder page's own words (the pass's words come from its template's `.lproj`), in the
/// languages the page speaks; English for any other.
struct HolderWords: Sendable {
    /// The language these words are in (`de`): the page's `lang`.
    let language: String
    let addToWallet: String
    let scanTitle: String
    let scanHelp: String
    let downloadForMac: String
    let frontPicture: String
    let backOfPass: String
    let onThePass: String
    let voided: String
    /// `%@`: the date the pass expired.
    let expired: String
    let linkExpired: String
    /// `%@`: the issuer's name. Shown when the template says nothing of its own.
    let askForNewLink: String
    let linkInvalid: String
    let notFound: String
    let invitation: String
    let codeLabel: String

    /// Languages written right to left: the page turns with them.
    private static let rightToLeft: Set<String> = ["ar", "he", "fa", "ur"]

    var isRightToLeft: Bool { Self.rightToLeft.contains(language) }

    /// The words for the first of `languages` the page speaks (by its language part: `de-AT` → `de`).
    static func choose(_ languages: [String]) -> HolderWords {
        for tag in languages {
            let language = String(tag.prefix { $0 != "-" && $0 != "_" }).lowercased()
            if let words = all[language] { return words }
        }
        return english
    }

    static let english = HolderWords(
        language: "en", addToWallet: "Add to Apple Wallet", scanTitle: "Scan with your iPhone",
        scanHelp: "Open the Camera on your iPhone and point it at this code to add the pass to Apple Wallet.",
        downloadForMac: "Download the pass for Wallet on a Mac", frontPicture: "The front of the pass", backOfPass: "The back of the pass",
        onThePass: "On the pass", voided: "This pass is no longer valid, so it cannot be added to Wallet.",
        expired: "This pass expired on %@, so it cannot be added to Wallet.", linkExpired: "This link has expired.",
        askForNewLink: "Ask %@ for a new link.", linkInvalid: "This link is not valid. Check that you opened the whole link, or ask the issuer for a new one.",
        notFound: "This pass no longer exists.", invitation: "Add this pass to Apple Wallet.", codeLabel: "QR code that opens this page")

    static let all: [String: HolderWords] = [
        "en": english,
        "de": HolderWords(
            language: "de", addToWallet: "Zu Apple Wallet hinzufügen", scanTitle: "Mit dem iPhone scannen",
            scanHelp: "Öffne die Kamera auf deinem iPhone und richte sie auf diesen Code, um den Pass zu Apple Wallet hinzuzufügen.",
            downloadForMac: "Pass für Wallet auf dem Mac laden", frontPicture: "Die Vorderseite des Passes", backOfPass: "Die Rückseite des Passes",
            onThePass: "Auf dem Pass", voided: "Dieser Pass ist nicht mehr gültig und kann nicht zu Wallet hinzugefügt werden.",
            expired: "Dieser Pass ist am %@ abgelaufen und kann nicht zu Wallet hinzugefügt werden.", linkExpired: "Dieser Link ist abgelaufen.",
            askForNewLink: "Bitte %@ um einen neuen Link.", linkInvalid: "Dieser Link ist ungültig. Prüfe, ob du den ganzen Link geöffnet hast, oder bitte den Aussteller um einen neuen.",
            notFound: "Diesen Pass gibt es nicht mehr.", invitation: "Füge diesen Pass zu Apple Wallet hinzu.", codeLabel: "QR-Code, der diese Seite öffnet"),
        "fr": HolderWords(
            language: "fr", addToWallet: "Ajouter à Apple Wallet", scanTitle: "Scannez avec votre iPhone",
            scanHelp: "Ouvrez l’appareil photo de votre iPhone et visez ce code pour ajouter la carte à Apple Wallet.",
            downloadForMac: "Télécharger la carte pour Wallet sur Mac", frontPicture: "Le recto de la carte", backOfPass: "Le verso de la carte",
            onThePass: "Sur la carte", voided: "Cette carte n’est plus valable et ne peut pas être ajoutée à Wallet.",
            expired: "Cette carte a expiré le %@ et ne peut pas être ajoutée à Wallet.", linkExpired: "Ce lien a expiré.",
            askForNewLink: "Demandez un nouveau lien à %@.", linkInvalid: "Ce lien n’est pas valable. Vérifiez que vous avez ouvert le lien en entier, ou demandez-en un nouveau à l’émetteur.",
            notFound: "Cette carte n’existe plus.", invitation: "Ajoutez cette carte à Apple Wallet.", codeLabel: "Code QR qui ouvre cette page"),
        "es": HolderWords(
            language: "es", addToWallet: "Añadir a Apple Wallet", scanTitle: "Escanea con tu iPhone",
            scanHelp: "Abre la Cámara de tu iPhone y apunta a este código para añadir el pase a Apple Wallet.",
            downloadForMac: "Descargar el pase para Wallet en un Mac", frontPicture: "El anverso del pase", backOfPass: "El reverso del pase",
            onThePass: "En el pase", voided: "Este pase ya no es válido y no se puede añadir a Wallet.",
            expired: "Este pase caducó el %@ y no se puede añadir a Wallet.", linkExpired: "Este enlace ha caducado.",
            askForNewLink: "Pide un enlace nuevo a %@.", linkInvalid: "Este enlace no es válido. Comprueba que has abierto el enlace completo o pide uno nuevo al emisor.",
            notFound: "Este pase ya no existe.", invitation: "Añade este pase a Apple Wallet.", codeLabel: "Código QR que abre esta página"),
        "ar": HolderWords(
            language: "ar", addToWallet: "إضافة إلى Apple Wallet", scanTitle: "امسح الرمز بجهاز iPhone",
            scanHelp: "افتح الكاميرا في جهاز iPhone ووجّهها إلى هذا الرمز لإضافة البطاقة إلى Apple Wallet.",
            downloadForMac: "تنزيل البطاقة لـ Wallet على Mac", frontPicture: "الوجه الأمامي للبطاقة", backOfPass: "الوجه الخلفي للبطاقة",
            onThePass: "على البطاقة", voided: "هذه البطاقة لم تعد صالحة، لذا لا يمكن إضافتها إلى Wallet.",
            expired: "انتهت صلاحية هذه البطاقة في %@، لذا لا يمكن إضافتها إلى Wallet.", linkExpired: "انتهت صلاحية هذا الرابط.",
            askForNewLink: "اطلب رابطًا جديدًا من %@.", linkInvalid: "هذا الرابط غير صالح. تأكد من فتح الرابط كاملًا، أو اطلب رابطًا جديدًا من الجهة المصدرة.",
            notFound: "هذه البطاقة لم تعد موجودة.", invitation: "أضف هذه البطاقة إلى Apple Wallet.", codeLabel: "رمز QR يفتح هذه الصفحة"),
    ]
}
