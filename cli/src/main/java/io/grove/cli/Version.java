package io.grove.cli;

import picocli.CommandLine;

/** The version printed by {@code grove --version}. */
public final class Version implements CommandLine.IVersionProvider {

    @Override
    public String[] getVersion() {
        String version = Grove.class.getPackage().getImplementationVersion();
        return new String[] {"grove " + (version == null ? "development build" : version)};
    }
}
