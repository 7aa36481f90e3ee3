package dev.capability.acquire.internal;

import dev.capability.acquire.AcquisitionCodes;
import dev.capability.acquire.AcquisitionRefusedException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A response body with a time budget. The HTTP client bounds connecting and the headers, not the
 * body; a server that stalls mid-body would otherwise hold the download forever. When the budget
 * runs out the stream is closed under the reader, which wakes a blocked read.
 */
final class DeadlineInputStream extends FilterInputStream {
  private final CompletableFuture<Void> deadline;
  private final String what;
  private final Duration budget;
  private volatile boolean expired;

  DeadlineInputStream(InputStream in, Duration budget, String what) {
    super(in);
    this.what = what;
    this.budget = budget;
    this.deadline = new CompletableFuture<Void>().orTimeout(budget.toMillis(), TimeUnit.MILLISECONDS);
    deadline.whenComplete((ignored, failure) -> {
      if (failure instanceof TimeoutException) {
        expired = true;
        try {
          in.close();
        } catch (IOException e) {
          // Closing is only a way to wake the reader; the read below reports the timeout.
        }
      }
    });
  }

  @Override
  public int read() throws IOException {
    try {
      return checked(super.read());
    } catch (IOException e) {
      throw timedOutOr(e);
    }
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    try {
      return checked(super.read(b, off, len));
    } catch (IOException e) {
      throw timedOutOr(e);
    }
  }

  @Override
  public void close() throws IOException {
    deadline.complete(null);
    super.close();
  }

  private int checked(int result) {
    if (expired) {
      throw timedOut();
    }
    return result;
  }

  private IOException timedOutOr(IOException e) {
    if (expired) {
      throw timedOut();
    }
    return e;
  }

  private AcquisitionRefusedException timedOut() {
    return new AcquisitionRefusedException(
        AcquisitionCodes.DOWNLOAD_TIMED_OUT, what + " was not received within " + budget.toSeconds() + " s");
  }
}
