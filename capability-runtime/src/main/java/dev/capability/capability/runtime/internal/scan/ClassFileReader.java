package dev.capability.capability.runtime.internal.scan;

import dev.capability.capability.runtime.CapabilityCodes;
import dev.capability.capability.runtime.PackageRefusedException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads the constant pool of a class file, and the descriptors of its own fields and methods, as
 * bytes, never through a class loader: the class is never defined, linked or initialized. The
 * effect scanner reads what a class calls; the child JVM's host class path, what it needs loaded.
 */
public final class ClassFileReader {
  private static final int UTF8 = 1;
  private static final int INTEGER = 3;
  private static final int FLOAT = 4;
  private static final int LONG = 5;
  private static final int DOUBLE = 6;
  private static final int CLASS = 7;
  private static final int STRING = 8;
  private static final int FIELD = 9;
  private static final int METHOD = 10;
  private static final int INTERFACE_METHOD = 11;
  private static final int NAME_AND_TYPE = 12;
  private static final int METHOD_HANDLE = 15;
  private static final int METHOD_TYPE = 16;
  private static final int DYNAMIC = 17;
  private static final int INVOKE_DYNAMIC = 18;
  private static final int MODULE = 19;
  private static final int PACKAGE = 20;

  /** A field or method reference: owner internal name, member name and descriptor. */
  public record MemberRef(String owner, String name, String descriptor) {}

  /**
   * What a class refers to, and what it is.
   *
   * @param superClass the internal name of its superclass, empty only for {@code java/lang/Object}
   *     and module descriptors
   * @param interfaces the internal names of the interfaces it implements or extends
   * @param classes the constant pool's class entries (array classes as their descriptors)
   * @param descriptors every field and method descriptor the class holds: of its own members, of
   *     the members it refers to, and its method types
   * @param declared the class's own fields and methods, each as name and descriptor ({@code
   *     thisClass} as owner)
   * @param bootstraps the method each of its {@code invokedynamic} and dynamic constants is
   *     bootstrapped by
   * @param version the class file's major and minor version
   * @param module the directives of a {@code module-info} class's {@code Module} attribute, or
   *     none for an ordinary class
   */
  public record References(
      String thisClass,
      Optional<String> superClass,
      List<String> interfaces,
      Set<String> classes,
      List<MemberRef> members,
      Set<String> strings,
      Set<String> descriptors,
      Set<MemberRef> declared,
      List<MemberRef> bootstraps,
      Version version,
      Optional<ModuleDirectives> module) {
    /** Whether this class itself declares a field or method {@code name} of {@code descriptor}. */
    public boolean declares(String name, String descriptor) {
      return declared.contains(new MemberRef(thisClass, name, descriptor));
    }

    /**
     * The internal names ({@code a/b/C}) of every class this one names, in class entries or in
     * descriptors (the verifier and reflection may load a type named only in a descriptor), arrays
     * reduced to their element class, primitives left out.
     */
    public Set<String> referencedClassNames() {
      Set<String> names = new TreeSet<>();
      for (String name : classes) {
        if (name.startsWith("[")) {
          addDescriptorTypes(name, names);
        } else {
          names.add(name);
        }
      }
      descriptors.forEach(descriptor -> addDescriptorTypes(descriptor, names));
      return names;
    }

    private void addDescriptorTypes(String descriptor, Set<String> names) {
      int at = 0;
      while (at < descriptor.length()) {
        if (descriptor.charAt(at) == 'L') {
          int end = descriptor.indexOf(';', at);
          if (end < 0) {
            throw invalid(thisClass, "has the descriptor " + descriptor + " with an unterminated class type");
          }
          names.add(descriptor.substring(at + 1, end));
          at = end + 1;
        } else {
          at++;
        }
      }
    }
  }

  /** A class file's version: {@code major} 61 is Java 17; {@code minor} 0xFFFF marks preview features. */
  public record Version(int major, int minor) {}

  /** How many {@code opens} and {@code provides} directives a module descriptor holds. */
  public record ModuleDirectives(int opens, int provides) {}

