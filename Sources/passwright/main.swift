import PasswrightCLI
// Placeholder: the thin executable calls into PasswrightCLI.
