package dev.capability.workspace.internal;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * A failure of the backend's stream, told apart from a failure of the staging directory: the
 * first means the archive was not returned, the second that the kernel could not take it.
 */
final class StreamFailure extends IOException {
  private static final long serialVersionUID = 1L;

  StreamFailure(IOException cause) {
    super(cause.getMessage(), cause);
  }

  @Override
  public synchronized IOException getCause() {
    return (IOException) super.getCause();
  }

  /** The backend's stream, its failures wrapped. */
  static final class Guarded extends FilterInputStream {
    Guarded(InputStream in) {
      super(in);
    }

    @Override
    public int read() throws IOException {
      try {
        return super.read();
      } catch (IOException e) {
        throw new StreamFailure(e);
      }
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      try {
        return super.read(b, off, len);
      } catch (IOException e) {
        throw new StreamFailure(e);
      }
    }
  }
}
