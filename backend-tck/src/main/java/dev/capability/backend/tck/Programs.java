package dev.capability.backend.tck;

import java.util.List;

/**
 * The programs the suite runs inside the backend, as text: the {@code printf} format and awkward
 * arguments of the argv tests, and the shell and perl source of the attacks. Attack programs exit 0
 * when they got in and {@link Claims#BLOCKED} (10) when they were stopped, unless noted.
 */
final class Programs {
  private Programs() {}

  /** Format for {@code printf}: each argument followed by NUL, so any text can be read back. */
  static final String EACH_ARGUMENT_NUL_TERMINATED = "%s\\0";

  /** Arguments a shell would split, expand or take for options, and non-ASCII text. */
  static final List<String> AWKWARD_ARGUMENTS =
      List.of(
          "two words",
          " leading and trailing ",
          "'single'",
          "\"double\"",
          "back\\slash",
          "",
          "line\nbreak",
          "tab\there",
          "$HOME",
          "$(id)",
          "`id`",
          "*",
          "; rm -rf /",
          "a|b&c>d<e",
          "-",
          "--",
          "-c",
          "--help",
          "%s%n%d",
          "héllo ☃ 日本 \uD83D\uDE00");

  /** Connects to 127.0.0.1, port $ARGV[0]; exit 0 when connected, 10 when not. */
  static final String TCP_CLIENT =
      """
      use IO::Socket::INET;
      my $s = IO::Socket::INET->new(
          PeerAddr => '127.0.0.1', PeerPort => $ARGV[0], Proto => 'tcp', Timeout => 3);
      if ($s) { print $s "attack\n"; close $s; print "connected\n"; exit 0 }
      print "blocked: $!\n";
      exit 10;
      """;

  /** Connects to the Unix socket at path $ARGV[0]; exit 0 when connected, 10 when not. */
  static final String UNIX_CLIENT =
      """
      use IO::Socket::UNIX;
      my $s = IO::Socket::UNIX->new(Peer => $ARGV[0]);
      if ($s) { print $s "attack\n"; close $s; print "connected\n"; exit 0 }
      print "blocked: $!\n";
      exit 10;
      """;

  /**
   * Opens the global {@code vm/drop_caches} for writing (nothing is written) and writes the current
   * host name back unchanged: both need privileges a confined command lacks. Reports {@code
   * drop-caches-opened} and {@code hostname-written}, 1 or 0; exit 0.
   */
  static final String KERNEL_SETTINGS_PROBE =
      """
      use Fcntl;
      my $drop = sysopen(my $d, '/proc/sys/vm/drop_caches', O_WRONLY) ? 1 : 0;
      my $written = 0;
      if (open(my $r, '<', '/proc/sys/kernel/hostname')) {
        my $name = <$r>;
        close $r;
        if (defined $name) {
          chomp $name;
          if (sysopen(my $w, '/proc/sys/kernel/hostname', O_WRONLY)) {
            $written = syswrite($w, $name) ? 1 : 0;
            close $w;
          }
        }
      }
      print "drop-caches-opened $drop\nhostname-written $written\n";
      exit 0;
      """;

  /**
   * Pushes a character into the controlling terminal's input queue (TIOCSTI): exit 3 when there is
   * no terminal to open, 4 when the kernel refuses the injection, 0 when it worked. The character
   * is in a variable because perl's ioctl may write to its argument.
   */
  static final String TERMINAL_INJECTION =
      "open(T, '+<', '/dev/tty') or exit 3; my $c = 'x'; ioctl(T, 0x5412, $c) or exit 4; exit 0";

  /** Separates the environ of one process from the next in {@link #ANCESTOR_ENVIRONMENTS}. */
  static final String PROCESS_SEPARATOR = "ck-tck-process=";

  /**
   * Prints the environ of the shell, each ancestor up to the top of its view, and pid 1: what a
   * command can learn about whoever launched it. Each environ is preceded by a separator entry.
   */
  static final String ANCESTOR_ENVIRONMENTS =
      """
      p=$$
      n=0
      while [ -n "$p" ] && [ "$p" -gt 0 ] && [ $n -lt 64 ]; do
        printf 'SEPARATOR%s\\0' "$p"
        cat "/proc/$p/environ" 2>/dev/null
        p=$(sed -n 's/^PPid:[[:space:]]*//p' "/proc/$p/status" 2>/dev/null)
        n=$((n + 1))
      done
      printf 'SEPARATOR1\\0'
      cat /proc/1/environ 2>/dev/null
      exit 0
      """
          .replace("SEPARATOR", PROCESS_SEPARATOR);

  /**
   * Looks in /proc for the canary (pid $ARGV[0], by the marker in file $ARGV[1], read from a file
   * so that this process's own arguments do not contain it) and for the JVM (pid $ARGV[2], by the
   * SHA-256 of its command line, $ARGV[3], so the command never learns the command line itself),
   * then sends TERM to the canary. Reports {@code canary-seen} (a count), {@code jvm-seen} and
   * {@code canary-signalled} (1 or 0); exit 0, or 3 when the marker file cannot be read.
   */
  static final String HOST_PROCESS_PROBE =
      """
      use Digest::SHA qw(sha256_hex);
      my ($canary, $marker_file, $jvm, $jvm_digest) = @ARGV;
      sub slurp { open(my $f, '<', $_[0]) or return undef; local $/; my $d = <$f>; close $f; $d }
      my $marker = slurp($marker_file);
      exit 3 unless defined $marker && length $marker;
      my $seen = grep {
        my $c = slurp("$_/cmdline"); defined $c && index($c, $marker) >= 0
      } glob('/proc/[0-9]*');
      my $j = slurp("/proc/$jvm/cmdline");
      print "canary-seen $seen\n";
      print 'jvm-seen ', (defined $j && sha256_hex($j) eq $jvm_digest ? 1 : 0), "\n";
      print 'canary-signalled ', kill('TERM', $canary), "\n";
      exit 0;
      """;
}
