package dev.capability.linux;

/**
 * What {@code statx} reported about one file, without following a final symbolic link.
 *
 * @param mode the whole {@code st_mode}: the file type bits and the permission bits
 * @param size the size in bytes
 * @param device the device id, encoded as glibc's {@code makedev} encodes {@code st_dev} (the
 *     value {@code stat} and the JDK's {@code unix:dev} attribute report)
 * @param inode the inode number
 * @param modifiedSeconds modification time, whole seconds since the epoch
 * @param modifiedNanos the modification time's nanoseconds within its second
 * @param changedSeconds status change time ({@code ctime}), whole seconds since the epoch
 * @param changedNanos the status change time's nanoseconds within its second
 */
public record FileStatus(
    int mode,
    long size,
    long device,
    long inode,
    long modifiedSeconds,
    int modifiedNanos,
    long changedSeconds,
    int changedNanos) {

  public FileStatus {
    if (modifiedNanos < 0 || modifiedNanos > 999_999_999 || changedNanos < 0 || changedNanos > 999_999_999) {
      throw new IllegalArgumentException(
          "nanoseconds outside 0 to 999,999,999: " + modifiedNanos + ", " + changedNanos);
    }
  }

  /** {@code st_dev} from the major and minor numbers {@code statx} reports, as glibc's {@code makedev}. */
  static long device(int major, int minor) {
    long ma = Integer.toUnsignedLong(major);
    long mi = Integer.toUnsignedLong(minor);
    return ((ma & 0xfffL) << 8) | ((ma & 0xfffff000L) << 32) | (mi & 0xffL) | ((mi & 0xffffff00L) << 12);
  }
}
