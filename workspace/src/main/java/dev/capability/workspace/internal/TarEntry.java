package dev.capability.workspace.internal;

/**
 * One entry of a returned archive as its headers state it, pax values applied.
 *
 * @param name the name as stored (not yet normalized)
 * @param type the ustar type flag: regular, directory or symbolic link (others are refused by the reader)
 * @param linkName the symbolic link's target, {@code ""} for other types
 * @param size the content's size in bytes
 * @param mode the permission bits as stored
 * @param mtime the modification time in seconds since the epoch
 */
record TarEntry(String name, byte type, String linkName, long size, int mode, long mtime) {}
