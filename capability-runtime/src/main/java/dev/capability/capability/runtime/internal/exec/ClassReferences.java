package dev.capability.capability.runtime.internal.exec;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The classes a class file names, read as bytes (nothing is loaded): its constant-pool class
 * entries (supertypes, instantiated, cast, caught and invoked-on types, nest and inner classes) and
 * the object types in every descriptor it holds (its own fields and methods, the members it refers
 * to, method types), because the verifier and reflection may load those without a class entry.
 */
final class ClassReferences {
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

  private ClassReferences() {}

  /**
   * The internal names ({@code a/b/C}) of the classes {@code bytes} refers to, arrays reduced to
   * their element class, primitives left out.
   *
   * @throws IllegalArgumentException if the bytes are not a class file this reader understands
   */
  static Set<String> of(byte[] bytes) {
    try {
      return read(new DataInputStream(new ByteArrayInputStream(bytes)));
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException("not a readable class file (" + e + ")", e);
    }
  }

  private static Set<String> read(DataInputStream in) throws IOException {
    if (in.readInt() != 0xCAFEBABE) {
      throw new IOException("no 0xCAFEBABE magic");
    }
    in.readUnsignedShort();
    in.readUnsignedShort();
    int count = in.readUnsignedShort();
    String[] utf8 = new String[count];
    List<Integer> classNames = new ArrayList<>();
    List<Integer> descriptors = new ArrayList<>();
    for (int i = 1; i < count; i++) {
      int tag = in.readUnsignedByte();
      switch (tag) {
        case UTF8 -> utf8[i] = in.readUTF();
        case INTEGER, FLOAT -> in.readInt();
        case LONG, DOUBLE -> {
          in.readLong();
          i++;
        }
        case CLASS -> classNames.add(in.readUnsignedShort());
        case METHOD_TYPE -> descriptors.add(in.readUnsignedShort());
        case STRING, MODULE, PACKAGE -> in.readUnsignedShort();
        case NAME_AND_TYPE -> {
          in.readUnsignedShort();
          descriptors.add(in.readUnsignedShort());
        }
        case FIELD, METHOD, INTERFACE_METHOD, DYNAMIC, INVOKE_DYNAMIC -> in.readInt();
        case METHOD_HANDLE -> {
          in.readUnsignedByte();
          in.readUnsignedShort();
        }
        default -> throw new IOException("unknown constant-pool tag " + tag + " at index " + i);
      }
    }
    in.readUnsignedShort();
    in.readUnsignedShort();
    in.readUnsignedShort();
    in.skipNBytes(2L * in.readUnsignedShort());
    for (int members = 0; members < 2; members++) {
      int memberCount = in.readUnsignedShort();
      for (int m = 0; m < memberCount; m++) {
        in.readUnsignedShort();
        in.readUnsignedShort();
        descriptors.add(in.readUnsignedShort());
        skipAttributes(in);
      }
    }
    Set<String> names = new TreeSet<>();
    for (int index : classNames) {
      String name = text(utf8, index);
      if (name.startsWith("[")) {
        addDescriptorTypes(name, names);
      } else {
        names.add(name);
      }
    }
    for (int index : descriptors) {
      addDescriptorTypes(text(utf8, index), names);
    }
    return names;
  }

  private static void skipAttributes(DataInputStream in) throws IOException {
    int attributes = in.readUnsignedShort();
    for (int a = 0; a < attributes; a++) {
      in.readUnsignedShort();
      in.skipNBytes(in.readInt() & 0xffffffffL);
    }
  }

  private static String text(String[] utf8, int index) throws IOException {
    if (index <= 0 || index >= utf8.length || utf8[index] == null) {
      throw new IOException("constant-pool index " + index + " is not a UTF-8 entry");
    }
    return utf8[index];
  }

  private static void addDescriptorTypes(String descriptor, Set<String> names) throws IOException {
    int at = 0;
    while (at < descriptor.length()) {
      if (descriptor.charAt(at) == 'L') {
        int end = descriptor.indexOf(';', at);
        if (end < 0) {
          throw new IOException("descriptor " + descriptor + " has an unterminated class type");
        }
        names.add(descriptor.substring(at + 1, end));
        at = end + 1;
      } else {
        at++;
      }
    }
  }
}
