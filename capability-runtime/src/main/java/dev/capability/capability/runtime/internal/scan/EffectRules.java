package dev.capability.capability.runtime.internal.scan;

import java.util.List;
import java.util.Optional;

/**
 * Which JDK APIs can cause which effect. The list is a tripwire, not a proof: reflection, method
 * handles built from strings, native code or JDK classes that wrap these APIs can hide intent.
 */
final class EffectRules {
  static final String NATIVE = "native.load";
  static final String DEFINE = "class.define";
  static final String INTERNAL = "jvm.internal";
  private static final String READ = "filesystem.read";
  private static final String WRITE = "filesystem.write";
  private static final String NETWORK = "network.connect";
  private static final String SPAWN = "process.spawn";

  /** {@code owner} is an internal name, or a package prefix ending in '/'; {@code member} null for any use. */
  private record Rule(String owner, String member, String descriptorPrefix, String effect) {
    boolean matchesClass(String name) {
      return member == null && (owner.endsWith("/") ? name.startsWith(owner) : name.equals(owner));
    }

    boolean matchesMember(ClassFileReader.MemberRef ref) {
      boolean ownerMatches = owner.endsWith("/") ? ref.owner().startsWith(owner) : ref.owner().equals(owner);
      return ownerMatches
          && (member == null || member.equals(ref.name()))
          && (descriptorPrefix == null || ref.descriptor().startsWith(descriptorPrefix));
    }
  }

  private static final List<Rule> RULES =
      List.of(
          type("java/io/FileOutputStream", WRITE),
          type("java/io/FileWriter", WRITE),
          type("java/io/RandomAccessFile", WRITE),
          type("java/util/logging/FileHandler", WRITE),
          member("java/io/PrintWriter", "<init>", "(Ljava/lang/String;", WRITE),
          member("java/io/PrintWriter", "<init>", "(Ljava/io/File;", WRITE),
          member("java/io/PrintStream", "<init>", "(Ljava/lang/String;", WRITE),
          member("java/io/PrintStream", "<init>", "(Ljava/io/File;", WRITE),
          members("java/nio/file/Files", WRITE, "write", "writeString", "newOutputStream", "newBufferedWriter",
              "newByteChannel", "copy", "move", "delete", "deleteIfExists", "createFile", "createDirectory",
              "createDirectories", "createTempFile", "createTempDirectory", "createLink", "createSymbolicLink",
              "setAttribute", "setPosixFilePermissions", "setLastModifiedTime", "setOwner"),
          member("java/nio/channels/FileChannel", "open", null, WRITE),
          members("java/io/File", WRITE, "delete", "deleteOnExit", "mkdir", "mkdirs", "renameTo", "createNewFile",
              "createTempFile", "setWritable", "setReadable", "setExecutable", "setLastModified", "setReadOnly"),
          type("java/io/FileInputStream", READ),
          type("java/io/FileReader", READ),
          members("java/nio/file/Files", READ, "readAllBytes", "readString", "readAllLines", "lines",
              "newInputStream", "newBufferedReader", "list", "walk", "find", "newDirectoryStream", "walkFileTree"),
          type("java/net/Socket", NETWORK),
          type("java/net/ServerSocket", NETWORK),
          type("java/net/DatagramSocket", NETWORK),
          type("java/net/MulticastSocket", NETWORK),
          type("java/net/HttpURLConnection", NETWORK),
          type("java/net/URLConnection", NETWORK),
          type("java/net/http/", NETWORK),
          type("java/nio/channels/SocketChannel", NETWORK),
          type("java/nio/channels/ServerSocketChannel", NETWORK),
          type("java/nio/channels/DatagramChannel", NETWORK),
          type("java/nio/channels/AsynchronousSocketChannel", NETWORK),
          type("java/nio/channels/AsynchronousServerSocketChannel", NETWORK),
          type("javax/net/", NETWORK),
          type("java/rmi/", NETWORK),
          members("java/net/URL", NETWORK, "openConnection", "openStream", "getContent"),
          members("java/net/InetAddress", NETWORK, "getByName", "getAllByName", "isReachable"),
          type("java/lang/ProcessBuilder", SPAWN),
          type("java/lang/ProcessHandle", SPAWN),
          member("java/lang/Runtime", "exec", null, SPAWN),
          members("java/lang/System", NATIVE, "load", "loadLibrary"),
          members("java/lang/Runtime", NATIVE, "load", "loadLibrary"),
          members("java/lang/ClassLoader", DEFINE, "defineClass", "defineClass1"),
          members("java/security/SecureClassLoader", DEFINE, "defineClass"),
          members("java/lang/invoke/MethodHandles$Lookup", DEFINE, "defineClass", "defineHiddenClass",
              "defineHiddenClassWithClassData"),
          type("java/net/URLClassLoader", DEFINE),
          type("javax/tools/", DEFINE),
          type("sun/misc/Unsafe", INTERNAL),
          type("jdk/internal/", INTERNAL),
          type("sun/", INTERNAL),
          type("java/lang/instrument/", INTERNAL),
          type("com/sun/tools/attach/", INTERNAL),
          type("com/sun/jna/", NATIVE),
          type("java/lang/foreign/", NATIVE));

  private EffectRules() {}

  private static Rule type(String owner, String effect) {
    return new Rule(owner, null, null, effect);
  }

  private static Rule member(String owner, String member, String descriptorPrefix, String effect) {
    return new Rule(owner, member, descriptorPrefix, effect);
  }

  private static Rule members(String owner, String effect, String... names) {
    // Several members of one owner share an effect; matched one by one in forMember.
    return new Rule(owner, "|" + String.join("|", names) + "|", null, effect);
  }

  static Optional<String> forClass(String internalName) {
    return RULES.stream().filter(rule -> rule.matchesClass(internalName)).map(Rule::effect).findFirst();
  }

  static Optional<String> forMember(ClassFileReader.MemberRef ref) {
    for (Rule rule : RULES) {
      if (rule.member != null && rule.member.startsWith("|")) {
        boolean ownerMatches = rule.owner.equals(ref.owner());
        if (ownerMatches && rule.member.contains("|" + ref.name() + "|")) {
          return Optional.of(rule.effect);
        }
      } else if (rule.matchesMember(ref)) {
        return Optional.of(rule.effect);
      }
    }
    return Optional.empty();
  }
}
