package io.grove.core.pool;

/**
 * One thing wrong with a configuration.
 *
 * @param path where: {@code tree/pool/subpool}, a tree name, or empty for the file itself
 * @param attribute the attribute at fault, or {@code null} for the pool as a whole
 * @param code a typed reason
 * @param message what is wrong, with the values involved
 * @param line 1-based line in the source file, or 0 when unknown
 */
public record ConfigProblem(String path, String attribute, ProblemCode code, String message, int line) {

    public ConfigProblem(String path, String attribute, ProblemCode code, String message) {
        this(path, attribute, code, message, 0);
    }

    public ConfigProblem atLine(int newLine) {
        return new ConfigProblem(path, attribute, code, message, newLine);
    }

    /** {@code path: attribute: message (line N)} as shown to admins. */
    public String describe(String source) {
        StringBuilder sb = new StringBuilder();
        if (source != null && !source.isEmpty()) {
            sb.append(source);
            if (line > 0) {
                sb.append(':').append(line);
            }
            sb.append(": ");
        } else if (line > 0) {
            sb.append("line ").append(line).append(": ");
        }
        if (path != null && !path.isEmpty()) {
            sb.append(path);
            if (attribute != null) {
                sb.append('.').append(attribute);
            }
            sb.append(": ");
        } else if (attribute != null) {
            sb.append(attribute).append(": ");
        }
        return sb.append(message).append(" [").append(code).append(']').toString();
    }
}
