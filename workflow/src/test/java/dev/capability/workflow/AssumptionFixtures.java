package dev.capability.workflow;

import static dev.capability.workflow.Fixtures.phase;
import static dev.capability.workflow.Fixtures.plan;

/** The plan and assumption documents the assumption tests share. */
final class AssumptionFixtures {
  private AssumptionFixtures() {}

  /** A read-only acceptance command, so that a correction's radius need not hold build output. */
  static final String CHECK_ADD = "grep -q add src/main/java/Calc.java";

  /** Phase {@code impl} may write {@code src/main/**}; phase {@code tests}, after it, {@code src/test/**}. */
  static final String PLAN = plan(
      phase("impl", "[\"src/main/**\"]", "[\"" + CHECK_ADD + "\"]", ", \"deliverables\": [\"src/main/java/Calc.java\"]"),
      phase("tests", "[\"src/test/**\", \"target/**\"]", "[\"" + JavaProject.COMPILE_TEST + "\"]",
          ", \"deliverables\": [\"src/test/java/CalcTest.java\"], \"dependsOn\": [\"impl\"]"));

  static String assumption(String id, String confidence, String files, String assumptions) {
    return "{\"version\": 1, \"id\": \"" + id + "\", \"statement\": \"Calc adds ints\", \"rejectedAlternatives\": [\"longs\"],"
        + " \"confidence\": " + confidence + ", \"links\": {\"files\": " + files + ", \"assumptions\": " + assumptions + "}}";
  }

  static String assumption(String id, String files) {
    return assumption(id, "0.8", files, "[]");
  }
}
