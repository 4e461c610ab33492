package io.grove.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Every {@code grove} command line in the README's and the guides' shell blocks, as written: it
 * names commands and options that exist, with values of the right kind, and gives what they
 * require; every command named in running text ({@code `grove ops explain op-3`}) names commands
 * and options that exist. A synopsis ({@code [--pool P]}, {@code ...}, NAMES to fill in) is not a
 * command to check. What
 * a command then does on a real cluster (a scheduler on another machine, systemd, Docker) is the
 * other tests' to show; {@code LocalCommandTest} and {@code CliClusterTest} run the README's first
 * day against a real {@code grove local}.
 */
class DocsCommandsTest {

    static final Path REPOSITORY = Path.of("..").toAbsolutePath().normalize();
    static final List<String> PROGRAMS = List.of("grove", "./grove", "/opt/grove/bin/grove", "bin/grove");

    /** A command in running text, in backticks. */
    static final java.util.regex.Pattern INLINE = java.util.regex.Pattern.compile("`(grove [^`]+)`");

    /**
     * A command line of a document: where it is, and its arguments after the program; {@code
     * mention} for one named in running text (`grove ops explain`), which may leave out what a
     * command requires, but must name commands and options that exist.
     */
    record Written(String where, String line, List<String> args, boolean mention) {
    }

    @Test
    void everyGroveCommandInTheDocsParsesAsWritten(@TempDir Path dir) throws IOException {
        // an @FILE of arguments (the agent's unit) is read by picocli when it exists: here, an empty one
        Path argsFile = Files.writeString(dir.resolve("args"), "");
        List<Written> commands = new ArrayList<>();
        commands.addAll(commands(REPOSITORY.resolve("README.md")));
        try (Stream<Path> docs = Files.list(REPOSITORY.resolve("docs"))) {
            for (Path doc : docs.filter(p -> p.toString().endsWith(".md")).sorted().toList()) {
                commands.addAll(commands(doc));
            }
        }
        List<String> wrong = new ArrayList<>();
        for (Written command : commands) {
            try {
                new CommandLine(new Grove()).parseArgs(command.args().stream()
                        .map(arg -> arg.startsWith("@") ? "@" + argsFile : arg).toArray(String[]::new));
            } catch (CommandLine.MissingParameterException e) {
                if (!command.mention()) {
                    wrong.add(command.where() + ": " + command.line() + "\n    " + e.getMessage());
                }
            } catch (CommandLine.ParameterException e) {
                wrong.add(command.where() + ": " + command.line() + "\n    " + e.getMessage());
            }
        }
        assertEquals(List.of(), wrong, "commands of the docs that do not parse");
        assertTrue(commands.size() >= 100, "the docs' commands were found: " + commands.size());
    }

    /** The grove command lines in a document's shell blocks ({@code sh}, {@code bash}, {@code console}, or none). */
    static List<Written> commands(Path doc) throws IOException {
        List<Written> out = new ArrayList<>();
        List<String> lines = Files.readAllLines(doc);
        boolean shell = false;
        boolean inBlock = false;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.strip().startsWith("```")) {
                String language = line.strip().substring(3).strip();
                shell = !inBlock && List.of("", "sh", "bash", "console", "shell").contains(language);
                inBlock = !inBlock;
                continue;
            }
            if (!inBlock) {
                // a command in running text: `grove ops explain op-3` (not a synopsis with NAMES to fill in)
                java.util.regex.Matcher inline = INLINE.matcher(line);
                while (inline.find()) {
                    String text = inline.group(1);
                    if (!text.matches(".*\\b[A-Z][A-Z_]*\\b.*") && !text.contains("[") && !text.contains("...")
                            && !text.contains("|")) {
                        List<String> words = words(text);
                        out.add(new Written(REPOSITORY.relativize(doc) + ":" + (i + 1), text, words.subList(1, words.size()),
                                true));
                    }
                }
                continue;
            }
            if (!shell) {
                continue;
            }
            int first = i;
            StringBuilder joined = new StringBuilder(line.strip());
            while (joined.toString().endsWith("\\") && i + 1 < lines.size()) {
                joined.setLength(joined.length() - 1);
                joined.append(' ').append(lines.get(++i).strip());
            }
            String text = joined.toString().replaceFirst("^\\$ ", "");
            List<String> words = words(text);
            if (words.isEmpty() || !PROGRAMS.contains(words.get(0)) || text.contains("[--") || text.contains("...")
                    || text.contains("$(")) {
                continue;
            }
            out.add(new Written(REPOSITORY.relativize(doc) + ":" + (first + 1), text, words.subList(1, words.size()),
                    false));
        }
        return out;
    }

    /** A shell line's words: quotes kept together, a comment and what follows a pipe or a redirection dropped. */
    static List<String> words(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder word = null;
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    word.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                word = word == null ? new StringBuilder() : word;
            } else if (Character.isWhitespace(c)) {
                if (word != null) {
                    words.add(word.toString());
                    word = null;
                }
            } else if (c == '#' && word == null || c == '|' || c == '>' || c == ';' || c == '&') {
                break;
            } else {
                word = word == null ? new StringBuilder() : word;
                word.append(c);
            }
        }
        if (word != null) {
            words.add(word.toString());
        }
        return words;
    }
}
