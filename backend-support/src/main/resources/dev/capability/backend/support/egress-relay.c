/*
 * egress-relay: puts a sandbox's only way out on its loopback, compiled statically by the host.
 *
 *   egress-relay SOCKET PORT PROGRAM ARGV0 [ARGS...]
 *
 * SOCKET is the proxy's Unix socket: its absolute path, or fd:N for an O_PATH descriptor of it
 * that this program inherits (connected to through /proc/self/fd/N, which needs no search
 * permission on the directories above the socket; the command does not inherit it).
 *
 * Runs inside a sandbox whose network namespace has nothing but loopback. Listens on
 * 127.0.0.1:PORT before anything else runs, so the command can connect at once; starts the relay,
 * a grandchild that is not the command's child (a command that waits for all its children never
 * waits for it); then executes PROGRAM with exactly ARGV0 ARGS and the inherited environment, so
 * the command keeps this process's pid, and its exit status and signals are its own.
 *
 * The relay accepts each TCP connection and forks a worker that connects to the Unix socket
 * SOCKET and copies bytes both ways until both sides have finished, passing on each side's end
 * of input as a half-close. The relay ends when the command ends: it holds a pidfd of the
 * command (polling the pid once a second where pidfd_open is missing), and each worker dies with
 * the relay (PR_SET_PDEATHSIG). The listening socket is close-on-exec: the command never holds
 * it. The relay keeps no standard stream open, so the command's output ends when the command's
 * writers do.
 *
 * Exit status when PROGRAM never runs: 125 for bad arguments or when the port cannot be bound,
 * 126 when PROGRAM cannot be executed, 127 when it does not exist; a message on stderr says which.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#define BUFFER_BYTES 65536
#define LISTEN_BACKLOG 128
#define LIVENESS_POLL_MILLIS 1000

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_close_range
#define SYS_close_range 436
#endif

static void say(const char *text) {
  size_t left = strlen(text);
  while (left > 0) {
    ssize_t n = write(2, text, left);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      return;
    }
    text += n;
    left -= (size_t) n;
  }
}

static void fail(int status, const char *what, const char *detail) {
  say("egress-relay: ");
  say(what);
  if (detail != NULL) {
    say(": ");
    say(detail);
  }
  say("\n");
  _exit(status);
}

/* The decimal number text (at most 7 digits) if it lies in min..max, or -1. */
static int parse_number(const char *text, long min, long max) {
  long number = 0;
  if (*text == '\0' || strlen(text) > 7) {
    return -1;
  }
  for (const char *c = text; *c != '\0'; c++) {
    if (*c < '0' || *c > '9') {
      return -1;
    }
    number = number * 10 + (*c - '0');
  }
  return number >= min && number <= max ? (int) number : -1;
}

static int listen_on_loopback(int port) {
  int listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (listener < 0) {
    fail(125, "cannot create the listening socket", strerror(errno));
  }
  int on = 1;
  setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  struct sockaddr_in address;
  memset(&address, 0, sizeof address);
  address.sin_family = AF_INET;
  address.sin_port = htons((unsigned short) port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(listener, (struct sockaddr *) &address, sizeof address) != 0) {
    fail(125, "cannot bind 127.0.0.1", strerror(errno));
  }
  if (listen(listener, LISTEN_BACKLOG) != 0) {
    fail(125, "cannot listen on 127.0.0.1", strerror(errno));
  }
  return listener;
}

/* Closes the descriptors from first to last (inclusive), if any. */
static void close_between(unsigned int first, unsigned int last) {
  if (first > last) {
    return;
  }
  if (syscall(SYS_close_range, first, last, 0) != 0) {
    for (unsigned int fd = first; fd <= last && fd < 65536; fd++) {
      close((int) fd);
    }
  }
}

/* fd itself when it is above the standard streams, else a close-on-exec copy that is. */
static int above_standard_streams(int fd) {
  if (fd < 0 || fd > 2) {
    return fd;
  }
  int copy = fcntl(fd, F_DUPFD_CLOEXEC, 3);
  close(fd);
  return copy;
}

