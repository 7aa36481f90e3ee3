/*
 * The contract suite's system call probe. Each argument names one attempt; the probe makes it with
 * the raw syscall(2) and prints one line per attempt: "NAME errno=N" when the call failed with N,
 * "NAME ok" when it succeeded, "NAME unknown" for a name it does not know.
 *
 * The arguments of every attempt are chosen so that the call has no effect when nothing stops it:
 * the kernel rejects them (EINVAL, EFAULT, EBADF, ...) with an error other than the one the
 * project's seccomp policy returns (EPERM, ENOSYS for clone3, EAFNOSUPPORT for socket families),
 * so an attempt the filter lets through shows up as a different error, never as an effect. Calls
 * that the kernel gates on a capability before looking at their arguments (the module, kexec and
 * some mount calls) still return EPERM without that capability; the suite knows them.
 *
 * Names:
 *   a system call of the policy (io_uring_setup, userfaultfd, ..., mount_setattr)
 *   clone:FLAGS            clone with FLAGS (hexadecimal) | CLONE_SIGHAND and no CLONE_VM
 *   socket:FAMILY:PROTOCOL socket(FAMILY, an invalid type, PROTOCOL), numbers in decimal
 *
 * Built with gcc -static so that it runs in any sandbox, whatever C library it shows.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef CLONE_SIGHAND
#define CLONE_SIGHAND 0x00000800
#endif

/* An address the kernel can never read from user space: any pointer argument given it is EFAULT. */
#define BAD_POINTER ((void *) 1)
/* A flag bit no flags argument of these calls defines: EINVAL where a call checks its flags. */
#define BAD_FLAG 0x40000000UL
/* A socket type above SOCK_MAX: socket(2) refuses it with EINVAL before it looks at the family. */
#define BAD_SOCKET_TYPE 15

struct attempt {
  const char *name;
  long number;
  long args[6];
};

static const struct attempt ATTEMPTS[] = {
    /* EFAULT: the parameters cannot be read. */
    {"io_uring_setup", SYS_io_uring_setup, {1, (long) BAD_POINTER}},
    /* EBADF: no such ring. */
    {"io_uring_enter", SYS_io_uring_enter, {-2, 0, 0, 0, 0, 0}},
    {"io_uring_register", SYS_io_uring_register, {-2, 0, 0, 0}},
    /* UFFD_USER_MODE_ONLY passes the sysctl check; the unknown flag is then EINVAL. */
    {"userfaultfd", SYS_userfaultfd, {1 | BAD_FLAG}},
    /* EINVAL: unknown flags, checked first. */
    {"perf_event_open", SYS_perf_event_open, {0, 0, -1, -1, ~0L}},
    /* EINVAL: no such command. */
    {"bpf", SYS_bpf, {0x7fffffff, 0, 0}},
    /* EOPNOTSUPP: no such operation. */
    {"keyctl", SYS_keyctl, {0x7fffffff, 0, 0, 0, 0}},
    /* EFAULT: the type cannot be read. */
    {"add_key", SYS_add_key, {(long) BAD_POINTER, (long) BAD_POINTER, 0, 0, 0}},
    {"request_key", SYS_request_key, {(long) BAD_POINTER, (long) BAD_POINTER, 0, 0}},
    /* With CAP_SYS_MODULE: ENOEXEC (too short to be a module), EINVAL, EFAULT; ENOSYS without module support. */
    {"init_module", SYS_init_module, {(long) BAD_POINTER, 0, (long) BAD_POINTER}},
    {"finit_module", SYS_finit_module, {-1, (long) BAD_POINTER, BAD_FLAG}},
    {"delete_module", SYS_delete_module, {(long) BAD_POINTER, 0}},
    /* With CAP_SYS_BOOT: EINVAL (unknown flag, too many segments); ENOSYS without kexec. */
    {"kexec_load", SYS_kexec_load, {0, 0xffff, 0, 0x8000}},
    {"kexec_file_load", SYS_kexec_file_load, {-1, -1, 0, 0, BAD_FLAG}},
    /* EINVAL: unknown flag (CLONE_NEWUSER is set too). */
    {"unshare", SYS_unshare, {0x10000000 | 0x1}},
    /* EBADF. */
    {"setns", SYS_setns, {-1, 0}},
    /* EINVAL: smaller than any struct clone_args. */
    {"clone3", SYS_clone3, {0, 0}},
    /* EFAULT: the file system type cannot be read. */
    {"mount", SYS_mount, {(long) BAD_POINTER, (long) BAD_POINTER, (long) BAD_POINTER, 0, 0}},
    /* EINVAL: unknown flag, checked first. */
    {"umount2", SYS_umount2, {(long) BAD_POINTER, BAD_FLAG}},
    /* With CAP_SYS_ADMIN: EFAULT. */
    {"pivot_root", SYS_pivot_root, {(long) BAD_POINTER, (long) BAD_POINTER}},
    /* EINVAL: unknown flag (after the CAP_SYS_ADMIN check for move_mount, fsopen, fspick). */
    {"open_tree", SYS_open_tree, {-1, (long) BAD_POINTER, BAD_FLAG}},
    {"move_mount", SYS_move_mount, {-1, (long) BAD_POINTER, -1, (long) BAD_POINTER, BAD_FLAG}},
    {"fsopen", SYS_fsopen, {(long) BAD_POINTER, BAD_FLAG}},
    /* EINVAL: no such descriptor for a configuration. */
    {"fsconfig", SYS_fsconfig, {-1, 0x7fffffff, 0, 0, 0}},
    {"fsmount", SYS_fsmount, {-1, BAD_FLAG, 0}},
    {"fspick", SYS_fspick, {-1, (long) BAD_POINTER, BAD_FLAG}},
    {"mount_setattr", SYS_mount_setattr, {-1, (long) BAD_POINTER, BAD_FLAG, 0, 0}},
};

