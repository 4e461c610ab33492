package io.grove.agent.gpu;

import io.grove.agent.job.SystemPrograms;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Finds the node's GPUs with {@code nvidia-smi} (named by absolute path, started with the agent's
 * fixed environment), or takes them as declared ({@code --gpu N}).
 */
public final class GpuDiscovery {

    /** Where {@code nvidia-smi} is unless told otherwise. */
    public static final Path NVIDIA_SMI = Path.of("/usr/bin/nvidia-smi");
    static final String QUERY = "--query-gpu=index,uuid,name,memory.total,pci.bus_id";

    private GpuDiscovery() {
    }

    /** {@code count} GPUs declared by hand: indices and minors 0..count-1, no model known. */
    public static List<Gpu> declared(int count) {
        List<Gpu> gpus = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            gpus.add(new Gpu(i, "GPU-declared-" + i, "unknown", 0, i));
        }
        return gpus;
    }

    /**
     * The GPUs {@code nvidiaSmi} lists; empty when it is not there.
     *
     * @param driverInfo {@code /proc/driver/nvidia/gpus}, where each GPU's device minor is read
     * @throws IOException if it is there but fails or says something unreadable
     */
    public static List<Gpu> discover(Path nvidiaSmi, Path driverInfo) throws IOException {
        if (!Files.isExecutable(nvidiaSmi)) {
            return List.of();
        }
        return parse(run(nvidiaSmi, List.of(QUERY, "--format=csv,noheader,nounits")), driverInfo);
    }

    /** Runs {@code nvidia-smi} with arguments; its output, or an exception with what it said. */
    static String run(Path nvidiaSmi, List<String> args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(nvidiaSmi.toString());
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().clear();
        builder.environment().putAll(SystemPrograms.ENVIRONMENT);
        Process process = builder.start();
        byte[] out = process.getInputStream().readNBytes(1 << 20);
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException(nvidiaSmi + " did not answer within 30 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running " + nvidiaSmi, e);
        }
        String text = new String(out, StandardCharsets.UTF_8);
        if (process.exitValue() != 0) {
            throw new IOException(nvidiaSmi + " failed (exit " + process.exitValue() + "): " + text.strip());
        }
        return text;
    }

    /**
     * What {@code nvidia-smi} says of each of {@code gpus} now: utilization and memory in use, or
     * what is wrong with it (a field it cannot read, or the GPU missing from its list).
     *
     * @throws IOException when {@code nvidia-smi} itself fails
     */
    public static Map<Integer, GpuSample> sample(Path nvidiaSmi, List<Gpu> gpus) throws IOException {
        String csv = run(nvidiaSmi, List.of("--query-gpu=index,utilization.gpu,memory.used", "--format=csv,noheader,nounits"));
        Map<Integer, GpuSample> samples = new LinkedHashMap<>();
        for (String line : csv.split("\n")) {
            String[] fields = line.split(",");
            if (fields.length < 3 || !fields[0].strip().matches("[0-9]{1,3}")) {
                continue;
            }
            int index = Integer.parseInt(fields[0].strip());
            String utilization = fields[1].strip();
            String memory = fields[2].strip();
            String failure = utilization.matches("[0-9.]+") && memory.matches("[0-9.]+") ? null
                    : "nvidia-smi reports it failed (" + utilization + ", " + memory + ")";
            samples.put(index, new GpuSample(index, failure == null ? Double.parseDouble(utilization) : -1,
                    failure == null ? (long) (Double.parseDouble(memory) * (1 << 20)) : -1, failure));
        }
        for (Gpu gpu : gpus) {
            samples.putIfAbsent(gpu.index(), new GpuSample(gpu.index(), -1, -1,
                    "nvidia-smi no longer lists it (fallen off the bus?)"));
        }
        return samples;
    }

    /** Lines of {@code index, uuid, name, memory MiB, bus id}. */
    static List<Gpu> parse(String csv, Path driverInfo) throws IOException {
        List<Gpu> gpus = new ArrayList<>();
        for (String line : csv.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            String[] fields = line.split(",");
            if (fields.length < 5) {
                throw new IOException("nvidia-smi said '" + line.strip() + "', expected index, uuid, name, memory, bus id");
            }
            try {
                int index = Integer.parseInt(fields[0].strip());
                long memoryMib = fields[3].strip().matches("[0-9]+") ? Long.parseLong(fields[3].strip()) : 0;
                String busId = fields[4].strip();
                gpus.add(new Gpu(index, fields[1].strip(), fields[2].strip(), memoryMib << 20,
                        minor(driverInfo, busId, index)));
            } catch (IllegalArgumentException e) {
                throw new IOException("nvidia-smi said '" + line.strip() + "': " + e.getMessage(), e);
            }
        }
        return gpus;
    }

    /** The device minor from the driver's {@code information} file of the GPU at {@code busId}; its index when not there. */
    static int minor(Path driverInfo, String busId, int index) {
        for (String name : List.of(busId, busId.toLowerCase(Locale.ROOT),
                busId.length() > 12 ? busId.substring(busId.length() - 12).toLowerCase(Locale.ROOT) : busId)) {
            Path info = driverInfo.resolve(name).resolve("information");
            try {
                for (String line : Files.readAllLines(info)) {
                    if (line.startsWith("Device Minor:")) {
                        return Integer.parseInt(line.substring("Device Minor:".length()).strip());
                    }
                }
            } catch (IOException | RuntimeException e) {
                // try the next spelling
            }
        }
        return index;
    }
}
