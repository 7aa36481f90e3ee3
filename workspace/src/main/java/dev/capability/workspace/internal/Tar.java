package dev.capability.workspace.internal;

/** The constants of the POSIX tar format (ustar headers, pax extended headers). */
final class Tar {
  static final int BLOCK = 512;
  static final int NAME_FIELD = 100;
  static final byte REGULAR = '0';
  static final byte REGULAR_OLD = 0;
  static final byte HARD_LINK = '1';
  static final byte SYMLINK = '2';
  static final byte CHARACTER_DEVICE = '3';
  static final byte BLOCK_DEVICE = '4';
  static final byte DIRECTORY = '5';
  static final byte FIFO = '6';
  static final byte PAX = 'x';
  /** The largest value an 11-digit octal field holds (sizes and times). */
  static final long MAX_OCTAL_11 = 077777777777L;
  /** The largest value a 7-digit octal field holds (uid and gid). */
  static final long MAX_OCTAL_7 = 07777777L;

  private Tar() {}

  /** {@code size} rounded up to whole blocks. */
  static long padded(long size) {
    return (size + BLOCK - 1) / BLOCK * BLOCK;
  }
}
