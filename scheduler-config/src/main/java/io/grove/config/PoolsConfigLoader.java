package io.grove.config;

import io.grove.config.yaml.MapReader;
import io.grove.config.yaml.Problems;
import io.grove.config.yaml.YamlDocument;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.pool.PoolTreeValidator;
import io.grove.core.pool.AccessControl;
import io.grove.core.pool.PoolsConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Loads {@code pools.yaml}: parse, then validate, then build, in one call. Strict: unknown keys are
 * refused. Every problem is reported at once, each with its pool path and YAML line.
 */
public final class PoolsConfigLoader {

    private PoolsConfigLoader() {
    }

    public static LoadResult<PoolsConfig> load(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return LoadResult.unreadable(file, e);
        }
        return load(text, file.toString());
    }

    public static LoadResult<PoolsConfig> load(String text, String source) {
        Problems problems = new Problems();
        PoolsConfig config = YamlDocument.parse(text, problems).map(PoolsConfigLoader::read).orElse(null);
        if (config != null && problems.isEmpty()) {
            problems.addAll(PoolTreeValidator.validate(config));
        }
        return new LoadResult<>(problems.isEmpty() ? config : null, problems.list(), source);
    }

    private static PoolsConfig read(MapReader top) {
        String defaultTree = top.string("default_tree");
        List<String> admins = top.has("admins") ? top.strings("admins") : List.of();
        Map<String, PoolTreeConfig> trees = new LinkedHashMap<>();
        Map<String, Map<String, AccessControl.PoolAccess>> acls = new LinkedHashMap<>();
        for (Map.Entry<String, MapReader> entry : top.namedMaps("pool_trees").entrySet()) {
            MapReader tree = entry.getValue();
            Map<String, AccessControl.PoolAccess> treeAcls = new LinkedHashMap<>();
            trees.put(entry.getKey(), TreeConfigReader.read(entry.getKey(), tree, treeAcls));
            acls.put(entry.getKey(), treeAcls);
            tree.finish();
        }
        top.finish();
        if (defaultTree == null && trees.size() == 1) {
            defaultTree = trees.keySet().iterator().next();
        }
        return new PoolsConfig(defaultTree, trees, new AccessControl(admins == null ? List.of() : admins, acls));
    }
}
