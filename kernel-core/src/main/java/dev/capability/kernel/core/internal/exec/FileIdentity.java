package dev.capability.kernel.core.internal.exec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Map;

/**
 * Identity of a file's content as far as stat data can tell: device, inode, size, modification
 * and change time. The change time cannot be set by users, so an in-place rewrite that restores
 * the modification time still changes the identity.
 */
record FileIdentity(long device, long inode, long size, FileTime modified, FileTime changed) {

  /** Stat data of the file {@code path} refers to (following a {@code /proc} descriptor link). */
  static FileIdentity of(Path path) throws IOException {
    Map<String, Object> a = Files.readAttributes(path, "unix:dev,ino,size,lastModifiedTime,ctime");
    return new FileIdentity(
        ((Number) a.get("dev")).longValue(),
        ((Number) a.get("ino")).longValue(),
        ((Number) a.get("size")).longValue(),
        (FileTime) a.get("lastModifiedTime"),
        (FileTime) a.get("ctime"));
  }
}
