package dev.capability.junit5;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a {@link java.nio.file.Path} parameter of a {@link CapabilitySandbox} test as the test's
 * repository: a new Git repository (its real path) with one empty initial commit, outside the
 * project, deleted after the test. Its top directory is writable by every user, with the sticky
 * bit, so that a sandbox running as another uid (Bubblewrap under root runs as {@code nobody})
 * can create files in it; directories a test creates below it are the test's to open up.
 */
@Target(ElementType.PARAMETER)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface SandboxRepository {}
