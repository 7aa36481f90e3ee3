package dev.capability.kernel.core.internal.policy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The sed-script value kind: selecting and printing is accepted, running and writing never. */
class SedScriptTest {

  @ParameterizedTest
  @ValueSource(strings = {
      "", "p", "1p", "1,20p", "$p", "$=", "=", "/foo/p", "/foo/,$p", "/foo/,/bar/p", "0~4p", "2~3p", "1,+3p", "/x/,~4p",
      "10q", "10 q 3", "Q", "l", "l 40", "5!d", "/x/!p", "/x/ ! p", "1 , 5 p", "/start/,/end/{/skip/!p}", "{p;p}", "1{p};$p",
      "p;P;=;d;D;n;N;g;G;h;H;x;z", "n;n;p", ";;p;;", "  p  ", "/x/I,/y/Mp", "/x/ I p",
      "\\|^src/|p", "\\#a/b#p", "\\,x\\,y,p", "/a\\/b/p", "/a\\[/p",
      "s/x/y/", "s/x/y/g", "s/x/y/gp", "s/x/y/2", "s/x/y/ig", "s/x/y/Mg", "s/x/y/g p", "s|a/b|c|g", "s#a#b#", "s/a\\/b/c\\/d/",
      "s/(a|b)+/X/gp", "s/\\(a\\)/\\1\\U&/", "s/[]x]/y/", "s/[^]x]/y/", "s/[[:alpha:]]/y/",
      "s/[[:alpha:][:digit:]]/y/g", "s/[[.-.]]/y/", "s/[[=a=]]/y/", "s/[\\]/y/", "s/e/w/", "s/x/e w r/p",
      "y/abc/xyz/", "y|a/b|c/d|", "/e/p", "/w out/p", "1~0p",
  })
  void acceptsScriptsThatOnlySelectAndPrint(String script) {
    assertThat(SedScript.problem(script)).as(script).isEmpty();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '\'', value = {
      // Commands that run a program, read or write a file.
      "e|runs a program", "1e id|runs a program", "$ e id|runs a program", "/x/e|runs a program", "1!e|runs a program",
      "p;e id|runs a program", "p ; e|runs a program", "{e}|runs a program", "1{p;e id}|runs a program", "1,5{/x/{e}}|runs a program",
      "w out|writes a file", "1,5w out|writes a file", "W out|writes a file", "r /etc/passwd|reads a file", "R f|reads a file",
      "$r f|reads a file", "/x/W f|writes a file",
      // The e and w flags of s, however they are spelled.
      "s/x/y/e|runs a program", "s/x/y/ge|runs a program", "s/x/y/2e|runs a program", "s/x/y/g e|runs a program",
      "s/x/y/pe|runs a program", "'s|x|y|e'|runs a program", "s#x#y#e|runs a program", "s/a\\/b/c/e|runs a program",
      "s/x/y\\/z/e|runs a program", "s/[a]/y/e|runs a program", "s/x/y/w out|writes a file", "s/x/y/gw out|writes a file",
      "s/x/y/ w out|writes a file", "'s|x|y|w /tmp/x'|writes a file", "1,3s/x/y/w f|writes a file",
      // A delimiter inside a bracket expression: older GNU sed ends the regex there.
      "s/[/]/x/e|bracket expression", "s/[/]/x/|bracket expression", "s/[^/]*//|bracket expression",
      "s/[[:alpha:]/]/x/e|bracket expression", "'\\|[|]|p'|bracket expression", "s:[[:alpha:]]:x:|bracket expression",
      "s/[/|bracket expression",
      // Anything else the parser does not know.
      "a text|text commands", "i\\|text commands", "c x|text commands", ":a;n;ba|labels", "b|labels", "t|labels", "T|labels",
      "#n|comments", "p # c|unexpected", "F|not allowed", "v|not allowed", "L|not allowed", "pe|unexpected", "pw x|unexpected",
      "p}|closes no", "}|closes no", "{p|not closed", "{1}}|takes no address", "1,p|second address", "+1p|not allowed",
      "1~p|number is missing", "!!p|more than one", "1|command is missing", "/x/|command is missing",
      "s/x/y|not closed", "s/x/y/z|unexpected", "s/x\\|not closed", "/x|not closed", "y/a/b|not closed",
      "sxaxbx|delimiter", "s1a1b1|delimiter", "s\\a\\b\\|delimiter", "s[a[b[|delimiter", "s a b |delimiter", "\\xax p|delimiter",
      "s|delimiter is missing", "y|delimiter is missing",
  })
  void refusesEverythingElse(String script, String reason) {
    assertThat(SedScript.problem(script)).as(script).hasValueSatisfying(problem -> assertThat(problem).contains(reason));
  }

  @ParameterizedTest
  @ValueSource(strings = {"p\ne id", "1p\n", "s/x/\\\ny/", "p\re", "s/x/\u00e9/", "s\u00e9x\u00e9y\u00e9e", "p\u202e"})
  void refusesNewlinesControlCharactersAndNonAscii(String script) {
    assertThat(SedScript.problem(script)).as(script).hasValueSatisfying(problem -> assertThat(problem).contains("printable ASCII"));
  }
}
