/*
 * ck-launch: the docker backend's entrypoint, compiled statically into the runtime image.
 *
 *   ck-launch PROGRAM [ARGS...]
 *
 * Reads the command's environment from stdin and executes PROGRAM with ARGS and exactly that
 * environment, so that no value of it is ever part of the container's configuration (which
 * `docker inspect` shows to anyone who can talk to the daemon) or of any process's argv.
 * Whatever the daemon put in the container's environment (PATH, HOSTNAME, HOME) is dropped.
 *
 * stdin starts with the environment block: its length in bytes as ASCII decimal digits and a
 * newline, then that many bytes of NAME=VALUE entries, each ended by a NUL byte. Exactly the
 * block is read, one read(2) at a time into memory and never through a buffer that could read
 * further, so the rest of stdin is the command's input.
 *
 * Exit status when PROGRAM never runs: 125 for a malformed or missing block, 126 when PROGRAM
 * cannot be executed, 127 when it does not exist; a message on stderr says which.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_BLOCK_BYTES (256L * 1024 * 1024)
#define MAX_HEADER_DIGITS 10

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
  say("ck-launch: ");
  say(what);
  if (detail != NULL) {
    say(": ");
    say(detail);
  }
  say("\n");
  _exit(status);
}

/* Reads exactly n bytes from stdin; 0 on success, -1 at end of input or on an error. */
static int read_exactly(char *buffer, size_t n) {
  while (n > 0) {
    ssize_t got = read(0, buffer, n);
    if (got < 0 && errno == EINTR) {
      continue;
    }
    if (got <= 0) {
      return -1;
    }
    buffer += got;
    n -= (size_t) got;
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fail(125, "usage: ck-launch PROGRAM [ARGS...], with the environment block on stdin", NULL);
  }
  long length = 0;
  int digits = 0;
  for (;;) {
    char c;
    if (read_exactly(&c, 1) != 0) {
      fail(125, "stdin ended before the environment block's length", NULL);
    }
    if (c == '\n') {
      break;
    }
    if (c < '0' || c > '9' || ++digits > MAX_HEADER_DIGITS) {
      fail(125, "the environment block's length is not a decimal number", NULL);
    }
    length = length * 10 + (c - '0');
  }
  if (digits == 0 || length > MAX_BLOCK_BYTES) {
    fail(125, "the environment block's length is missing or too large", NULL);
  }
  char *block = malloc((size_t) length + 1);
  if (block == NULL) {
    fail(125, "no memory for the environment block", NULL);
  }
  if (read_exactly(block, (size_t) length) != 0) {
    fail(125, "stdin ended inside the environment block", NULL);
  }
  if (length > 0 && block[length - 1] != '\0') {
    fail(125, "the environment block does not end with a NUL byte", NULL);
  }
  size_t count = 0;
  for (long i = 0; i < length; i++) {
    if (block[i] == '\0') {
      count++;
    }
  }
  char **environment = calloc(count + 1, sizeof(char *));
  if (environment == NULL) {
    fail(125, "no memory for the environment", NULL);
  }
  size_t index = 0;
  for (char *entry = block; entry < block + length; entry += strlen(entry) + 1) {
    char *equals = strchr(entry, '=');
    if (equals == NULL || equals == entry) {
      fail(125, "an environment entry has no NAME= before its value", NULL);
    }
    environment[index++] = entry;
  }
  environment[index] = NULL;
  execve(argv[1], argv + 1, environment);
  int error = errno;
  fail(error == ENOENT ? 127 : 126, argv[1], strerror(error));
  return 125;
}
