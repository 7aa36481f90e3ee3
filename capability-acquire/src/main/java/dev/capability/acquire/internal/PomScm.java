package dev.capability.acquire.internal;

import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.XMLConstants;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * The source repository a POM's {@code <scm>} names, read from untrusted bytes, and the
 * normalization that compares it with the repository provenance names.
 *
 * <p>The POM is read with the JDK's own StAX parser with DTDs and external entities switched off,
 * and any document type declaration or entity reference other than XML's five is refused outright,
 * so no entity is ever expanded and nothing outside the bytes is ever read.
 */
public final class PomScm {
  public static final int MAX_BYTES = 1024 * 1024;
  private static final Set<String> ELEMENTS = Set.of("url", "connection", "developerConnection");
  private static final Pattern SCP_LIKE = Pattern.compile("(?:[^@/:]+@)?([^@/:]+):(.+)");
  /** {@code github.com/org/repo}: no scheme, a first segment that looks like a host name. */
  private static final Pattern HOST_FIRST = Pattern.compile("[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)+(/[^:@]*)?");
  private static final Pattern PORT = Pattern.compile(":[0-9]*$");
  private static final Pattern SCM_PREFIX = Pattern.compile("scm([:|])[A-Za-z0-9_-]+\\1");

  /** One repository location the POM declares: the element ({@code url}, ...) and its text. */
  public record Declared(String element, String value) {}

  /** The POM could not be read as XML, or is not a POM. */
  public static final class UnreadableException extends RuntimeException {
    UnreadableException(String message) {
      super(message);
    }
  }

  private PomScm() {}

  /**
   * The non-blank {@code url}, {@code connection} and {@code developerConnection} of the POM's
   * top-level {@code <scm>}, in document order; empty when there is no {@code <scm>}.
   *
   * @throws UnreadableException when the bytes are not a well-formed POM without a DTD
   */
  public static List<Declared> read(byte[] pom) {
    List<Declared> declared = new ArrayList<>();
    XMLStreamReader reader = null;
    try {
      reader = factory().createXMLStreamReader(new ByteArrayInputStream(pom));
      List<String> path = new ArrayList<>();
      while (reader.hasNext()) {
        int event = reader.next();
        switch (event) {
          case XMLStreamConstants.DTD -> throw new UnreadableException("the POM has a document type declaration, which is refused");
          case XMLStreamConstants.ENTITY_REFERENCE -> throw entityReference(reader);
          case XMLStreamConstants.START_ELEMENT -> {
            String name = reader.getLocalName();
            if (path.isEmpty() && !name.equals("project")) {
              throw new UnreadableException("the document's root element is '" + printable(name) + "', not a POM's 'project'");
            }
            if (path.size() == 2 && path.get(1).equals("scm") && ELEMENTS.contains(name)) {
              String value = text(reader, name).strip();
              if (!value.isEmpty()) {
                declared.add(new Declared(name, value));
              }
            } else {
              path.add(name);
            }
          }
          case XMLStreamConstants.END_ELEMENT -> path.remove(path.size() - 1);
          default -> { }
        }
      }
      return declared;
    } catch (XMLStreamException e) {
      throw new UnreadableException("the POM cannot be read as XML: " + printable(String.valueOf(e.getMessage())));
    } finally {
      close(reader);
    }
  }

