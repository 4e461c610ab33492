package io.grove.agent.gpu;

import java.util.Locale;

/**
 * One GPU of the node.
 *
 * @param index its index as {@code nvidia-smi} numbers it ({@code CUDA_VISIBLE_DEVICES} with
 *     {@code CUDA_DEVICE_ORDER=PCI_BUS_ID})
 * @param uuid its UUID ({@code GPU-...}; {@code NVIDIA_VISIBLE_DEVICES})
 * @param model its product name, e.g. {@code NVIDIA A100-SXM4-80GB}
 * @param memoryBytes its memory
 * @param minor the minor number of its device node {@code /dev/nvidiaMINOR} (major 195)
 */
public record Gpu(int index, String uuid, String model, long memoryBytes, int minor) {

    /** The major number of NVIDIA's GPU device nodes. */
    public static final int MAJOR = 195;

    public Gpu {
        if (index < 0 || minor < 0 || minor > 254 || uuid == null || uuid.isBlank()) {
            throw new IllegalArgumentException("a GPU needs an index, a minor number within 0..254 and a UUID, got "
                    + index + ", " + minor + ", " + uuid);
        }
        model = model == null || model.isBlank() ? "unknown" : model.strip();
    }

    /** The node tag of a model: {@code gpu_model:nvidia-a100-sxm4-80gb}, for {@code nodes_filter} and tag filters. */
    public static String modelTag(String model) {
        String slug = model.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9._-]+", "-").replaceAll("^-+|-+$", "");
        return "gpu_model:" + (slug.isEmpty() ? "unknown" : slug);
    }

    @Override
    public String toString() {
        return "gpu " + index + " (" + uuid + ")";
    }
}