  private ClassFileReader() {}

  /**
   * @param where the class file's name, for messages
   * @throws PackageRefusedException {@code CLASS_FILE_INVALID} when the bytes are not a class file
   *     this reader understands
   */
  public static References read(byte[] bytes, String where) {
    try {
      ByteBuffer in = ByteBuffer.wrap(bytes);
      if (in.getInt() != 0xCAFEBABE) {
        throw invalid(where, "does not start with 0xCAFEBABE");
      }
      int minor = in.getShort() & 0xffff;
      int major = in.getShort() & 0xffff;
      int count = in.getShort() & 0xffff;
      int[] tags = new int[count];
      int[] first = new int[count];
      int[] second = new int[count];
      String[] utf8 = new String[count];
      for (int i = 1; i < count; i++) {
        int tag = in.get() & 0xff;
        tags[i] = tag;
        switch (tag) {
          case UTF8 -> {
            byte[] text = new byte[in.getShort() & 0xffff];
            in.get(text);
            // Modified UTF-8 differs from UTF-8 only for NUL and supplementary characters, which no
            // JDK API name we look for contains.
            utf8[i] = new String(text, StandardCharsets.UTF_8);
          }
          case INTEGER, FLOAT -> in.getInt();
          case LONG, DOUBLE -> {
            in.getLong();
            i++;
          }
          case CLASS, STRING, METHOD_TYPE, MODULE, PACKAGE -> first[i] = in.getShort() & 0xffff;
          case FIELD, METHOD, INTERFACE_METHOD, NAME_AND_TYPE, DYNAMIC, INVOKE_DYNAMIC -> {
            first[i] = in.getShort() & 0xffff;
            second[i] = in.getShort() & 0xffff;
          }
          case METHOD_HANDLE -> {
            in.get();
            first[i] = in.getShort() & 0xffff;
          }
          default -> throw invalid(where, "has unknown constant-pool tag " + tag + " at index " + i);
        }
      }
      in.getShort();
      int thisIndex = in.getShort() & 0xffff;
      String thisClass = utf8(utf8, tags, first, thisIndex, CLASS, where);
      Set<String> classes = new LinkedHashSet<>();
      Set<String> strings = new LinkedHashSet<>();
      Set<String> descriptors = new LinkedHashSet<>();
      List<MemberRef> members = new ArrayList<>();
      MemberRef[] memberAt = new MemberRef[count];
      for (int i = 1; i < count; i++) {
        switch (tags[i]) {
          case CLASS -> classes.add(utf8(utf8, tags, first, i, CLASS, where));
          case STRING -> strings.add(utf8(utf8, tags, first, i, STRING, where));
          case FIELD, METHOD, INTERFACE_METHOD -> {
            String owner = utf8(utf8, tags, first, first[i], CLASS, where);
            int nameAndType = second[i];
            check(tags, nameAndType, NAME_AND_TYPE, where);
            memberAt[i] = new MemberRef(owner, plain(utf8, tags, first[nameAndType], where), plain(utf8, tags, second[nameAndType], where));
            members.add(memberAt[i]);
          }
          case NAME_AND_TYPE -> descriptors.add(plain(utf8, tags, second[i], where));
          case METHOD_TYPE -> descriptors.add(plain(utf8, tags, first[i], where));
          default -> {}
        }
      }
      int superIndex = in.getShort() & 0xffff;
      Optional<String> superClass = superIndex == 0 ? Optional.empty() : Optional.of(utf8(utf8, tags, first, superIndex, CLASS, where));
      int interfaceCount = in.getShort() & 0xffff;
      List<String> interfaces = new ArrayList<>();
      for (int n = 0; n < interfaceCount; n++) {
        interfaces.add(utf8(utf8, tags, first, in.getShort() & 0xffff, CLASS, where));
      }
      Set<MemberRef> declared = new LinkedHashSet<>();
      for (int kind = 0; kind < 2; kind++) {
        int memberCount = in.getShort() & 0xffff;
        for (int m = 0; m < memberCount; m++) {
          in.getShort();
          String name = plain(utf8, tags, in.getShort() & 0xffff, where);
          String descriptor = plain(utf8, tags, in.getShort() & 0xffff, where);
          descriptors.add(descriptor);
          declared.add(new MemberRef(thisClass, name, descriptor));
          int attributes = in.getShort() & 0xffff;
          for (int a = 0; a < attributes; a++) {
            in.getShort();
            int length = in.getInt();
            in.position(Math.addExact(in.position(), length));
          }
        }
      }
      Optional<ModuleDirectives> module = Optional.empty();
      List<MemberRef> bootstraps = new ArrayList<>();
      int classAttributes = in.getShort() & 0xffff;
      for (int a = 0; a < classAttributes; a++) {
        String name = plain(utf8, tags, in.getShort() & 0xffff, where);
        int length = in.getInt();
        int end = Math.addExact(in.position(), length);
        if (name.equals("Module")) {
          module = Optional.of(moduleDirectives(in));
        } else if (name.equals("BootstrapMethods")) {
          bootstraps.addAll(bootstrapMethods(in, tags, first, memberAt, where));
        }
        in.position(end);
      }
      return new References(
          thisClass, superClass, List.copyOf(interfaces), classes, members, strings, descriptors, declared, List.copyOf(bootstraps),
          new Version(major, minor), module);
    } catch (RuntimeException e) {
      if (e instanceof PackageRefusedException refused) {
        throw refused;
      }
      throw invalid(where, "is malformed (" + e.getClass().getSimpleName() + ")");
    }
  }

