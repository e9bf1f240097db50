/// TapKit's version, stamped into the files it writes and printed by `tapkit --version`. It
/// equals the newest entry of CHANGELOG.md (semantic versioning; tags `vMAJOR.MINOR.PATCH`).
public let tapkitVersion = "0.10.0"
