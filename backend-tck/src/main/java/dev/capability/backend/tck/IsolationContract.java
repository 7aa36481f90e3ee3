package dev.capability.backend.tck;

/**
 * Every isolation attack of the suite. Each attack runs against every backend; when it succeeds,
 * the backend must not advertise the capability it breaks, and an advertised capability is
 * demonstrated by the attack failing. Judged on the host wherever the effect is visible there.
 *
 * <p>Resource bounds are attacked by {@link ResourceContract}; {@code CPU_LIMIT} only shows in
 * timing, which the suite never measures.
 */
public interface IsolationContract
    extends FilesystemContract,
        NetworkContract,
        EgressContract,
        ProcessVisibilityContract,
        PrivilegeContract,
        SeccompContract {}
