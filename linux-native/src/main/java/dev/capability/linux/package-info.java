/**
 * The project's whole native surface, on Linux, through JNA: a directory or file opened without
 * following any symbolic link on the way ({@link dev.capability.linux.PinnedPath}), a spawn that
 * hands chosen descriptors to the child ({@link dev.capability.linux.DescriptorSpawn}), seccomp
 * filters built with the system's libseccomp, and the disk space a file takes ({@link
 * dev.capability.linux.FileAllocation}, {@code statx}), and directories listed and stated relative
 * to their descriptor ({@link dev.capability.linux.OpenDirectory}). Nothing else in the project
 * calls native code.
 */
@NullMarked
package dev.capability.linux;

import org.jspecify.annotations.NullMarked;