/*
 * Keeps only the relay's own descriptors (each above the standard streams, -1 for none): the
 * standard streams become /dev/null (or closed), so the relay never holds the command's output
 * pipes open; nothing else inherited stays.
 */
static void keep_only(int keep[], int count) {
  int null = open("/dev/null", O_RDWR | O_CLOEXEC);
  for (int fd = 0; fd <= 2; fd++) {
    if (fd != null && (null < 0 || dup2(null, fd) < 0)) {
      close(fd);
    }
  }
  for (int i = 1; i < count; i++) {
    for (int j = i; j > 0 && keep[j - 1] > keep[j]; j--) {
      int swap = keep[j];
      keep[j] = keep[j - 1];
      keep[j - 1] = swap;
    }
  }
  /* /dev/null, when it is above the standard streams, goes with the rest. */
  unsigned int next = 3;
  for (int i = 0; i < count; i++) {
    if (keep[i] >= 3) {
      close_between(next, (unsigned int) keep[i] - 1);
      next = (unsigned int) keep[i] + 1;
    }
  }
  close_between(next, ~0U);
}

/* Writes everything or fails; 0 on success. */
static int write_all(int fd, const char *data, size_t length) {
  while (length > 0) {
    ssize_t n = write(fd, data, length);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      return -1;
    }
    data += n;
    length -= (size_t) n;
  }
  return 0;
}

/* One direction of a relayed connection: bytes read from `from` are written to `to`. */
struct direction {
  int from;
  int to;
  int ended; /* `from` reached its end of input, and `to` was half-closed */
};

/*
 * Copies one read's worth from d->from to d->to; at the end of input, half-closes d->to. Returns
 * -1 when the connection must be dropped (an error on either side).
 */
static int pump(struct direction *d, char *buffer) {
  ssize_t n;
  do {
    n = read(d->from, buffer, BUFFER_BYTES);
  } while (n < 0 && errno == EINTR);
  if (n < 0) {
    return -1;
  }
  if (n == 0) {
    shutdown(d->to, SHUT_WR);
    d->ended = 1;
    return 0;
  }
  return write_all(d->to, buffer, (size_t) n);
}

static void relay_connection(int client, const char *socket_path, pid_t relay) {
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != relay) {
    _exit(0);
  }
  int upstream = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (upstream < 0) {
    _exit(1);
  }
  struct sockaddr_un address;
  memset(&address, 0, sizeof address);
  address.sun_family = AF_UNIX;
  memcpy(address.sun_path, socket_path, strlen(socket_path));
  int connected;
  do {
    connected = connect(upstream, (struct sockaddr *) &address, sizeof address);
  } while (connected != 0 && errno == EINTR);
  if (connected != 0) {
    _exit(1);
  }
  static char buffer[BUFFER_BYTES];
  struct direction out = {client, upstream, 0};
  struct direction in = {upstream, client, 0};
  while (!out.ended || !in.ended) {
    struct pollfd fds[2];
    int count = 0;
    struct direction *waiting[2];
    if (!out.ended) {
      fds[count] = (struct pollfd){.fd = out.from, .events = POLLIN};
      waiting[count++] = &out;
    }
    if (!in.ended) {
      fds[count] = (struct pollfd){.fd = in.from, .events = POLLIN};
      waiting[count++] = &in;
    }
    if (poll(fds, (nfds_t) count, -1) < 0) {
      if (errno == EINTR) {
        continue;
      }
      _exit(1);
    }
    for (int i = 0; i < count; i++) {
      if (fds[i].revents != 0 && pump(waiting[i], buffer) != 0) {
        _exit(1);
      }
    }
  }
  _exit(0);
}

/* Whether the command is still running, judged by its pidfd or, without one, by its pid. */
static int command_running(int pidfd, pid_t command) {
  if (pidfd >= 0) {
    struct pollfd ended = {.fd = pidfd, .events = POLLIN};
    int ready;
    do {
      ready = poll(&ended, 1, 0);
    } while (ready < 0 && errno == EINTR);
    return ready == 0;
  }
  return kill(command, 0) == 0 || errno != ESRCH;
}

