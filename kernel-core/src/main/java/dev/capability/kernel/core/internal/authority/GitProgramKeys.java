package dev.capability.kernel.core.internal.authority;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Every git configuration key that names a program or command git may start (git 2.39,
 * {@code git help config}), the switches that keep git from starting one, and how the kernel
 * keeps each from running anything: the one list {@link GitNeutralizer} works from.
 *
 * <p>A key is written as git documents it, {@code <...>} standing for a name the repository
 * chooses ({@code filter.<driver>.clean}) and {@code [<...>.]} for an optional one
 * ({@code sendemail.[<identity>.]toCmd}). What each
 * treatment does:
 *
 * <ul>
 *   <li>{@link Treatment#ALWAYS}: passed on every git command line ({@code -c key=value}), whatever
 *       the configuration holds; command-line settings come last and win.
 *   <li>{@link Treatment#WHEN_SET}: found by listing the configuration of every repository git may
 *       open, and each key found set to the neutral value through {@code GIT_CONFIG_COUNT}, which
 *       git hands on to the git processes it starts in submodules.
 *   <li>{@link Treatment#ENVIRONMENT}: a configuration value git honours before a command-line one
 *       (the first {@code core.gitProxy} that matches wins), so an environment variable that git
 *       documents as overriding it is set instead.
 *   <li>{@link Treatment#REFUSED}: no value is known to start nothing, so a command whose git
 *       configuration sets the key is refused before launch ({@code GIT_CONFIGURATION_REFUSED}).
 *   <li>{@link Treatment#HARMLESS}: names no program the repository supplies, or only chooses
 *       between the programs above; {@link Key#why()} says which.
 * </ul>
 */
final class GitProgramKeys {
  private GitProgramKeys() {}

  /** How the kernel keeps a key from starting a program. */
  enum Treatment { ALWAYS, WHEN_SET, ENVIRONMENT, REFUSED, HARMLESS }

  /**
   * One key.
   *
   * @param name the key as git documents it, {@code <...>} for a name the repository chooses
   * @param treatment how it is kept from starting a program
   * @param value the value imposed ({@code ALWAYS}, {@code WHEN_SET}), or the environment
   *     assignment {@code NAME=VALUE} ({@code ENVIRONMENT}); empty for the other treatments
   * @param why what the key would start, and why the treatment is enough
   */
  record Key(String name, Treatment treatment, String value, String why) {
    Key {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(treatment, "treatment");
      Objects.requireNonNull(value, "value");
      Objects.requireNonNull(why, "why");
    }

    /** The regular expression (POSIX ERE and Java alike) matching the key as git lists it: section and variable in lower case. */
    String pattern() {
      StringBuilder regex = new StringBuilder();
      int i = 0;
      while (i < name.length()) {
        if (name.startsWith("[<", i)) {
          int end = name.indexOf(">.]", i);
          regex.append("(.*\\.)?");
          i = end + 3;
        } else if (name.charAt(i) == '<') {
          regex.append(".*");
          i = name.indexOf('>', i) + 1;
        } else if (name.charAt(i) == '.') {
          regex.append("\\.");
          i++;
        } else {
          regex.append(Character.toLowerCase(name.charAt(i)));
          i++;
        }
      }
      return regex.toString();
    }

    /** Whether git's listed name {@code listedKey} is this key; a chosen name may hold any character, a newline too. */
    boolean matches(String listedKey) {
      return Pattern.compile(pattern(), Pattern.DOTALL).matcher(listedKey).matches();
    }
  }

  private static Key always(String name, String value, String why) {
    return new Key(name, Treatment.ALWAYS, value, why);
  }

  private static Key whenSet(String name, String value, String why) {
    return new Key(name, Treatment.WHEN_SET, value, why);
  }

  private static Key harmless(String name, String why) {
    return new Key(name, Treatment.HARMLESS, "", why);
  }

  private static Key refused(String name, String why) {
    return new Key(name, Treatment.REFUSED, "", why);
  }

  private static final String SEND_EMAIL =
      "git send-email (Perl, not installed with every git) starts it through the shell; no value is known to start nothing";

  /** The list, in the order the fixed settings go on the command line. */
  static final List<Key> ALL = List.of(
      always("core.fsmonitor", "false", "a file-system monitor hook, or the fsmonitor daemon"),
      // Nobody can create files under /dev/null, unlike under an empty directory the command could write.
      always("core.hooksPath", "/dev/null", "every hook, of every repository the command reaches"),
      always("core.pager", "cat", "the pager; git also gets --no-pager and GIT_PAGER=cat, and its output is never a terminal"),
      always("core.editor", "false", "the editor of commit and tag messages; GIT_EDITOR=false as well"),
      always("sequence.editor", "false", "the editor of rebase -i; GIT_SEQUENCE_EDITOR=false as well"),
      always("core.askPass", "", "a password prompt program; GIT_ASKPASS is empty and GIT_TERMINAL_PROMPT=0"),
      always("credential.helper", "", "credential helpers; an empty value clears every helper configured before it, URL-specific ones included"),
      always("core.sshCommand", "ssh", "the ssh program of ssh transports"),
      always("gpg.program", "gpg", "the OpenPGP signing program (commit.gpgSign, tag.gpgSign, --show-signature)"),
      always("gpg.openpgp.program", "gpg", "the same program as gpg.program, under its newer name"),
      always("gpg.x509.program", "gpgsm", "the X.509 signing program (gpg.format=x509)"),
      always("gpg.ssh.program", "ssh-keygen", "the ssh signing program (gpg.format=ssh)"),
      always("gpg.ssh.defaultKeyCommand", "", "a command that prints the ssh signing key; empty, ssh signing without user.signingKey fails"),
      always("protocol.ext.allow", "never", "ext:: URLs, whose address is a command"),
      always("protocol.file.allow", "never",
          "a local repository used as a remote is served by upload-pack or receive-pack, which git starts without the"
              + " command line's settings: that repository's hooks and configuration would run"),
      always("diff.ignoreSubmodules", "all", "git status and diff enter no submodule, so no submodule's git process starts"),
      always("submodule.recurse", "false", "commands do not recurse into submodules unless told to"),
      whenSet("filter.<driver>.clean", "", "a clean filter (with filter.<driver>.required=false: the filter does nothing)"),
      whenSet("filter.<driver>.smudge", "", "a smudge filter (with filter.<driver>.required=false)"),
      whenSet("filter.<driver>.process", "", "a long-running filter process (with filter.<driver>.required=false)"),
      whenSet("diff.external", "", "an external diff program; emptied, git diff fails instead of running it, --ext-diff included"),
      whenSet("diff.<driver>.textconv", "", "a text conversion program; emptied, git diff fails for that path"),
      whenSet("diff.<driver>.command", "", "a diff driver program; emptied, git diff fails for that path"),
      whenSet("merge.<driver>.driver", "", "a merge driver; emptied, the merge fails"),
      whenSet("difftool.<tool>.cmd", "", "a difftool command; emptied, the tool is unknown"),
      whenSet("difftool.<tool>.path", "", "the program of a built-in difftool; emptied, the tool's own name on the PATH"),
      whenSet("mergetool.<tool>.cmd", "", "a mergetool command; emptied, the tool is unknown"),
      whenSet("mergetool.<tool>.path", "", "the program of a built-in mergetool (difftool falls back to it); emptied, the tool's own name on the PATH"),
      whenSet("credential.<url>.helper", "", "a credential helper for one URL"),
      whenSet("alias.<name>", "", "an alias: one starting with ! runs a shell command, others may carry -c settings; emptied, git refuses the alias"),
      whenSet("pager.<cmd>", "false", "the pager of one command"),
      whenSet("remote.<name>.uploadpack", "git-upload-pack", "the program fetch starts for a remote; set back to git's own"),
      whenSet("remote.<name>.receivepack", "git-receive-pack", "the program push starts for a remote; set back to git's own"),
      whenSet("submodule.<name>.update", "none", "git submodule update's !command form"),
      whenSet("submodule.<name>.ignore", "all",
          "a per-submodule ignore would override diff.ignoreSubmodules and make git enter the submodule (.gitmodules is read too)"),
      whenSet("core.alternateRefsCommand", "", "a shell command that lists an alternate's refs; emptied, git starts nothing"),
      whenSet("interactive.diffFilter", "cat", "a filter of git add -p's coloured diff"),
      whenSet("imap.tunnel", "", "git imap-send's tunnel command; emptied, git starts nothing and fails"),
      whenSet("browser.<tool>.cmd", "", "a browser command of git web--browse and git help -w"),
      whenSet("browser.<tool>.path", "", "the program of a known browser"),
      whenSet("man.<tool>.cmd", "", "a man viewer command of git help -m"),
      whenSet("man.<tool>.path", "", "the program of a known man viewer"),
      whenSet("guitool.<name>.cmd", "", "a git gui tool command"),
      whenSet("instaweb.httpd", "", "git instaweb's web server command; emptied, its default lighttpd from the PATH"),
      whenSet("uploadpack.packObjectsHook", "", "a command upload-pack runs instead of pack-objects (git reads it only from protected configuration)"),
      whenSet("hook.<name>.command", "", "a hook configured by name (newer git; 2.39 ignores it)"),
      new Key("core.gitProxy", Treatment.ENVIRONMENT, "GIT_PROXY_COMMAND=",
          "a proxy command for git:// connections; the first matching value wins, so no -c can override it, but"
              + " GIT_PROXY_COMMAND always does, and empty it means no proxy"),
      refused("sendemail.[<identity>.]sendmailCmd", SEND_EMAIL),
      refused("sendemail.[<identity>.]smtpServer", SEND_EMAIL + " (an absolute path is a sendmail program)"),
      refused("sendemail.[<identity>.]toCmd", SEND_EMAIL),
      refused("sendemail.[<identity>.]ccCmd", SEND_EMAIL),
      refused("sendemail.[<identity>.]headerCmd", SEND_EMAIL),
      harmless("include.path", "pulls in another file, whose keys the listing reads like the rest (includes are followed)"),
      harmless("includeIf.<condition>.path", "as include.path, followed whatever its condition"),
      harmless("init.templateDir", "copies files into a new repository: copied hooks never run (core.hooksPath), a copied configuration is listed before the next command"),
      harmless("core.attributesFile", "chooses drivers by attribute; drivers are defined in the configuration, which is listed"),
      harmless("merge.<driver>.recursive", "names another merge driver, whose command is emptied"),
      harmless("diff.tool", "names a difftool: a built-in one runs its program from the operator's PATH, a custom one its cmd, which is emptied"),
      harmless("diff.guitool", "as diff.tool"),
      harmless("merge.tool", "names a mergetool, as diff.tool"),
      harmless("merge.guitool", "as merge.tool"),
      harmless("web.browser", "names a browser: a known one from the operator's PATH, a custom one runs browser.<tool>.cmd, which is emptied"),
      harmless("help.browser", "as web.browser"),
      harmless("instaweb.browser", "as web.browser"),
      harmless("man.viewer", "names a man viewer: a known one from the operator's PATH, a custom one runs man.<tool>.cmd, which is emptied"),
      harmless("remote.<name>.vcs", "runs git-remote-<vcs> from git's exec path or the operator's PATH; the ext transport is off"),
      harmless("remote.<name>.url", "where a remote is; the transports that start programs (ext::, local repositories) are off"),
      harmless("submodule.<name>.url", "as remote.<name>.url"),
      harmless("url.<base>.insteadOf", "rewrites URLs; the transports that start programs are off"),
      harmless("gpg.format", "chooses which gpg.*.program signs; each is fixed"),
      harmless("gpg.ssh.allowedSignersFile", "a file ssh-keygen reads, not a program"),
      harmless("gpg.ssh.revocationFile", "a file ssh-keygen reads, not a program"),
      harmless("user.signingKey", "a key, or a key file, not a program"),
      harmless("ssh.variant", "chooses the options git passes to ssh, which is fixed"),
      harmless("receive.procReceiveRefs", "runs the proc-receive hook; hooks are off"),
      harmless("status.submoduleSummary", "runs git itself in submodules, whose configuration is listed and neutralized"));

  /** The entry {@code listedKey} (as git lists it) belongs to, among the listed treatments. */
  static Optional<Key> listed(String listedKey) {
    return ALL.stream()
        .filter(key -> key.treatment() == Treatment.WHEN_SET || key.treatment() == Treatment.REFUSED)
        .filter(key -> key.matches(listedKey))
        .findFirst();
  }

  /** The {@code key=value} settings of every {@link Treatment#ALWAYS} key, in order. */
  static List<String> alwaysSettings() {
    return ALL.stream().filter(key -> key.treatment() == Treatment.ALWAYS).map(key -> key.name() + "=" + key.value()).toList();
  }

  /** The environment variables of every {@link Treatment#ENVIRONMENT} key. */
  static Map<String, String> environment() {
    return ALL.stream().filter(key -> key.treatment() == Treatment.ENVIRONMENT)
        .collect(Collectors.toUnmodifiableMap(key -> key.value().substring(0, key.value().indexOf('=')),
            key -> key.value().substring(key.value().indexOf('=') + 1)));
  }

  /**
   * The regular expression (POSIX ERE, as {@code git config --get-regexp} takes it, and Java alike)
   * that matches every key the kernel must see when it is set: the {@link Treatment#WHEN_SET} and
   * {@link Treatment#REFUSED} ones. {@link GitConfigurationReader} lists the keys it matches.
   */
  static String listingPattern() {
    List<String> patterns = new ArrayList<>();
    for (Key key : ALL) {
      if (key.treatment() == Treatment.WHEN_SET || key.treatment() == Treatment.REFUSED) {
        patterns.add(key.pattern());
      }
    }
    return "^(" + String.join("|", patterns) + ")$";
  }
}
