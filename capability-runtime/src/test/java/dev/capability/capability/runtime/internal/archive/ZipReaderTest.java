package dev.capability.capability.runtime.internal.archive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.capability.runtime.PackageRefusedException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ZipReaderTest {

  private static PackageContents read(ZipBuilder zip) {
    return ZipReader.read(zip.build(), ArchiveLimits.DEFAULT, true);
  }

  private static void assertRefused(ZipBuilder zip, String code) {
    assertThatThrownBy(() -> read(zip))
        .isInstanceOf(PackageRefusedException.class)
        .extracting(e -> ((PackageRefusedException) e).code())
        .isEqualTo(code);
  }

  @Test
  void readsStoredDeflatedAndDirectoryEntries() {
    ZipBuilder zip = new ZipBuilder();
    zip.add("lib/", "");
    zip.add("lib/a.txt", "hello");
    zip.add("b.txt", "world ".repeat(100)).deflated();
    PackageContents contents = read(zip);
    assertThat(contents.fileNames()).containsExactly("b.txt", "lib/a.txt");
    assertThat(new String(contents.file("b.txt").orElseThrow(), StandardCharsets.UTF_8)).startsWith("world world");
    assertThat(contents.directories()).containsExactly("lib");
  }

  @Test
  void readsWhatTheJdkWrites() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ZipOutputStream out = new ZipOutputStream(bytes)) {
      out.putNextEntry(new ZipEntry("x/y.txt"));
      out.write("data".repeat(50).getBytes(StandardCharsets.UTF_8));
      out.closeEntry();
    }
    PackageContents contents = ZipReader.read(bytes.toByteArray(), ArchiveLimits.DEFAULT, true);
    assertThat(contents.fileNames()).containsExactly("x/y.txt");
  }

  @ParameterizedTest
  @CsvSource({
    "../evil.txt, ARCHIVE_PATH_TRAVERSAL",
    "a/../../evil.txt, ARCHIVE_PATH_TRAVERSAL",
    "/etc/passwd, ARCHIVE_PATH_TRAVERSAL",
    "'a\\b.txt', ARCHIVE_PATH_TRAVERSAL",
    "C:/evil.txt, ARCHIVE_PATH_TRAVERSAL",
    "a//b.txt, ARCHIVE_NON_CANONICAL_NAME",
    "./a.txt, ARCHIVE_NON_CANONICAL_NAME",
    "con.txt, ARCHIVE_HOSTILE_NAME",
    "'a.txt ', ARCHIVE_HOSTILE_NAME",
    "a?.txt, ARCHIVE_HOSTILE_NAME",
  })
  void refusesHostilePaths(String name, String code) {
    ZipBuilder zip = new ZipBuilder();
    zip.add(name, "x");
    assertRefused(zip, code);
  }

  @Test
  void refusesControlAndBidiCharactersInNames() {
    ZipBuilder zip = new ZipBuilder();
    zip.add("invoice\u202Etxt.exe", "x");
    assertRefused(zip, "ARCHIVE_HOSTILE_NAME");
    ZipBuilder nul = new ZipBuilder();
    nul.add("a\u0000b", "x");
    assertRefused(nul, "ARCHIVE_HOSTILE_NAME");
  }

  @Test
  void refusesNonUtf8NamesAndNonAsciiNamesWithoutTheUtf8Flag() {
    ZipBuilder zip = new ZipBuilder();
    zip.add("x", "x").rawName = new byte[] {'a', (byte) 0xff, 'b'};
    assertRefused(zip, "ARCHIVE_HOSTILE_NAME");
    ZipBuilder legacy = new ZipBuilder();
    legacy.add("caf\u00e9", "x").flags = 0;
    assertRefused(legacy, "ARCHIVE_HOSTILE_NAME");
  }

  @Test
  void refusesDuplicateEntries() {
    ZipBuilder zip = new ZipBuilder();
    zip.add("a.txt", "one");
    zip.add("a.txt", "two");
    assertRefused(zip, "ARCHIVE_DUPLICATE_ENTRY");
  }

  @Test
  void refusesCaseAndNormalizationCollisions() {
    ZipBuilder caseOnly = new ZipBuilder();
    caseOnly.add("Readme.txt", "one");
    caseOnly.add("README.txt", "two");
    assertRefused(caseOnly, "ARCHIVE_NAME_COLLISION");
    ZipBuilder unicode = new ZipBuilder();
    unicode.add("caf\u00e9.txt", "composed");
    unicode.add("cafe\u0301.txt", "decomposed");
    assertRefused(unicode, "ARCHIVE_NAME_COLLISION");
    ZipBuilder directories = new ZipBuilder();
    directories.add("Lib/a.txt", "one");
    directories.add("lib/b.txt", "two");
    assertRefused(directories, "ARCHIVE_NAME_COLLISION");
  }

  @Test
  void refusesAFileUsedAsADirectory() {
    ZipBuilder zip = new ZipBuilder();
    zip.add("a", "file");
    zip.add("a/b", "below the file");
    assertRefused(zip, "ARCHIVE_NAME_COLLISION");
  }

  @Test
  void refusesSymlinksAndDevices() {
    ZipBuilder link = new ZipBuilder();
    link.add("link", "/etc/passwd").unixMode = 0120777;
    assertRefused(link, "ARCHIVE_SYMLINK");
    ZipBuilder device = new ZipBuilder();
    device.add("tty", "").unixMode = 0020620;
    assertRefused(device, "ARCHIVE_SPECIAL_FILE");
  }

  @Test
  void refusesCentralAndLocalNamesThatDiffer() {
    ZipBuilder zip = new ZipBuilder();
    zip.add("harmless.txt", "x").centralName = "evil.txt";
    assertRefused(zip, "ARCHIVE_HEADER_MISMATCH");
  }

  @Test
  void refusesCentralAndLocalFlagsThatDiffer() {
    byte[] bytes = ZipBuilder.single("a.txt", "x");
    bytes[7] = 0; // local flags lose the UTF-8 bit (0x0800) the central directory keeps
    assertThatThrownBy(() -> ZipReader.read(bytes, ArchiveLimits.DEFAULT, true))
        .extracting(e -> ((PackageRefusedException) e).code())
        .isEqualTo("ARCHIVE_HEADER_MISMATCH");
  }

  @Test
  void refusesPrependedAppendedAndHiddenBytes() {
    ZipBuilder prepended = new ZipBuilder();
    prepended.prefix = "#!/bin/sh\nexec evil\n".getBytes(StandardCharsets.UTF_8);
    prepended.add("a.txt", "x");
    assertRefused(prepended, "ARCHIVE_PREPENDED_DATA");
    ZipBuilder appended = new ZipBuilder();
    appended.trailer = "hidden".getBytes(StandardCharsets.UTF_8);
    appended.add("a.txt", "x");
    assertRefused(appended, "ARCHIVE_PREPENDED_DATA");
    ZipBuilder between = new ZipBuilder();
    between.betweenEntries = "hidden".getBytes(StandardCharsets.UTF_8);
    between.add("a.txt", "x");
    between.add("b.txt", "y");
    assertRefused(between, "ARCHIVE_PREPENDED_DATA");
    ZipBuilder beforeCentral = new ZipBuilder();
    beforeCentral.afterEntries = "hidden".getBytes(StandardCharsets.UTF_8);
    beforeCentral.add("a.txt", "x");
    assertRefused(beforeCentral, "ARCHIVE_PREPENDED_DATA");
  }

  @Test
  void refusesEntriesSharingOneLocalHeader() {
    ZipBuilder zip = new ZipBuilder();
    zip.secondCentralPointsAtFirstLocal = true;
    zip.add("a.txt", "x");
    zip.add("b.txt", "x");
    assertRefused(zip, "ARCHIVE_OVERLAPPING_ENTRIES");
  }

  @Test
  void refusesCompressionBombsByRatioAndSize() {
    ZipBuilder ratio = new ZipBuilder();
    ratio.add("zeros.bin", new byte[4 << 20]).deflated();
    assertRefused(ratio, "ARCHIVE_BOMB");
    ArchiveLimits small = new ArchiveLimits(1 << 20, 10, 1024, 4096, 100);
    ZipBuilder large = new ZipBuilder();
    large.add("big.bin", new byte[2048]);
    assertThatThrownBy(() -> ZipReader.read(large.build(), small, true))
        .extracting(e -> ((PackageRefusedException) e).code())
        .isEqualTo("ARCHIVE_BOMB");
  }

  @Test
  void refusesTooManyEntriesBeforeReadingAny() {
    ZipBuilder zip = new ZipBuilder();
    for (int i = 0; i < 11; i++) {
      zip.add("f" + i, "x");
    }
    ArchiveLimits small = new ArchiveLimits(1 << 20, 10, 1024, 4096, 100);
    assertThatThrownBy(() -> ZipReader.read(zip.build(), small, true))
        .extracting(e -> ((PackageRefusedException) e).code())
        .isEqualTo("ARCHIVE_BOMB");
  }

  @Test
  void refusesADeclaredSizeThatTheDataContradicts() {
    ZipBuilder zip = new ZipBuilder();
    zip.add("a.txt", "hello hello hello").deflated().declaredSize = 5;
    assertRefused(zip, "ARCHIVE_HEADER_MISMATCH");
  }

  @Test
  void refusesNestedArchivesByNameAndContent() {
    ZipBuilder byName = new ZipBuilder();
    byName.add("inner.zip", "x");
    assertRefused(byName, "ARCHIVE_NESTED");
    ZipBuilder byContent = new ZipBuilder();
    byContent.add("inner.bin", ZipBuilder.single("a", "b"));
    assertRefused(byContent, "ARCHIVE_NESTED");
    ZipBuilder jarInModule = new ZipBuilder();
    jarInModule.add("lib/inner.jar", ZipBuilder.single("a", "b"));
    assertThatThrownBy(() -> ZipReader.read(jarInModule.build(), ArchiveLimits.DEFAULT, false))
        .extracting(e -> ((PackageRefusedException) e).code())
        .isEqualTo("ARCHIVE_NESTED");
  }

  @Test
  void refusesEncryptedAndUnsupportedEntries() {
    ZipBuilder encrypted = new ZipBuilder();
    encrypted.add("a.txt", "x").flags |= 1;
    assertRefused(encrypted, "ARCHIVE_ENCRYPTED");
    ZipBuilder bzip2 = new ZipBuilder();
    bzip2.add("a.txt", "x").method = 12;
    assertRefused(bzip2, "ARCHIVE_UNSUPPORTED");
    ZipBuilder comment = new ZipBuilder();
    comment.add("a.txt", "x").commentLength = 4;
    assertRefused(comment, "ARCHIVE_UNSUPPORTED");
  }
}
