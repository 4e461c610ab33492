package io.grove.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The house rules of every module's main code, checked in one place (this module is built first, so
 * a break shows before anything else runs): types are imported, not named in full inline (unless
 * two types of one simple name meet in a file); no main file is over {@value #MAX_LINES} lines;
 * background threads are made by the one helper, {@code io.grove.http.DaemonThreads}.
 */
class HygieneTest {

    static final int MAX_LINES = 500;
    private static final Path REPOSITORY = Path.of("..");
    private static final Pattern QUALIFIED = Pattern.compile(
            "(?<![\\w.])((?:java|javax|io|org|com|jdk|sun)(?:\\.[a-z_][a-z0-9_]*)+)\\.([A-Z][A-Za-z0-9_]*)");
    private static final Pattern IMPORT = Pattern.compile("(?m)^import ([\\w.]+)\\.([A-Z]\\w*);");
    private static final Pattern DECLARED = Pattern.compile("\\b(?:class|interface|record|enum)\\s+([A-Z]\\w*)");
    private static final Pattern THREADS = Pattern.compile("new Thread\\(|implements ThreadFactory|\\(ThreadFactory\\)");
    private static final Set<String> JAVA_LANG = Set.of("Object", "String", "Record", "Process", "Runtime", "Thread",
            "Module", "Package", "Override", "Error", "Exception", "Math", "System", "Class", "Compiler", "Void");

    @Test
    void typesAreImportedNotNamedInFullInline() throws IOException {
        List<String> hits = new ArrayList<>();
        for (Path file : mainSources()) {
            hits.addAll(inlineNames(file, Files.readString(file)));
        }
        assertEquals(List.of(), hits);
    }

    @Test
    void noMainFileIsOverTheLimit() throws IOException {
        List<String> over = new ArrayList<>();
        for (Path file : mainSources()) {
            long lines = Files.readAllLines(file).size();
            if (lines > MAX_LINES) {
                over.add(file + ": " + lines + " lines (at most " + MAX_LINES + ")");
            }
        }
        assertEquals(List.of(), over);
    }

    @Test
    void threadsAreMadeByTheOneHelper() throws IOException {
        List<String> hits = new ArrayList<>();
        for (Path file : mainSources()) {
            if (file.endsWith(Path.of("io/grove/http/DaemonThreads.java"))) {
                continue;
            }
            String code = codeOnly(Files.readString(file));
            Matcher m = THREADS.matcher(code);
            while (m.find()) {
                hits.add(file + ":" + lineOf(code, m.start()) + ": " + m.group());
            }
        }
        assertEquals(List.of(), hits);
    }

    @Test
    void theCheckSeesAnInlineNameAndAllowsAClash() {
        assertEquals(1, inlineNames(Path.of("A.java"), "package a;\nclass A { java.util.List<String> x; }").size());
        assertEquals(0, inlineNames(Path.of("A.java"), "package a;\n// java.util.List\nclass A { String s = \"java.util.List\"; }").size());
        assertEquals(0, inlineNames(Path.of("A.java"),
                "package a;\nimport java.util.List;\nclass A { java.awt.List x; }").size());
    }

    /** Inline qualified names whose simple name no other type of the file already takes. */
    static List<String> inlineNames(Path file, String source) {
        String code = codeOnly(source);
        Set<String> taken = new HashSet<>(JAVA_LANG);
        Map<String, String> imported = new HashMap<>();
        Matcher imports = IMPORT.matcher(code);
        while (imports.find()) {
            imported.put(imports.group(2), imports.group(1) + "." + imports.group(2));
        }
        Matcher declared = DECLARED.matcher(code);
        while (declared.find()) {
            taken.add(declared.group(1));
        }
        Path folder = file.getParent();
        if (folder != null && Files.isDirectory(folder)) {
            try (Stream<Path> siblings = Files.list(folder)) {
                siblings.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".java"))
                        .forEach(n -> taken.add(n.substring(0, n.length() - ".java".length())));
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
        Matcher ownPackage = Pattern.compile("(?m)^package ([\\w.]+);").matcher(code);
        String pkg = ownPackage.find() ? ownPackage.group(1) : "";
        Map<String, Set<String>> packagesBySimple = new HashMap<>();
        List<Named> found = new ArrayList<>();
        Matcher m = QUALIFIED.matcher(code);
        while (m.find()) {
            int lineStart = code.lastIndexOf('\n', m.start()) + 1;
            String line = code.substring(lineStart, m.start()).trim();
            if (line.startsWith("import") || line.startsWith("package")) {
                continue;
            }
            packagesBySimple.computeIfAbsent(m.group(2), k -> new HashSet<>()).add(m.group(1));
            found.add(new Named(m.group(1), m.group(2), lineOf(code, m.start())));
        }
        List<String> hits = new ArrayList<>();
        for (Named hit : found) {
            String full = hit.pkg() + "." + hit.simple();
            boolean clash = packagesBySimple.get(hit.simple()).size() > 1
                    || (imported.containsKey(hit.simple()) && !imported.get(hit.simple()).equals(full))
                    || (taken.contains(hit.simple()) && !imported.containsKey(hit.simple()) && !hit.pkg().equals(pkg));
            if (!clash) {
                hits.add(file + ":" + hit.line() + ": " + full + " (import it)");
            }
        }
        return hits;
    }

    private record Named(String pkg, String simple, int line) {
    }

    /** The source with comments, strings and character literals blanked (lines kept). */
    static String codeOnly(String source) {
        StringBuilder code = new StringBuilder(source);
        int i = 0;
        while (i < source.length()) {
            int end;
            if (source.startsWith("//", i)) {
                end = source.indexOf('\n', i);
                end = end < 0 ? source.length() : end;
            } else if (source.startsWith("/*", i)) {
                end = source.indexOf("*/", i + 2);
                end = end < 0 ? source.length() : end + 2;
            } else if (source.startsWith("\"\"\"", i)) {
                end = source.indexOf("\"\"\"", i + 3);
                end = end < 0 ? source.length() : end + 3;
            } else if (source.charAt(i) == '"' || source.charAt(i) == '\'') {
                char quote = source.charAt(i);
                end = i + 1;
                while (end < source.length() && source.charAt(end) != quote) {
                    end += source.charAt(end) == '\\' ? 2 : 1;
                }
                end = Math.min(end + 1, source.length());
            } else {
                i++;
                continue;
            }
            for (int k = i; k < end; k++) {
                if (code.charAt(k) != '\n') {
                    code.setCharAt(k, ' ');
                }
            }
            i = end;
        }
        return code.toString();
    }

    private static int lineOf(String code, int at) {
        int line = 1;
        for (int i = 0; i < at; i++) {
            line += code.charAt(i) == '\n' ? 1 : 0;
        }
        return line;
    }

    private static List<Path> mainSources() throws IOException {
        List<Path> sources = new ArrayList<>();
        try (Stream<Path> modules = Files.list(REPOSITORY)) {
            for (Path module : modules.sorted().toList()) {
                Path main = module.resolve("src/main/java");
                if (Files.isDirectory(main)) {
                    try (Stream<Path> files = Files.walk(main)) {
                        files.filter(p -> p.toString().endsWith(".java")).sorted().forEach(sources::add);
                    }
                }
            }
        }
        return sources;
    }
}