static void serve(int listener, int pidfd, pid_t command, const char *socket_path) {
  signal(SIGPIPE, SIG_IGN);
  /* Workers are reaped by the kernel. */
  signal(SIGCHLD, SIG_IGN);
  pid_t relay = getpid();
  for (;;) {
    struct pollfd fds[2] = {
        {.fd = listener, .events = POLLIN},
        {.fd = pidfd, .events = POLLIN},
    };
    int ready = poll(fds, pidfd >= 0 ? 2 : 1, pidfd >= 0 ? -1 : LIVENESS_POLL_MILLIS);
    if (ready < 0 && errno != EINTR) {
      _exit(1);
    }
    if (!command_running(pidfd, command)) {
      _exit(0);
    }
    if (ready <= 0 || (fds[0].revents & POLLIN) == 0) {
      continue;
    }
    int client = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
    if (client < 0) {
      if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
        /* Out of descriptors or memory for now: wait instead of spinning on the ready listener. */
        poll(NULL, 0, 100);
      }
      /* Otherwise EINTR, or a connection reset before it was accepted. */
      continue;
    }
    pid_t worker = fork();
    if (worker == 0) {
      close(listener);
      if (pidfd >= 0) {
        close(pidfd);
      }
      relay_connection(client, socket_path, relay);
    }
    close(client);
  }
}

int main(int argc, char **argv) {
  if (argc < 5) {
    fail(125, "usage: egress-relay SOCKET|fd:N PORT PROGRAM ARGV0 [ARGS...]", NULL);
  }
  /* An O_PATH descriptor of the socket, connected to through /proc/self/fd, or its path. */
  int socket_descriptor = -1;
  char descriptor_path[64];
  const char *socket_path = argv[1];
  if (strncmp(socket_path, "fd:", 3) == 0) {
    socket_descriptor = parse_number(socket_path + 3, 0, 1000000);
    if (socket_descriptor < 0 || fcntl(socket_descriptor, F_SETFD, FD_CLOEXEC) != 0) {
      fail(125, "the socket is not an open descriptor", socket_path);
    }
    socket_descriptor = above_standard_streams(socket_descriptor);
    snprintf(descriptor_path, sizeof descriptor_path, "/proc/self/fd/%d", socket_descriptor);
    socket_path = descriptor_path;
  } else if (socket_path[0] != '/'
      || strlen(socket_path) >= sizeof(((struct sockaddr_un *) 0)->sun_path)) {
    fail(125, "the socket must be fd:N or an absolute path shorter than a socket address", NULL);
  }
  int port = parse_number(argv[2], 1, 65535);
  if (port < 0) {
    fail(125, "the port is not a number from 1 to 65535", argv[2]);
  }
  int listener = above_standard_streams(listen_on_loopback(port));
  pid_t command = getpid();
  /* The command inherits its SIGCHLD disposition as it was; waiting below needs the default. */
  struct sigaction inherited;
  struct sigaction default_action;
  memset(&default_action, 0, sizeof default_action);
  default_action.sa_handler = SIG_DFL;
  sigemptyset(&default_action.sa_mask);
  sigaction(SIGCHLD, &default_action, &inherited);
  pid_t middle = fork();
  if (middle < 0) {
    fail(125, "cannot start the relay", strerror(errno));
  }
  if (middle == 0) {
    /* The command is blocked in waitpid for this process, so its pid is still its own here. */
    int pidfd = above_standard_streams((int) syscall(SYS_pidfd_open, command, 0));
    pid_t relay = fork();
    if (relay == 0) {
      int keep[] = {listener, pidfd, socket_descriptor};
      keep_only(keep, 3);
      serve(listener, pidfd, command, socket_path);
    }
    _exit(relay < 0 ? 1 : 0);
  }
  int status;
  pid_t waited;
  do {
    waited = waitpid(middle, &status, 0);
  } while (waited < 0 && errno == EINTR);
  if (waited != middle || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    fail(125, "cannot start the relay", "fork failed");
  }
  sigaction(SIGCHLD, &inherited, NULL);
  execv(argv[3], argv + 4);
  int error = errno;
  fail(error == ENOENT ? 127 : 126, argv[3], strerror(error));
  return 125;
}
