package dev.capability.linux;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Runs a classic BPF seccomp program the way the kernel does, for one system call: the test's
 * way to see what an exported filter decides for calls that cannot be made from Java (another
 * architecture, junk in a register's upper half).
 */
final class ClassicBpf {
  static final int AUDIT_ARCH_X86_64 = 0xC000003E;
  static final int AUDIT_ARCH_I386 = 0x40000003;
  static final int X32_SYSCALL_BIT = 0x40000000;
  static final int RET_KILL_PROCESS = 0x80000000;
  static final int RET_KILL_THREAD = 0;
  static final int RET_ALLOW = 0x7fff0000;
  static final int RET_ERRNO = 0x00050000;

  private final ByteBuffer program;

  ClassicBpf(byte[] program) {
    if (program.length == 0 || program.length % 8 != 0) {
      throw new IllegalArgumentException("a BPF program is a non-empty array of 8-byte instructions, not " + program.length + " bytes");
    }
    this.program = ByteBuffer.wrap(program).order(ByteOrder.nativeOrder());
  }

  int instructions() {
    return program.capacity() / 8;
  }

  /** The action the program returns for {@code struct seccomp_data} of this call. */
  int run(int arch, int nr, long... args) {
    ByteBuffer data = ByteBuffer.allocate(64).order(ByteOrder.nativeOrder());
    data.putInt(0, nr).putInt(4, arch).putLong(8, 0x401000L);
    for (int i = 0; i < args.length; i++) {
      data.putLong(16 + 8 * i, args[i]);
    }
    int a = 0;
    int x = 0;
    int[] memory = new int[16];
    int pc = 0;
    for (int steps = 0; steps < 4096; steps++) {
      if (pc < 0 || pc >= instructions()) {
        throw new IllegalStateException("the program runs off its end at " + pc);
      }
      int code = Short.toUnsignedInt(program.getShort(pc * 8));
      int jt = Byte.toUnsignedInt(program.get(pc * 8 + 2));
      int jf = Byte.toUnsignedInt(program.get(pc * 8 + 3));
      int k = program.getInt(pc * 8 + 4);
      pc++;
      switch (code & 0x07) {
        case 0x00 -> a = load(code, k, data, memory);
        case 0x01 -> x = load(code, k, data, memory);
        case 0x02 -> memory[k] = a;
        case 0x03 -> memory[k] = x;
        case 0x04 -> a = alu(code, a, (code & 0x08) == 0 ? k : x);
        case 0x05 -> {
          int operand = (code & 0x08) == 0 ? k : x;
          switch (code & 0xf0) {
            case 0x00 -> pc += k;
            case 0x10 -> pc += a == operand ? jt : jf;
            case 0x20 -> pc += Integer.compareUnsigned(a, operand) > 0 ? jt : jf;
            case 0x30 -> pc += Integer.compareUnsigned(a, operand) >= 0 ? jt : jf;
            case 0x40 -> pc += (a & operand) != 0 ? jt : jf;
            default -> throw unsupported(code);
          }
        }
        case 0x06 -> {
          return (code & 0x18) == 0x10 ? a : k;
        }
        default -> {
          if ((code & 0xf8) == 0x00) {
            x = a;
          } else if ((code & 0xf8) == 0x80) {
            a = x;
          } else {
            throw unsupported(code);
          }
        }
      }
    }
    throw new IllegalStateException("the program does not return");
  }

  private static int load(int code, int k, ByteBuffer data, int[] memory) {
    return switch (code & 0xe0) {
      case 0x00 -> k;
      case 0x20 -> {
        if ((code & 0x18) != 0x00) {
          throw unsupported(code);
        }
        yield data.getInt(k);
      }
      case 0x60 -> memory[k];
      case 0x80 -> 64;
      default -> throw unsupported(code);
    };
  }

  private static int alu(int code, int a, int operand) {
    return switch (code & 0xf0) {
      case 0x00 -> a + operand;
      case 0x10 -> a - operand;
      case 0x20 -> a * operand;
      case 0x30 -> Integer.divideUnsigned(a, operand);
      case 0x40 -> a | operand;
      case 0x50 -> a & operand;
      case 0x60 -> a << operand;
      case 0x70 -> a >>> operand;
      case 0x80 -> -a;
      case 0xa0 -> a ^ operand;
      default -> throw unsupported(code);
    };
  }

  private static IllegalStateException unsupported(int code) {
    return new IllegalStateException("unsupported BPF instruction 0x" + Integer.toHexString(code));
  }
}
