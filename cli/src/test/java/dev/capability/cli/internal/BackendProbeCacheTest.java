package dev.capability.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.testing.Ownership;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The probe cache keeps only this user's private, well-formed entries; everything else is refused and said. */
class BackendProbeCacheTest {
  private static final String IDENTITY = "a".repeat(64);
  private static final BackendProbe PROBE = new BackendProbe("bwrap", IDENTITY, true, "",
      Set.of(IsolationCapability.PID_NAMESPACE, IsolationCapability.NETWORK_NAMESPACE), Map.of("bwrap", "0.8.0"), Map.of("cgroup", "v2"));

  @TempDir Path tmp;
  private final List<String> notices = new ArrayList<>();
  private Path directory;
  private BackendProbeCache cache;

  @BeforeEach
  void cache() throws Exception {
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwx------"));
    directory = tmp.resolve("cache").resolve("capability").resolve("backend-probes");
    cache = new BackendProbeCache(Optional.of(directory), notices::add);
  }

  private Path entry() {
    return directory.resolve("bwrap.properties");
  }

  @Test
  void anEntryIsKeptInAPrivateDirectoryAndReadBackForTheSameIdentity() throws Exception {
    cache.write(PROBE);

    assertThat(cache.read("bwrap", IDENTITY)).contains(PROBE);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(directory))).isEqualTo("rwx------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(directory.getParent()))).isEqualTo("rwx------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(entry()))).isEqualTo("rw-------");
    assertThat(Files.getAttribute(entry(), "unix:uid")).isEqualTo(Ownership.currentUid());
    assertThat(notices).isEmpty();
  }

  @Test
  void anEntryProbedWithAnotherIdentityIsStaleAndQuietlyIgnored() {
    cache.write(PROBE);

    assertThat(cache.read("bwrap", "b".repeat(64))).isEmpty();
    assertThat(notices).isEmpty();
  }

  @Test
  void aGroupWritableEntryIsRefusedSaidOnceAndReplacedByTheNextWrite() throws Exception {
    cache.write(PROBE);
    Files.setPosixFilePermissions(entry(), PosixFilePermissions.fromString("rw--w----"));

    assertThat(cache.read("bwrap", IDENTITY)).isEmpty();
    assertThat(notices).singleElement().asString().contains(entry().toString()).contains("writable by its group").contains("probing bwrap live");

    cache.write(PROBE);
    assertThat(cache.read("bwrap", IDENTITY)).contains(PROBE);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(entry()))).isEqualTo("rw-------");
  }

  @Test
  void anEntryOwnedByAnotherUserIsRefused() throws Exception {
    assumeTrue(Ownership.currentUid() == 0, "giving a file to another uid needs root");
    cache.write(PROBE);
    Files.setAttribute(entry(), "unix:uid", 4242, LinkOption.NOFOLLOW_LINKS);

    assertThat(cache.read("bwrap", IDENTITY)).isEmpty();
    assertThat(notices).singleElement().asString().contains("belongs to uid 4242");
  }

  @Test
  void aCorruptOrTruncatedEntryIsRefused() throws Exception {
    cache.write(PROBE);
    String whole = Files.readString(entry());
    Files.writeString(entry(), "{\"id\": \"bwrap\", \"available\": true");
    assertThat(cache.read("bwrap", IDENTITY)).isEmpty();

    Files.writeString(entry(), whole.replace("end=end", ""));
    assertThat(cache.read("bwrap", IDENTITY)).isEmpty();

    Files.writeString(entry(), whole.replace("PID_NAMESPACE", "EVERYTHING"));
    assertThat(cache.read("bwrap", IDENTITY)).isEmpty();

    assertThat(notices).hasSize(3);
    assertThat(notices.get(0)).contains("not a format 1 entry");
    assertThat(notices.get(1)).contains("incomplete");
    assertThat(notices.get(2)).contains("EVERYTHING");
  }

  @Test
  void anEntryThatIsASymbolicLinkIsRefusedEvenToAGoodEntry() throws Exception {
    cache.write(PROBE);
    Path elsewhere = tmp.resolve("elsewhere.properties");
    Files.move(entry(), elsewhere);
    Files.createSymbolicLink(entry(), elsewhere);

    assertThat(cache.read("bwrap", IDENTITY)).isEmpty();
    assertThat(notices).singleElement().asString().contains("symbolic link");
  }

  @Test
  void aDirectoryWritableByOthersIsRefusedAndNeverWrittenTo() throws Exception {
    cache.write(PROBE);
    Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwxrwxrwx"));

    assertThat(cache.read("bwrap", IDENTITY)).isEmpty();
    Files.delete(entry());
    cache.write(PROBE);

    assertThat(entry()).doesNotExist();
    assertThat(notices).singleElement().asString().contains("directory").contains("writable by its group or by others");
  }

  @Test
  void aDirectoryThatIsASymbolicLinkIsRefused() throws Exception {
    Path real = Files.createDirectories(tmp.resolve("real"));
    Files.setPosixFilePermissions(real, PosixFilePermissions.fromString("rwx------"));
    Files.createDirectories(directory.getParent());
    Files.createSymbolicLink(directory, real);

    cache.write(PROBE);

    assertThat(real.resolve("bwrap.properties")).doesNotExist();
    assertThat(notices).singleElement().asString().contains("symbolic link");
  }
}
