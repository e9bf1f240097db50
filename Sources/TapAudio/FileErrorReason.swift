import Foundation

/// Why a file operation failed, in plain words (`No space left on device`), for messages that
/// name the file themselves: the system's own text for a POSIX error, never Foundation's
/// `Error Domain=NSCocoaErrorDomain … UserInfo={…}` dump.
public func plainFileErrorReason(_ error: any Error) -> String {
    if let audio = error as? AudioError {
        switch audio {
        case .cannotOpen(_, let reason), .readFailed(_, let reason), .writeFailed(_, let reason),
             .unsupportedOutput(_, let reason):
            return reason
        default:
            return audio.description
        }
    }
    let error = error as NSError
    if error.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(error.code))) }
    if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
        return String(cString: strerror(Int32(underlying.code)))
    }
    if error.domain == NSCocoaErrorDomain {
        switch CocoaError.Code(rawValue: error.code) {
        case .fileNoSuchFile, .fileReadNoSuchFile: return String(cString: strerror(ENOENT))
        case .fileReadNoPermission, .fileWriteNoPermission: return String(cString: strerror(EACCES))
        case .fileWriteOutOfSpace: return String(cString: strerror(ENOSPC))
        case .fileWriteVolumeReadOnly: return String(cString: strerror(EROFS))
        case .fileWriteFileExists: return String(cString: strerror(EEXIST))
        default: break
        }
    }
    return error.localizedDescription
}
