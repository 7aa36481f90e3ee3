package dev.capability.kernel.core.internal.audit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.testing.Git;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/** Random small working trees, with random ignore rules and tracked files: the hash is Git's. */
class WorkingTreeHashProperties {
  private static final List<String> NAMES =
      List.of("a", "a.txt", "a-b", "a0", "B", "é", "sp ace", "x.log", "build", "keep.log", "名");
  private static final List<String> PATTERNS =
      List.of("*.log", "build/", "!keep.log", "/a", "é/", "sp ace", "a*", "!a.txt", "**/B", "*.txt");

  enum Kind { FILE, EXECUTABLE, SYMLINK, EMPTY_DIRECTORY }

  record Node(List<String> segments, Kind kind, String content, boolean tracked, boolean changedAfterAdd) {
    String path() {
      return String.join("/", segments);
    }
  }

  record Shape(List<Node> nodes, List<String> rootRules, List<String> nestedRules) {}

  @Property(tries = 40)
  void hashEqualsGitWriteTree(@ForAll("shapes") Shape shape) throws IOException {
    Path dir = Files.createTempDirectory("tree-property");
    try {
      Path repo = Git.init(dir.resolve("repo"));
      List<String> tracked = new ArrayList<>();
      for (Node node : shape.nodes()) {
        if (materialize(repo, node) && node.tracked() && node.kind() != Kind.EMPTY_DIRECTORY) {
          tracked.add(node.path());
        }
      }
      write(repo.resolve(".gitignore"), String.join("\n", shape.rootRules()) + "\n");
      if (Files.isDirectory(repo.resolve("a"), LinkOption.NOFOLLOW_LINKS)) {
        write(repo.resolve("a/.gitignore"), String.join("\n", shape.nestedRules()) + "\n");
      }
      if (!tracked.isEmpty()) {
        List<String> add = new ArrayList<>(List.of("add", "-f", "--"));
        add.addAll(tracked);
        Git.git(repo, add.toArray(String[]::new));
      }
      for (Node node : shape.nodes()) {
        Path file = repo.resolve(node.path());
        if (node.changedAfterAdd() && Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
          if (node.content().length() % 2 == 0) {
            Files.delete(file);
          } else {
            Files.writeString(file, node.content() + " changed", StandardCharsets.UTF_8);
          }
        }
      }
      String expected = Git.writeTree(repo, Files.createDirectories(dir.resolve("scratch"))).tree();
      assertThat(WorkingTreeHash.of(repo)).isEqualTo(expected);
    } finally {
      WorkingTreeHashTest.deleteRecursively(dir);
    }
  }

  @Provide
  Arbitrary<Shape> shapes() {
    Arbitrary<Node> node = Combinators.combine(
            Arbitraries.of(NAMES).list().ofMinSize(1).ofMaxSize(3),
            Arbitraries.of(Kind.class),
            Arbitraries.strings().alpha().ofMaxLength(12),
            Arbitraries.of(true, false),
            Arbitraries.frequency(Tuple.of(1, true), Tuple.of(3, false)))
        .as(Node::new);
    return Combinators.combine(
            node.list().ofMaxSize(12),
            Arbitraries.of(PATTERNS).list().ofMaxSize(4),
            Arbitraries.of(PATTERNS).list().ofMaxSize(2))
        .as(Shape::new);
  }

  /** Creates the node unless an earlier node already claimed its path or a parent as a file. */
  private static boolean materialize(Path repo, Node node) throws IOException {
    Path path = repo.resolve(node.path());
    for (Path p = path.getParent(); !p.equals(repo); p = p.getParent()) {
      if (Files.exists(p, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
        return false;
      }
    }
    if (Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
      return false;
    }
    Files.createDirectories(path.getParent());
    switch (node.kind()) {
      case FILE:
        write(path, node.content());
        break;
      case EXECUTABLE:
        write(path, node.content());
        Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rwxr-xr-x"));
        break;
      case SYMLINK:
        Files.createSymbolicLink(path, Path.of(node.content().isEmpty() ? "target" : node.content()));
        break;
      default:
        Files.createDirectories(path);
    }
    return true;
  }

  private static void write(Path file, String content) throws IOException {
    Files.writeString(file, content, StandardCharsets.UTF_8);
  }
}
