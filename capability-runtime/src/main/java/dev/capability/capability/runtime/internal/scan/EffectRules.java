package dev.capability.capability.runtime.internal.scan;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Which APIs can cause which effect. The list is a tripwire, not a proof: JDK classes that wrap
 * these APIs, native code, or a library's bugs can hide intent. What the scan looks for and what
 * it cannot see is documented, API by API, in {@code docs/capabilities.md}.
 *
 * <p>An effect id is an effect kind's id, or for {@code code.dynamic} the kind with the mechanism
 * as its scope ({@code code.dynamic(reflection)}), since the manifest must declare each mechanism
 * it uses, or one of the ids no manifest can declare.
 */
final class EffectRules {
  static final String NATIVE = "native.load";
  static final String DEFINE = "class.define";
  static final String INTERNAL = "jvm.internal";
  static final String REFLECTION = "code.dynamic(reflection)";
  static final String METHOD_HANDLES = "code.dynamic(method-handles)";
  static final String PROXY = "code.dynamic(proxy)";
  static final String SERVICE_LOADER = "code.dynamic(service-loader)";
  private static final String READ = "filesystem.read";
  private static final String WRITE = "filesystem.write";
  private static final String NETWORK = "network.connect";
  private static final String SPAWN = "process.spawn";
  private static final String SECRETS = "secrets.read";
  private static final String DATABASE = "database.write";
  private static final String EMAIL = "email.send";
  private static final String GIT = "git.mutate";

  /**
   * The bootstrap methods javac emits ({@code invokedynamic} for lambdas, string concatenation,
   * records and switches); any other bootstrap links a call site in code the scan cannot read.
   */
  private static final Set<String> STANDARD_BOOTSTRAPS =
      Set.of(
          "java/lang/invoke/LambdaMetafactory.metafactory",
          "java/lang/invoke/LambdaMetafactory.altMetafactory",
          "java/lang/invoke/StringConcatFactory.makeConcatWithConstants",
          "java/lang/invoke/StringConcatFactory.makeConcat",
          "java/lang/runtime/ObjectMethods.bootstrap",
          "java/lang/runtime/SwitchBootstraps.typeSwitch",
          "java/lang/runtime/SwitchBootstraps.enumSwitch");

  /**
   * {@code owner} is an internal name, or a package prefix ending in '/'; {@code members} empty for
   * any use of the class; {@code descriptorPrefix} null for any descriptor.
   */
  private record Rule(String owner, Set<String> members, String descriptorPrefix, String effect) {
    boolean isPrefix() {
      return owner.endsWith("/");
    }

    boolean ownerMatches(String name) {
      return isPrefix() ? name.startsWith(owner) : name.equals(owner);
    }

    boolean matchesClass(String name) {
      return members.isEmpty() && ownerMatches(name);
    }

