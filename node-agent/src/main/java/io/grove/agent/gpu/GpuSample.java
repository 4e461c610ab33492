package io.grove.agent.gpu;

/**
 * One GPU as {@code nvidia-smi} saw it at a sample.
 *
 * @param index the GPU's index
 * @param utilization its utilization in percent, -1 when not said
 * @param memoryUsedBytes its memory in use, -1 when not said
 * @param failure what {@code nvidia-smi} reports wrong with it ({@code ERR!}, {@code [GPU requires
 *     reset]}, missing from the list), or {@code null} when it is well
 */
public record GpuSample(int index, double utilization, long memoryUsedBytes, String failure) {
}
