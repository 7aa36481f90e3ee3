package dev.capability.kernel.core.internal.authority;

import static dev.capability.kernel.api.authority.AuthorityCodes.TOOL_CONFIGURATION_MISMATCH;
import static dev.capability.kernel.api.authority.AuthorityCodes.TOOL_CONFIGURATION_UNREADABLE;

import dev.capability.kernel.api.Decision;
import dev.capability.kernel.api.Sha256;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.PolicyCodes;
import dev.capability.kernel.api.policy.ToolConfigurationPin;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The repository files that change what an allowed executable does (Maven reads
 * {@code .mvn/maven.config}, {@code .mvn/jvm.config} and {@code .mvn/extensions.xml}), hashed
 * before the command runs and held to the policy's pins. The hashes go into the attestation, so a
 * reader can tell which configuration an allowed {@code mvn -q test} really ran with.
 *
 * <p>A file is read without following symbolic links, anywhere on its path: a configuration
 * reached through a link could be swapped for another file between the hash and the tool's read,
 * or point at a device or pipe. Such a file, or one that is not a regular file or is larger than
 * {@value #MAX_BYTES} bytes, makes the command refused ({@code TOOL_CONFIGURATION_UNREADABLE}).
 */
public final class ToolConfiguration {
  private ToolConfiguration() {}

  /** How a file that does not exist is recorded. */
  public static final String ABSENT = "absent";
  /** How a file that cannot be hashed safely is recorded. */
  public static final String UNREADABLE = "unreadable";
  /** The largest configuration file hashed: 1 MiB. */
  public static final long MAX_BYTES = 1L << 20;

  /**
   * The state of a rule's tool configuration.
   *
   * @param files each named file, by repository-relative path, with its lower-case hex SHA-256,
   *     {@value #ABSENT} or {@value #UNREADABLE}
   * @param decision allowed, or refused with {@code TOOL_CONFIGURATION_MISMATCH} or
   *     {@code TOOL_CONFIGURATION_UNREADABLE} naming the first file in path order that failed
   */
  public record State(SortedMap<String, String> files, Decision decision) {
    public State {
      files = Collections.unmodifiableSortedMap(new TreeMap<>(Objects.requireNonNull(files, "files")));
      Objects.requireNonNull(decision, "decision");
    }
  }

  /** Hashes the files {@code rule} names in the repository at {@code repository} and checks them against their pins. */
  public static State inspect(Path repository, ExecutableRule rule) {
    Objects.requireNonNull(repository, "repository");
    Objects.requireNonNull(rule, "rule");
    SortedMap<String, String> files = new TreeMap<>();
    Decision decision = null;
    for (Map.Entry<String, ToolConfigurationPin> entry : rule.toolConfiguration().entrySet()) {
      String file = entry.getKey();
      Hash hash = hash(repository, file);
      files.put(file, hash.value());
      String rulePath = "executables." + rule.id() + ".toolConfiguration";
      if (decision == null && hash.problem() != null) {
        decision = Decision.deny(TOOL_CONFIGURATION_UNREADABLE, PolicyCodes.LAYER_OPERATOR, rulePath,
            "tool configuration file " + Printable.quote(file) + " of " + rule.id() + " " + hash.problem());
      } else if (decision == null) {
        String mismatch = mismatch(entry.getValue(), hash.value());
        if (mismatch != null) {
          decision = Decision.deny(TOOL_CONFIGURATION_MISMATCH, PolicyCodes.LAYER_OPERATOR, rulePath,
              "tool configuration file " + Printable.quote(file) + " of " + rule.id() + " " + mismatch);
        }
      }
    }
    return new State(files, decision != null ? decision : Decision.allow(PolicyCodes.LAYER_OPERATOR, "executables." + rule.id() + ".toolConfiguration"));
  }

  private record Hash(String value, String problem) {}

  private static String mismatch(ToolConfigurationPin pin, String value) {
    return switch (pin.expectation()) {
      case RECORDED -> null;
      case ABSENT -> value.equals(ABSENT) ? null : "must be absent, but exists";
      case SHA256 -> value.equals(pin.sha256().orElseThrow())
          ? null
          : "must have SHA-256 " + pin.sha256().get() + ", but " + (value.equals(ABSENT) ? "is absent" : "has " + value);
    };
  }

  private static Hash hash(Path repository, String file) {
    if (RepositoryPaths.problem(file).isPresent()) {
      return new Hash(UNREADABLE, "is not a repository-relative path: " + RepositoryPaths.problem(file).get());
    }
    List<String> segments = RepositoryPaths.segments(file);
    Path current = repository;
    for (int i = 0; i < segments.size(); i++) {
      current = current.resolve(segments.get(i));
      BasicFileAttributes attributes;
      try {
        attributes = Files.readAttributes(current, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      } catch (NoSuchFileException e) {
        return new Hash(ABSENT, null);
      } catch (IOException e) {
        return new Hash(UNREADABLE, "cannot be inspected: " + e.getMessage());
      }
      if (attributes.isSymbolicLink()) {
        return new Hash(UNREADABLE, "is reached through the symbolic link " + Printable.quote(repository.relativize(current).toString()));
      }
      boolean last = i == segments.size() - 1;
      if (!last && !attributes.isDirectory()) {
        return new Hash(ABSENT, null);
      }
      if (last && !attributes.isRegularFile()) {
        return new Hash(UNREADABLE, "is not a regular file");
      }
      if (last && attributes.size() > MAX_BYTES) {
        return new Hash(UNREADABLE, "has " + attributes.size() + " bytes; at most " + MAX_BYTES + " are hashed");
      }
    }
    return digest(current);
  }

  private static Hash digest(Path file) {
    MessageDigest digest = Sha256.newDigest();
    byte[] buffer = new byte[8192];
    long total = 0;
    try (InputStream in = Channels.newInputStream(Files.newByteChannel(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS))) {
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        total += n;
        if (total > MAX_BYTES) {
          return new Hash(UNREADABLE, "grew past " + MAX_BYTES + " bytes while it was hashed");
        }
        digest.update(buffer, 0, n);
      }
    } catch (IOException e) {
      return new Hash(UNREADABLE, "cannot be read: " + e.getMessage());
    }
    return new Hash(Sha256.hex(digest), null);
  }
}