    boolean matchesMember(String memberOwner, String name, String descriptor) {
      return ownerMatches(memberOwner)
          && (members.isEmpty() || members.contains(name))
          && (descriptorPrefix == null || descriptor.startsWith(descriptorPrefix));
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
          member("java/util/Formatter", "<init>", "(Ljava/lang/String;", WRITE),
          member("java/util/Formatter", "<init>", "(Ljava/io/File;", WRITE),
          members("java/nio/file/Files", WRITE, "write", "writeString", "newOutputStream", "newBufferedWriter",
              "newByteChannel", "copy", "move", "delete", "deleteIfExists", "createFile", "createDirectory",
              "createDirectories", "createTempFile", "createTempDirectory", "createLink", "createSymbolicLink",
              "setAttribute", "setPosixFilePermissions", "setLastModifiedTime", "setOwner"),
          members("java/nio/file/spi/FileSystemProvider", WRITE, "newByteChannel", "newFileChannel",
              "newAsynchronousFileChannel", "newOutputStream", "createDirectory", "createSymbolicLink", "createLink",
              "delete", "deleteIfExists", "copy", "move", "setAttribute", "newFileSystem"),
          members("java/nio/file/FileSystems", WRITE, "newFileSystem"),
          members("java/nio/channels/FileChannel", WRITE, "open"),
          members("java/nio/channels/AsynchronousFileChannel", WRITE, "open"),
          members("java/io/File", WRITE, "delete", "deleteOnExit", "mkdir", "mkdirs", "renameTo", "createNewFile",
              "createTempFile", "setWritable", "setReadable", "setExecutable", "setLastModified", "setReadOnly"),
          type("java/io/FileInputStream", READ),
          type("java/io/FileReader", READ),
          members("java/nio/file/Files", READ, "readAllBytes", "readString", "readAllLines", "lines",
              "newInputStream", "newBufferedReader", "list", "walk", "find", "newDirectoryStream", "walkFileTree"),
          members("java/nio/file/spi/FileSystemProvider", READ, "newInputStream", "newDirectoryStream"),
          members("java/io/File", READ, "list", "listFiles"),
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
          type("javax/naming/", NETWORK),
          members("java/net/URL", NETWORK, "openConnection", "openStream", "getContent"),
          members("java/net/InetAddress", NETWORK, "getByName", "getAllByName", "isReachable"),
          members("java/lang/System", SECRETS, "getenv"),
          members("java/lang/ProcessBuilder", SECRETS, "environment"),
          type("java/lang/ProcessBuilder", SPAWN),
          type("java/lang/ProcessHandle", SPAWN),
          members("java/lang/Runtime", SPAWN, "exec"),
          type("java/sql/DriverManager", DATABASE),
          members("java/sql/Driver", DATABASE, "connect"),
          members("javax/sql/DataSource", DATABASE, "getConnection"),
          members("javax/sql/ConnectionPoolDataSource", DATABASE, "getPooledConnection"),
          members("javax/sql/XADataSource", DATABASE, "getXAConnection"),
          type("javax/sql/RowSet", DATABASE),
          type("javax/sql/rowset/", DATABASE),
          type("javax/mail/Transport", EMAIL),
          type("jakarta/mail/Transport", EMAIL),
          type("org/eclipse/jgit/", GIT),
          members("java/lang/Class", REFLECTION, "forName", "newInstance"),
          members("java/lang/ClassLoader", REFLECTION, "loadClass", "findSystemClass"),
          members("java/lang/reflect/Method", REFLECTION, "invoke"),
          members("java/lang/reflect/Constructor", REFLECTION, "newInstance"),
          members("java/lang/reflect/Field", REFLECTION, "get", "getBoolean", "getByte", "getChar", "getShort", "getInt",
              "getLong", "getFloat", "getDouble", "set", "setBoolean", "setByte", "setChar", "setShort", "setInt", "setLong",
              "setFloat", "setDouble"),
          members("java/lang/reflect/InvocationHandler", REFLECTION, "invokeDefault"),
          member("java/io/ObjectInputStream", "<init>", null, REFLECTION),
          type("java/beans/XMLDecoder", REFLECTION),
          type("java/beans/Statement", REFLECTION),
          type("java/beans/Expression", REFLECTION),
          type("java/beans/EventHandler", REFLECTION),
          members("java/lang/invoke/MethodHandles$Lookup", METHOD_HANDLES, "findVirtual", "findStatic", "findSpecial",
              "findConstructor", "findGetter", "findSetter", "findStaticGetter", "findStaticSetter", "findVarHandle",
              "findStaticVarHandle", "findClass", "bind", "unreflect", "unreflectSpecial", "unreflectConstructor",
              "unreflectGetter", "unreflectSetter", "unreflectVarHandle"),
          members("java/lang/invoke/MethodHandles", METHOD_HANDLES, "privateLookupIn"),
          members("java/lang/reflect/Proxy", PROXY, "newProxyInstance", "getProxyClass"),
          members("java/lang/invoke/MethodHandleProxies", PROXY, "asInterfaceInstance"),
          members("java/util/ServiceLoader", SERVICE_LOADER, "load", "loadInstalled"),
          type("javax/script/ScriptEngineManager", SERVICE_LOADER),
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
    return new Rule(owner, Set.of(), null, effect);
  }

  private static Rule member(String owner, String member, String descriptorPrefix, String effect) {
    return new Rule(owner, Set.of(member), descriptorPrefix, effect);
  }

  private static Rule members(String owner, String effect, String... names) {
    return new Rule(owner, Set.of(names), null, effect);
  }

  /** The effects of naming class {@code internalName}, as written (package prefixes included). */
  static Set<String> forClass(String internalName) {
    Set<String> effects = new LinkedHashSet<>();
    RULES.stream().filter(rule -> rule.matchesClass(internalName)).forEach(rule -> effects.add(rule.effect()));
    return effects;
  }

  /**
   * The effects of using member {@code name} with {@code descriptor} of class {@code owner}, or of
   * a class that inherits it from {@code owner}: any rule for the class or for that member.
   *
   * @param asWritten whether the class reference names {@code owner} itself; a package prefix
   *     rule ({@code sun/}) matches only a name as written, never a JDK supertype reached from it
   */
  static Set<String> forMember(String owner, String name, String descriptor, boolean asWritten) {
    Set<String> effects = new LinkedHashSet<>();
    for (Rule rule : RULES) {
      if ((asWritten || !rule.isPrefix()) && rule.matchesMember(owner, name, descriptor)) {
        effects.add(rule.effect());
      }
    }
    return effects;
  }

  /** Whether {@code bootstrap} is one javac emits. */
  static boolean isStandardBootstrap(ClassFileReader.MemberRef bootstrap) {
    return STANDARD_BOOTSTRAPS.contains(bootstrap.owner() + "." + bootstrap.name());
  }
}
