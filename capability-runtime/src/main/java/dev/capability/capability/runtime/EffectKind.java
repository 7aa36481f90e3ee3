package dev.capability.capability.runtime;

import java.util.Arrays;
import java.util.Optional;

/**
 * The closed vocabulary of effects a capability can declare and an operator can grant. An effect
 * is a declaration, never a permission: a policy decides what is granted.
 *
 * <p>{@link #needsApproval()} is true for every effect that mutates something, reaches the open
 * world, or leaves the inspection unable to vouch for the package; the permissive policy asks an
 * {@link ApprovalHandler} for each of those.
 */
public enum EffectKind {
  /** Reads files below a path. Scope: a path. */
  FILESYSTEM_READ("filesystem.read", false),
  /** Creates, changes or deletes files below a path. Scope: a path. */
  FILESYSTEM_WRITE("filesystem.write", true),
  /** Opens connections to one host and port. Scope: {@code host:port}. */
  NETWORK_CONNECT("network.connect", true),
  /** Starts one executable with matching arguments. Scope: {@code /abs/executable arg-pattern...}. */
  PROCESS_SPAWN("process.spawn", true),
  /** Reads named secrets. Scope: a secret name. */
  SECRETS_READ("secrets.read", true),
  /** Writes to one database. Scope: a database name. */
  DATABASE_WRITE("database.write", true),
  /** Sends email to one address or domain. Scope: {@code user@host} or {@code @host}. */
  EMAIL_SEND("email.send", true),
  /** Changes one Git repository (commits, refs, pushes). Scope: a path. */
  GIT_MUTATE("git.mutate", true),
  /**
   * Runs code the effect scan cannot read: reflection, method handles looked up by name, dynamic
   * proxies, service loading. Declaring it says the scan cannot vouch for what the package does;
   * the executor's boundary still holds. Scope: the mechanism, one of {@code reflection}, {@code
   * method-handles}, {@code proxy}, {@code service-loader}.
   */
  CODE_DYNAMIC("code.dynamic", true);

  private final String id;
  private final boolean needsApproval;

  EffectKind(String id, boolean needsApproval) {
    this.id = id;
    this.needsApproval = needsApproval;
  }

  /** The name used in manifests, policies and receipts, for example {@code filesystem.write}. */
  public String id() {
    return id;
  }

  /** Whether the effect mutates state or reaches the open world. */
  public boolean needsApproval() {
    return needsApproval;
  }

  /** The kind named {@code id}, if the vocabulary has one. */
  public static Optional<EffectKind> fromId(String id) {
    return Arrays.stream(values()).filter(kind -> kind.id.equals(id)).findFirst();
  }

  @Override
  public String toString() {
    return id;
  }
}
