package dev.capability.kernel.core.internal.audit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.testing.Git;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * Random small working trees (files, set-id and executable files, directories, unreadable
 * directories, symbolic links with odd targets, sockets, odd and undecodable names, ignore files):
 * the walk relative to directory descriptors records exactly what the JDK attribute walk records,
 * or fails where it fails.
 */
class SnapshotWalkProperties {
  private static final List<String> NAMES = List.of(
      "a", "a.b", "a-b", "a0", "B", "é", "名", "sp ace", "new\nline", "back\\slash", "tab\t", "-dash", "*",
      ".hidden", ".gitignore", "x".repeat(255));
  private static final List<String> TARGETS = List.of(
      "a", "../outside", "/etc/passwd", "a//b/", "名", "sp ace", "new\nline", ".", "..", "x".repeat(1000));
  private static final List<String> PATTERNS = List.of("*.b", "a/", "!a0", "/B", "é/", "sp ace", "**/a-b", "*");

  enum Kind { FILE, EXECUTABLE, SET_ID, DIRECTORY, UNREADABLE_DIRECTORY, SYMLINK, SOCKET }

  record Node(List<String> segments, Kind kind, String content) {
    String path() {
      return String.join("/", segments);
    }
  }

  record Shape(List<Node> nodes, List<String> rules, boolean undecodableName) {}

  @Property(tries = 40)
  void theDescriptorWalkRecordsWhatTheJdkWalkRecords(@ForAll("shapes") Shape shape) throws IOException {
    Path dir = Files.createTempDirectory("walk-property");
    List<Path> unreadable = new ArrayList<>();
    List<ServerSocketChannel> sockets = new ArrayList<>();
    try {
      Path repo = Git.init(dir.resolve("repo"));
      Files.writeString(repo.resolve(".gitignore"), String.join("\n", shape.rules()) + "\n", StandardCharsets.UTF_8);
      for (Node node : shape.nodes()) {
        materialize(repo, node, unreadable, sockets);
      }
      if (shape.undecodableName()) {
        touchUndecodable(repo);
      }
      for (Path path : unreadable) {
        Files.setAttribute(path, "unix:mode", 0);
      }
      Instant started = Instant.now();

      Outcome jdk = walk(repo, started, new JdkTreeReader());
      Outcome descriptors = walk(repo, started, new NativeTreeReader());

      assertThat(descriptors.failureCode()).isEqualTo(jdk.failureCode());
      if (jdk.snapshot().isPresent()) {
        RepositorySnapshot expected = jdk.snapshot().get();
        RepositorySnapshot actual = descriptors.snapshot().orElseThrow();
        assertThat(actual.entries()).containsExactlyEntriesOf(expected.entries());
        for (Map.Entry<String, PathState> entry : expected.entries().entrySet()) {
          boolean directory = entry.getValue().type() == EntryType.DIRECTORY;
          assertThat(actual.ignores().isIgnored(entry.getKey(), directory))
              .as("ignored: %s", entry.getKey())
              .isEqualTo(expected.ignores().isIgnored(entry.getKey(), directory));
        }
      }
    } finally {
      for (ServerSocketChannel socket : sockets) {
        socket.close();
      }
      // Parents first: a directory is made readable again before what it holds.
      for (int i = unreadable.size() - 1; i >= 0; i--) {
        Files.setAttribute(unreadable.get(i), "unix:mode", 0700);
      }
      WorkingTreeHashTest.deleteRecursively(dir);
    }
  }

  record Outcome(Optional<RepositorySnapshot> snapshot, Optional<String> failureCode) {}

  private static Outcome walk(Path repo, Instant started, TreeReader reader) throws IOException {
    try {
      return new Outcome(Optional.of(new SnapshotWalk(repo, started, Optional.empty(), reader).run()), Optional.empty());
    } catch (AuditException e) {
      return new Outcome(Optional.empty(), Optional.of(e.code()));
    } catch (IOException e) {
      return new Outcome(Optional.empty(), Optional.of("IOException"));
    }
  }

  @Provide
  Arbitrary<Shape> shapes() {
    Arbitrary<Node> node = Combinators.combine(
            Arbitraries.of(NAMES).list().ofMinSize(1).ofMaxSize(3),
            Arbitraries.of(Kind.class),
            Arbitraries.strings().alpha().ofMaxLength(12))
        .as(Node::new);
    return Combinators.combine(
            node.list().ofMaxSize(14),
            Arbitraries.of(PATTERNS).list().ofMaxSize(3),
            Arbitraries.frequency(Tuple.of(1, true), Tuple.of(6, false)))
        .as(Shape::new);
  }

  /** Creates the node unless an earlier node already claimed its path or a parent as a file. */
  private static void materialize(Path repo, Node node, List<Path> unreadable, List<ServerSocketChannel> sockets)
      throws IOException {
    Path path = repo.resolve(node.path());
    for (Path p = path.getParent(); !p.equals(repo); p = p.getParent()) {
      if (Files.exists(p, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
        return;
      }
    }
    if (Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    Files.createDirectories(path.getParent());
    switch (node.kind()) {
      case FILE:
        Files.writeString(path, node.content(), StandardCharsets.UTF_8);
        break;
      case EXECUTABLE:
        Files.writeString(path, node.content(), StandardCharsets.UTF_8);
        Files.setAttribute(path, "unix:mode", 0755);
        break;
      case SET_ID:
        Files.writeString(path, node.content(), StandardCharsets.UTF_8);
        Files.setAttribute(path, "unix:mode", 06751);
        break;
      case DIRECTORY:
        Files.createDirectories(path);
        break;
      case UNREADABLE_DIRECTORY:
        Files.createDirectories(path);
        unreadable.add(0, path);
        break;
      case SYMLINK:
        link(path, TARGETS.get(node.content().length() % TARGETS.size()));
        break;
      default:
        // A socket's path must fit sun_path (108 bytes).
        if (path.toString().getBytes(StandardCharsets.UTF_8).length < 100) {
          ServerSocketChannel socket = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
          socket.bind(UnixDomainSocketAddress.of(path));
          sockets.add(socket);
        }
    }
  }

  /** With ln, since Java normalizes a link's target ("a//b/" would become "a/b"). */
  private static void link(Path path, String target) throws IOException {
    try {
      Process ln = new ProcessBuilder("ln", "-s", "--", target, path.toString())
          .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      assertThat(ln.waitFor()).isZero();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
  }

  /**
   * Java cannot name such a file, so printf writes the name's bytes and xargs hands them to touch:
   * two programs joined by a pipe, each started by argv, no shell between them.
   */
  private static void touchUndecodable(Path repo) throws IOException {
    try {
      List<Process> made = ProcessBuilder.startPipeline(List.of(
          new ProcessBuilder("printf", "bad\\377name\\0").redirectError(ProcessBuilder.Redirect.DISCARD),
          new ProcessBuilder("xargs", "-0", "touch", "--").directory(repo.toFile()).redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)));
      for (Process process : made) {
        assertThat(process.waitFor()).isZero();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
  }
}
