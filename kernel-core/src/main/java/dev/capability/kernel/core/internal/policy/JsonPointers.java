package dev.capability.kernel.core.internal.policy;

/** Builds RFC 6901 JSON pointers that name where in a policy something is wrong. */
final class JsonPointers {
  private JsonPointers() {}

  /** The pointer to member {@code name} of the object at {@code parent}. */
  static String member(String parent, String name) {
    return parent + "/" + name.replace("~", "~0").replace("/", "~1");
  }

  /** The pointer to element {@code index} of the array at {@code parent}. */
  static String element(String parent, int index) {
    return parent + "/" + index;
  }

  /** {@code pointer} for a message: the root is shown as {@code /}, odd characters escaped. */
  static String show(String pointer) {
    return pointer.isEmpty() ? "/" : Printable.escape(pointer);
  }
}
