package dev.capability.capability.runtime.internal.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class HostRequestProperties {

  @Provide
  Arbitrary<List<Path>> paths() {
    return Arbitraries.strings().ofMinLength(1).ofMaxLength(20).alpha().map(name -> Path.of("/", name)).list().ofMaxSize(4);
  }

  @Property
  void everyRequestDecodesToItself(
      @ForAll String module,
      @ForAll String integrity,
      @ForAll String entry,
      @ForAll String input,
      @ForAll("paths") List<Path> readable,
      @ForAll("paths") List<Path> writable,
      @ForAll boolean verify,
      @ForAll boolean rollback,
      @ForAll boolean startsPrograms) {
    // Lone surrogates cannot be encoded as UTF-8; the request's strings come from valid JSON and class names.
    String clean = module.replaceAll("\\p{Cs}", "");
    HostRequest request = new HostRequest(clean, integrity.replaceAll("\\p{Cs}", ""), entry.replaceAll("\\p{Cs}", ""),
        input.replaceAll("\\p{Cs}", ""), readable, writable, verify, rollback, startsPrograms);

    assertThat(HostRequest.decode(request.encode())).isEqualTo(request);
  }

  @Property
  void arbitraryBytesAreDecodedOrRefusedButNeverCrashTheHost(@ForAll byte[] bytes) {
    byte[] framed = new byte[bytes.length + 4];
    System.arraycopy(new byte[] {'C', 'K', 'H', '2'}, 0, framed, 0, 4);
    System.arraycopy(bytes, 0, framed, 4, bytes.length);
    try {
      HostRequest.decode(framed);
    } catch (IllegalArgumentException refused) {
      assertThat(refused.getMessage()).isNotBlank();
    }
  }

  @Property
  void aTruncatedRequestIsRefused(@ForAll("paths") List<Path> readable, @ForAll boolean verify) {
    byte[] bytes = new HostRequest("/m.jar", "sha512-x", "a.B", "{}", readable, List.of(), verify, false, false).encode();
    for (int cut = 0; cut < bytes.length; cut++) {
      byte[] prefix = java.util.Arrays.copyOf(bytes, cut);
      assertThatThrownBy(() -> HostRequest.decode(prefix)).isInstanceOf(IllegalArgumentException.class);
    }
  }
}
