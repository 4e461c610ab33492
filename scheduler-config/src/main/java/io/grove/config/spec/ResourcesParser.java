package io.grove.config.spec;

import io.grove.config.LoadResult;
import io.grove.config.yaml.Problems;
import io.grove.config.yaml.YamlDocument;
import io.grove.core.pool.PartialResources;
import io.grove.core.pool.ProblemCode;

/** Reads one resources mapping ({@code {cpu: 4, memory: 8Gi}}) given on its own, e.g. in an API call. */
public final class ResourcesParser {

    private ResourcesParser() {
    }

    public static LoadResult<PartialResources> parse(String text, String name) {
        Problems problems = new Problems();
        PartialResources value = YamlDocument.parse("{" + name + ": " + text + "}", problems).map(top -> {
            PartialResources read = top.resources(name);
            if (read == null) {
                problems.add("", name, ProblemCode.MISSING_KEY, "expected a mapping of resources", top.line());
            }
            top.finish();
            return read;
        }).orElse(null);
        return new LoadResult<>(problems.isEmpty() ? value : null, problems.list(), name);
    }
}
