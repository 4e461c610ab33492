package io.grove.agent.job;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Reads {@code /proc}: the resident memory and CPU time of every process group, and a process's
 * start time (to tell a process from a later one that reuses its pid). A job runs as the leader of
 * its own session and process group, so its group is its whole process tree.
 */
public final class ProcTable {

    /** Bytes per page for {@code rss}. */
    static final long PAGE_SIZE = 4096;
    /** Clock ticks per second for {@code utime}, {@code stime} and {@code starttime}. */
    static final long TICKS_PER_SECOND = 100;

    private final Path proc;

    public ProcTable(Path proc) {
        this.proc = proc;
    }

    public static ProcTable system() {
        return new ProcTable(Path.of("/proc"));
    }

    /** Usage of one process group. */
    public record GroupUsage(long residentBytes, long cpuTicks, int processes) {
        GroupUsage plus(long rssPages, long ticks) {
            return new GroupUsage(residentBytes + rssPages * PAGE_SIZE, cpuTicks + ticks, processes + 1);
        }
    }

    /** The usage of every process group, by group id. */
    public Map<Long, GroupUsage> groups() {
        Map<Long, GroupUsage> groups = new HashMap<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(proc, "[0-9]*")) {
            for (Path entry : entries) {
                String[] fields = statFields(entry);
                if (fields != null) {
                    long group = Long.parseLong(fields[2]);
                    long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
                    long rss = Long.parseLong(fields[21]);
                    groups.merge(group, new GroupUsage(0, 0, 0).plus(rss, ticks),
                            (a, b) -> a.plus(b.residentBytes() / PAGE_SIZE, b.cpuTicks()));
                }
            }
        } catch (IOException e) {
            // /proc is unreadable: nothing measured
        }
        return groups;
    }

    /** The start time of a live process in clock ticks since boot, empty if it is gone. */
    public OptionalLong startTime(long pid) {
        String[] fields = statFields(proc.resolve(Long.toString(pid)));
        return fields == null ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(fields[19]));
    }

    /**
     * The fields of {@code /proc/PID/stat} after the command name: index 0 is the state, 1 the
     * parent, 2 the process group, 11/12 utime/stime, 19 starttime, 21 rss.
     */
    private static String[] statFields(Path dir) {
        try {
            String stat = Files.readString(dir.resolve("stat"));
            int close = stat.lastIndexOf(')');
            if (close < 0) {
                return null;
            }
            String[] fields = stat.substring(close + 2).trim().split(" ");
            return fields.length > 21 && !fields[0].equals("Z") ? fields : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
