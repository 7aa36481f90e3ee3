/**
 * Fixtures shared by the tests of several modules: the real {@code git} run by argv with bounded
 * time and output ({@link dev.capability.testing.Git}), file ownership and permissions for
 * sandboxes that run as another uid ({@link dev.capability.testing.Ownership}), the host's own
 * programs ({@link dev.capability.testing.HostPrograms}), and the rule that a missing backend skips
 * a test unless backends are required ({@link dev.capability.testing.RequiredBackends}).
 *
 * <p>Only this project's tests depend on this module, at test scope; it is not published, and it
 * depends on no other module of the project, so that any of them can use it. A fixture here fails
 * the calling test rather than returning a half-made fixture.
 */
package dev.capability.testing;
