/**
 * Fixtures shared by the tests of several modules: the real {@code git} run by argv with bounded
 * time and output ({@link dev.capability.testing.Git}), file ownership ({@link
 * dev.capability.testing.Ownership}) and the rule that a missing backend skips a test unless
 * backends are required ({@link dev.capability.testing.RequiredBackends}).
 *
 * <p>Only this project's tests depend on this module, at test scope; it is not published. Every
 * fixture here fails the calling test with an {@link AssertionError} rather than returning a
 * half-made fixture.
 */
package dev.capability.testing;
