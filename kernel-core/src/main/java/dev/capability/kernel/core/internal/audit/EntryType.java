package dev.capability.kernel.core.internal.audit;

/** What kind of directory entry a path is, as {@code lstat} reports it (links never followed). */
public enum EntryType {
  FILE,
  DIRECTORY,
  SYMLINK,
  /** A FIFO, socket or device node. */
  OTHER;

  static EntryType ofMode(int stMode) {
    switch (stMode & 0170000) {
      case 0100000:
        return FILE;
      case 0040000:
        return DIRECTORY;
      case 0120000:
        return SYMLINK;
      default:
        return OTHER;
    }
  }
}
