package io.grove.agent.image;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * The parts of an OCI runtime configuration ({@code config.json}, runtime-spec 1.0.2) that an image
 * job's bundle sets, one record per object, its field names as the spec spells them. What is not
 * here is the runtime's default; {@link OciBundle} fills it in.
 */
record OciConfig(String ociVersion, Process process, Root root, List<Mount> mounts, Linux linux) {

    /** The job's one process: who it runs as, what, where, and what it may never gain. */
    record Process(boolean terminal, User user, List<String> args, List<String> env, String cwd,
            boolean noNewPrivileges, @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Rlimit> rlimits,
            Capabilities capabilities) {
    }

    record User(int uid, int gid) {
    }

    /** A resource limit, {@code RLIMIT_FSIZE} for a job's largest file. */
    record Rlimit(String type, long hard, long soft) {
    }

    /** Every set empty: the job holds no capability. */
    record Capabilities(List<String> bounding, List<String> effective, List<String> inheritable,
            List<String> permitted, List<String> ambient) {

        static final Capabilities NONE = new Capabilities(List.of(), List.of(), List.of(), List.of(), List.of());
    }

    record Root(String path, boolean readonly) {
    }

    record Mount(String destination, String type, String source, List<String> options) {

        static Mount of(String destination, String type, String source, String... options) {
            return new Mount(destination, type, source, List.of(options));
        }
    }

    record Linux(List<Namespace> namespaces, List<Device> devices, List<String> maskedPaths,
            List<String> readonlyPaths) {
    }

    record Namespace(String type) {
    }

    /** A character device the job may open (its GPUs): owned by root, mode 0666. */
    record Device(String path, String type, long major, long minor, int fileMode, int uid, int gid) {

        static Device character(String path, long major, long minor) {
            return new Device(path, "c", major, minor, 0666, 0, 0);
        }
    }
}
