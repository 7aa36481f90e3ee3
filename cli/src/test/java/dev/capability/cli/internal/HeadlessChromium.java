package dev.capability.cli.internal;

import dev.capability.testing.HostPrograms;
import dev.capability.testing.RequiredBackends;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;

/**
 * Debian's Chromium, headless, as a test's browser: it loads a page from a file and saves a
 * screenshot, run by argv with a profile of its own and a bounded wait. A machine without it
 * skips the test, unless {@value RequiredBackends#VARIABLE} is {@code 1}.
 */
final class HeadlessChromium {
  /** Generous for a loaded machine; a browser that never ends is killed, never waited for. */
  private static final long WAIT_SECONDS = 120;

  private final Path executable;

  private HeadlessChromium(Path executable) {
    this.executable = executable;
  }

  /** The installed browser, or the calling test skipped (or failed, when backends are required). */
  static HeadlessChromium installed() {
    return HostPrograms.lookup("chromium")
        .map(HeadlessChromium::new)
        .orElseGet(() -> RequiredBackends.skipOrFail("no chromium in /usr/bin or /bin (Debian: apt-get install chromium)"));
  }

  /**
   * The page at {@code page} as the browser draws it in a 1200 by 800 window; {@code scratch}
   * holds the profile, the screenshot and the browser's output.
   */
  BufferedImage screenshot(Path page, Path scratch) throws IOException, InterruptedException {
    Path profile = Files.createDirectories(scratch.resolve("chromium-profile"));
    Path png = scratch.resolve("screenshot.png");
    Path log = scratch.resolve("chromium.log");
    Process browser = new ProcessBuilder(List.of(executable.toString(), "--headless", "--no-sandbox", "--disable-gpu",
            "--user-data-dir=" + profile, "--screenshot=" + png, "--window-size=1200,800", page.toUri().toString()))
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
        .start();
    if (!browser.waitFor(WAIT_SECONDS, TimeUnit.SECONDS)) {
      browser.descendants().forEach(ProcessHandle::destroyForcibly);
      browser.destroyForcibly();
      throw new AssertionError("chromium did not end within " + WAIT_SECONDS + " s: " + Files.readString(log, StandardCharsets.UTF_8));
    }
    if (browser.exitValue() != 0 || !Files.isRegularFile(png)) {
      throw new AssertionError("chromium exited " + browser.exitValue() + " without a screenshot: " + Files.readString(log, StandardCharsets.UTF_8));
    }
    BufferedImage image = ImageIO.read(png.toFile());
    if (image == null) {
      throw new AssertionError(png + " is not an image ImageIO can read");
    }
    return image;
  }

  /** How many pixels of {@code image} are within {@code tolerance} of {@code rgb} in each channel. */
  static long pixelsNear(BufferedImage image, int rgb, int tolerance) {
    long count = 0;
    for (int y = 0; y < image.getHeight(); y++) {
      for (int x = 0; x < image.getWidth(); x++) {
        if (near(image.getRGB(x, y), rgb, tolerance)) {
          count++;
        }
      }
    }
    return count;
  }

  /** The mean column of the pixels {@link #pixelsNear} counts; NaN when there are none. */
  static double meanColumnNear(BufferedImage image, int rgb, int tolerance) {
    long sum = 0;
    long count = 0;
    for (int y = 0; y < image.getHeight(); y++) {
      for (int x = 0; x < image.getWidth(); x++) {
        if (near(image.getRGB(x, y), rgb, tolerance)) {
          sum += x;
          count++;
        }
      }
    }
    return count == 0 ? Double.NaN : (double) sum / count;
  }

  private static boolean near(int pixel, int rgb, int tolerance) {
    return channelNear(pixel >> 16, rgb >> 16, tolerance) && channelNear(pixel >> 8, rgb >> 8, tolerance)
        && channelNear(pixel, rgb, tolerance);
  }

  private static boolean channelNear(int a, int b, int tolerance) {
    return Math.abs((a & 0xff) - (b & 0xff)) <= tolerance;
  }
}