static void report(const char *name, long result, int error) {
  if (result == -1) {
    printf("%s errno=%d\n", name, error);
  } else {
    printf("%s ok\n", name);
  }
}

static void attempt(const struct attempt *a) {
  errno = 0;
  long result = syscall(a->number, a->args[0], a->args[1], a->args[2], a->args[3], a->args[4],
                        a->args[5]);
  report(a->name, result, errno);
}

/* clone:FLAGS. CLONE_SIGHAND without CLONE_VM is EINVAL before anything is created. */
static int attempt_clone(const char *name, const char *flags_text) {
  char *end;
  errno = 0;
  unsigned long flags = strtoul(flags_text, &end, 16);
  if (errno != 0 || *end != '\0' || end == flags_text) {
    return 0;
  }
  errno = 0;
  long result = syscall(SYS_clone, flags | CLONE_SIGHAND, 0L, 0L, 0L, 0L);
  if (result == 0) {
    _exit(0);
  }
  report(name, result, errno);
  return 1;
}

/* socket:FAMILY:PROTOCOL, with a type socket(2) refuses: EINVAL before the family is looked up. */
static int attempt_socket(const char *name, const char *spec) {
  int family;
  int protocol;
  char rest;
  if (sscanf(spec, "%d:%d%c", &family, &protocol, &rest) != 2) {
    return 0;
  }
  errno = 0;
  long result = syscall(SYS_socket, (long) family, (long) BAD_SOCKET_TYPE, (long) protocol);
  if (result >= 0) {
    close((int) result);
  }
  report(name, result, errno);
  return 1;
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  for (int i = 1; i < argc; i++) {
    const char *name = argv[i];
    int known = 0;
    if (strncmp(name, "clone:", 6) == 0) {
      known = attempt_clone(name, name + 6);
    } else if (strncmp(name, "socket:", 7) == 0) {
      known = attempt_socket(name, name + 7);
    } else {
      for (size_t j = 0; j < sizeof ATTEMPTS / sizeof ATTEMPTS[0]; j++) {
        if (strcmp(name, ATTEMPTS[j].name) == 0) {
          attempt(&ATTEMPTS[j]);
          known = 1;
          break;
        }
      }
    }
    if (!known) {
      printf("%s unknown\n", name);
    }
  }
  return 0;
}
