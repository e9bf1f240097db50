#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a path names in the file system, checked before a reader opens it: opening a FIFO
/// blocks until a writer comes, and reading `/dev/zero` never ends, so TapKit reads only
/// regular files (following symbolic links).
public enum FileKind {
    /// Why `path` cannot be read as a file, or nil when it is a regular, readable file.
    ///
    /// Reasons name what the path is: "no such file", "broken symbolic link", "symbolic link
    /// loop", "is a directory, expected a file", "is a FIFO (named pipe), not a regular file",
    /// "is a character device, …", "permission denied".
    public static func problem(readingFileAt path: String) -> String? {
        var status = stat()
        if stat(path, &status) != 0 {
            let error = errno
            var link = stat()
            if lstat(path, &link) == 0 && (link.st_mode & S_IFMT) == S_IFLNK {
                return error == ELOOP ? "symbolic link loop" : "broken symbolic link"
            }
            switch error {
            case ENOENT: return "no such file"
            case EACCES: return "permission denied"
            case ENOTDIR: return "a part of the path is not a folder"
            case ENAMETOOLONG: return "file name too long"
            case ELOOP: return "symbolic link loop"
            default: return String(cString: strerror(error))
            }
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: return "is a directory, expected a file"
        case S_IFIFO: return "is a FIFO (named pipe), not a regular file"
        case S_IFCHR: return "is a character device, not a regular file"
        case S_IFBLK: return "is a block device, not a regular file"
        case S_IFSOCK: return "is a socket, not a regular file"
        default: return "is not a regular file"
        }
        if access(path, R_OK) != 0 { return "permission denied" }
        return nil
    }
}
