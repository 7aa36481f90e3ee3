package dev.capability.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTML report of a real evaluation, opened in a real headless browser (Debian's Chromium):
 * the screenshot shows the table, a green cell for the candidate that passed left of a red cell
 * for the one that failed, in the colours the report's own CSS gives them.
 */
class EvaluationReportInBrowserTest {
  /** How far a drawn pixel may be from the CSS colour in each channel (anti-aliasing, colour management). */
  private static final int TOLERANCE = 6;
  /** Far fewer pixels than a table cell covers, far more than a stray pixel of text. */
  private static final long MIN_CELL_PIXELS = 1000;

  @TempDir Path tmp;

  @Test
  void theScreenshotShowsAGreenPassedCellLeftOfARedFailedCell() throws Exception {
    HeadlessChromium chromium = HeadlessChromium.installed();
    EvaluationFixture fixture = EvaluationFixture.create(tmp);
    Path config = fixture.config("two.json", """
        [{"name": "pass", "ref": "main~2"}, {"name": "fail", "ref": "main~1"}]""",
        "[{\"name\": \"check\", \"argv\": [\"sh\", \"check.sh\"]}]");
    CliRunner.Outcome outcome = CliRunner.run(EvaluationFixture.environment(), "", "evaluate", "--json", config.toString());
    assertThat(outcome.exitCode()).as(outcome.err() + outcome.out()).isEqualTo(ExitCodes.DENIED);
    Path report = Path.of(new ObjectMapper().readTree(outcome.out()).get("reportHtml").asText());
    String html = Files.readString(report);
    int green = cssBackground(html, "passed");
    int red = cssBackground(html, "failed");

    BufferedImage screenshot = chromium.screenshot(report, Files.createDirectories(tmp.resolve("browser")));

    assertThat(HeadlessChromium.pixelsNear(screenshot, green, TOLERANCE)).as("pixels of the passed colour").isGreaterThan(MIN_CELL_PIXELS);
    assertThat(HeadlessChromium.pixelsNear(screenshot, red, TOLERANCE)).as("pixels of the failed colour").isGreaterThan(MIN_CELL_PIXELS);
    assertThat(HeadlessChromium.meanColumnNear(screenshot, green, TOLERANCE)).as("the pass column is left of the fail column").isLessThan(HeadlessChromium.meanColumnNear(screenshot, red, TOLERANCE));
  }

  @Test
  void thePixelCountFindsAColourOnlyWhereItIsDrawn() {
    BufferedImage image = new BufferedImage(20, 10, BufferedImage.TYPE_INT_RGB);
    for (int y = 0; y < 10; y++) {
      for (int x = 0; x < 5; x++) {
        image.setRGB(x, y, 0xb7e4b0 + 0x030303);
      }
    }

    assertThat(HeadlessChromium.pixelsNear(image, 0xb7e4b0, TOLERANCE)).isEqualTo(50);
    assertThat(HeadlessChromium.pixelsNear(image, 0xf2a6a6, TOLERANCE)).isZero();
    assertThat(HeadlessChromium.meanColumnNear(image, 0xb7e4b0, TOLERANCE)).isEqualTo(2.0);
  }

  /** The background the report's style sheet gives {@code td.CLASS}, as RGB. */
  private static int cssBackground(String html, String cssClass) {
    Matcher rule = Pattern.compile("td\\." + cssClass + " \\{ background: #([0-9a-f]{6}); \\}").matcher(html);
    assertThat(rule.find()).as("the report's CSS colours td.%s", cssClass).isTrue();
    return Integer.parseInt(rule.group(1), 16);
  }
}