  /**
   * The host (lower case) and path a repository location names, whatever the scheme, user and
   * port: {@code scm:git:git@github.com:org/repo.git}, {@code https://github.com/org/repo/} and
   * {@code git+ssh://git@github.com:22/org/repo} all give {@code github.com/org/repo}. Empty when
   * the text names no host.
   */
  public static Optional<String> hostAndPath(String location) {
    String value = location.strip();
    Matcher scm = SCM_PREFIX.matcher(value);
    if (scm.lookingAt()) {
      value = value.substring(scm.end());
    }
    if (value.startsWith("git+")) {
      value = value.substring(4);
    }
    String host;
    String path;
    int scheme = value.indexOf("://");
    Matcher scp = SCP_LIKE.matcher(value);
    if (scheme > 0) {
      String rest = value.substring(scheme + 3);
      int slash = rest.indexOf('/');
      String authority = slash < 0 ? rest : rest.substring(0, slash);
      path = slash < 0 ? "" : rest.substring(slash);
      host = PORT.matcher(authority.substring(authority.lastIndexOf('@') + 1)).replaceFirst("");
    } else if (scp.matches()) {
      host = scp.group(1);
      path = "/" + scp.group(2);
    } else if (HOST_FIRST.matcher(value).matches()) {
      int slash = value.indexOf('/');
      host = slash < 0 ? value : value.substring(0, slash);
      path = slash < 0 ? "" : value.substring(slash);
    } else {
      return Optional.empty();
    }
    if (host.isEmpty()) {
      return Optional.empty();
    }
    int query = indexOfAny(path, '?', '#');
    if (query >= 0) {
      path = path.substring(0, query);
    }
    path = path.replaceAll("/{2,}", "/");
    path = stripTrailingSlashes(path);
    if (path.endsWith(".git")) {
      path = stripTrailingSlashes(path.substring(0, path.length() - 4));
    }
    return Optional.of(host.toLowerCase(Locale.ROOT) + path);
  }

  /**
   * Whether {@code declared} names the repository {@code repository} names, or a place inside it
   * (a POM's {@code url} often points at a branch or a module: {@code .../repo/tree/main/module}).
   */
  public static boolean sameRepository(String declared, String repository) {
    Optional<String> theirs = hostAndPath(declared);
    Optional<String> ours = hostAndPath(repository);
    return theirs.isPresent() && ours.isPresent()
        && (theirs.get().equals(ours.get()) || theirs.get().startsWith(ours.get() + "/"));
  }

  /** The text of the element just started, up to its end; an entity reference or a child element is refused. */
  private static String text(XMLStreamReader reader, String element) throws XMLStreamException {
    StringBuilder text = new StringBuilder();
    while (true) {
      switch (reader.next()) {
        case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA, XMLStreamConstants.SPACE -> text.append(reader.getText());
        case XMLStreamConstants.ENTITY_REFERENCE -> throw entityReference(reader);
        case XMLStreamConstants.START_ELEMENT -> throw new UnreadableException(
            "the POM's <scm><" + element + "> holds the element '" + printable(reader.getLocalName()) + "' instead of text");
        case XMLStreamConstants.END_ELEMENT -> {
          return text.toString();
        }
        default -> { }
      }
    }
  }

  private static UnreadableException entityReference(XMLStreamReader reader) {
    return new UnreadableException("the POM refers to the entity '" + printable(String.valueOf(reader.getLocalName())) + "', which is refused");
  }

  private static XMLInputFactory factory() {
    XMLInputFactory factory = XMLInputFactory.newDefaultFactory();
    factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
    factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
    factory.setProperty(XMLInputFactory.IS_REPLACING_ENTITY_REFERENCES, false);
    factory.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
    factory.setProperty(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
    factory.setXMLResolver((publicId, systemId, baseUri, namespace) -> {
      throw new XMLStreamException("the POM refers to an external resource, which is refused");
    });
    return factory;
  }

  private static void close(XMLStreamReader reader) {
    if (reader == null) {
      return;
    }
    try {
      reader.close();
    } catch (XMLStreamException e) {
      // Nothing was opened beyond the bytes in memory; there is nothing left to release.
    }
  }

  private static String stripTrailingSlashes(String path) {
    String value = path;
    while (value.endsWith("/")) {
      value = value.substring(0, value.length() - 1);
    }
    return value;
  }

  private static int indexOfAny(String text, char first, char second) {
    int a = text.indexOf(first);
    int b = text.indexOf(second);
    return a < 0 ? b : b < 0 ? a : Math.min(a, b);
  }

  static String printable(String value) {
    StringBuilder out = new StringBuilder();
    value.codePoints().limit(200).forEach(c -> out.append(c >= 0x20 && c < 0x7f ? Character.toString(c) : "?"));
    return out.toString();
  }
}
