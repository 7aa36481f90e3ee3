package dev.capability.backend.bwrap.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class MountOpTest {
  @Test
  void rendersBwrapOptions() {
    assertThat(MountOp.readOnlyBind(Path.of("/a"), Path.of("/b")).options())
        .containsExactly("--ro-bind", "/a", "/b");
    assertThat(MountOp.bind(Path.of("/a"), Path.of("/a")).options())
        .containsExactly("--bind", "/a", "/a");
    assertThat(MountOp.symlink("usr/bin", Path.of("/bin")).options())
        .containsExactly("--symlink", "usr/bin", "/bin");
    assertThat(MountOp.tmpfs(Path.of("/tmp"), OptionalLong.of(1024)).options())
        .containsExactly("--size", "1024", "--tmpfs", "/tmp");
    assertThat(MountOp.tmpfs(Path.of("/tmp"), OptionalLong.empty()).options())
        .containsExactly("--tmpfs", "/tmp");
    assertThat(MountOp.proc(Path.of("/proc")).options()).containsExactly("--proc", "/proc");
    assertThat(MountOp.dev(Path.of("/dev")).options()).containsExactly("--dev", "/dev");
    assertThat(MountOp.remountReadOnly(Path.of("/")).options())
        .containsExactly("--remount-ro", "/");
  }

  @Test
  void bindsAPinnedSourceByItsDescriptor() {
    assertThat(MountOp.readOnlyBind(Path.of("/repo"), Path.of("/repo")).options(OptionalInt.of(3)))
        .containsExactly("--ro-bind-fd", "3", "/repo");
    assertThat(MountOp.bind(Path.of("/repo/out"), Path.of("/repo/out")).options(OptionalInt.of(4)))
        .containsExactly("--bind-fd", "4", "/repo/out");
    assertThat(MountOp.readOnlyBind(Path.of("/usr"), Path.of("/usr")).options(OptionalInt.empty()))
        .containsExactly("--ro-bind", "/usr", "/usr");
  }

  @Test
  void refusesInconsistentSteps() {
    assertThatThrownBy(
            () -> new MountOp(MountOp.Kind.BIND, null, Path.of("/a"), OptionalLong.empty()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () -> new MountOp(MountOp.Kind.PROC, "/x", Path.of("/proc"), OptionalLong.empty()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () -> new MountOp(MountOp.Kind.PROC, null, Path.of("/proc"), OptionalLong.of(1)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
