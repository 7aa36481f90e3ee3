package dev.capability.backend.tck;

/**
 * Every isolation attack of the suite. Each attack runs against every backend; when it succeeds,
 * the backend must not advertise the capability it breaks, and an advertised capability is
 * demonstrated by the attack failing. Judged on the host wherever the effect is visible there.
 *
 * <p>Not covered: {@code MEMORY_LIMIT}, {@code PID_LIMIT} and {@code CPU_LIMIT}, whose bounds are
 * backend configuration the suite cannot know; a backend tests those itself.
 */
public interface IsolationContract
    extends FilesystemContract,
        NetworkContract,
        ProcessVisibilityContract,
        PrivilegeContract,
        SeccompContract {}