  /** Reads a {@code Module} attribute's body up to its {@code provides} count (JVMS 4.7.25). */
  private static ModuleDirectives moduleDirectives(ByteBuffer in) {
    in.position(in.position() + 6);
    int requires = in.getShort() & 0xffff;
    in.position(in.position() + 6 * requires);
    skipPackageDirectives(in);
    int opens = skipPackageDirectives(in);
    int uses = in.getShort() & 0xffff;
    in.position(in.position() + 2 * uses);
    int provides = in.getShort() & 0xffff;
    return new ModuleDirectives(opens, provides);
  }

  /** Reads a {@code BootstrapMethods} attribute's body (JVMS 4.7.23): the method behind each handle. */
  private static List<MemberRef> bootstrapMethods(ByteBuffer in, int[] tags, int[] first, MemberRef[] memberAt, String where) {
    int count = in.getShort() & 0xffff;
    List<MemberRef> methods = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      int handle = in.getShort() & 0xffff;
      check(tags, handle, METHOD_HANDLE, where);
      int reference = first[handle];
      if (reference <= 0 || reference >= memberAt.length || memberAt[reference] == null) {
        throw invalid(where, "has a bootstrap method handle that refers to no member at index " + reference);
      }
      methods.add(memberAt[reference]);
      int arguments = in.getShort() & 0xffff;
      in.position(in.position() + 2 * arguments);
    }
    return methods;
  }

  /** Skips an {@code exports} or {@code opens} table, returning its length. */
  private static int skipPackageDirectives(ByteBuffer in) {
    int count = in.getShort() & 0xffff;
    for (int i = 0; i < count; i++) {
      in.position(in.position() + 4);
      int targets = in.getShort() & 0xffff;
      in.position(in.position() + 2 * targets);
    }
    return count;
  }

  private static String utf8(String[] utf8, int[] tags, int[] first, int index, int tag, String where) {
    check(tags, index, tag, where);
    return plain(utf8, tags, first[index], where);
  }

  private static String plain(String[] utf8, int[] tags, int index, String where) {
    check(tags, index, UTF8, where);
    return utf8[index];
  }

  private static void check(int[] tags, int index, int tag, String where) {
    if (index <= 0 || index >= tags.length || tags[index] != tag) {
      throw invalid(where, "has a constant-pool reference of the wrong kind at index " + index);
    }
  }

  private static PackageRefusedException invalid(String where, String why) {
    return new PackageRefusedException(CapabilityCodes.CLASS_FILE_INVALID, "class file '" + where + "' " + why);
  }
}
